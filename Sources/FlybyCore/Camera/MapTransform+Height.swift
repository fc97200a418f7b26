/// Points above the ground plane: the camera's full 3D perspective, of which
/// ``MapTransform/screenPoint(worldX:worldY:)`` is the `height = 0` case.
///
/// Camera model (``MapTransform``): the eye is `d = cameraDistance` points from the centre along
/// the view axis, which is tilted by `pitch` from straight down. For a point `e` points right of
/// the centre (screen-aligned), `n` points ahead of it on the ground and `u` points above the
/// ground plane, the depth along the view axis is `W = d + n·sin(pitch) − u·cos(pitch)` and the
/// point's height on the screen above the principal point is `(n·cos(pitch) + u·sin(pitch))·d/W`.
/// With terrain the ground plane is the terrain's height under the camera centre (the centre sits
/// on the terrain surface, as in ``Terrain``).
extension MapTransform {
    /// Screen point and depth (points along the view axis, > 0 in front) of the world point
    /// (`worldX`, `worldY`) (x east, y south, at ``worldSize``) raised `height` world points above
    /// the ground plane; nil when it lies behind the near limit.
    @inlinable
    public func screenPoint(worldX: Double, worldY: Double, height u: Double) -> (point: ScreenPoint, depth: Double)? {
        let east = worldX - centerX, north = centerY - worldY
        let e = east * cosB - north * sinB
        let n = east * sinB + north * cosB
        let depth = n * sinP - u * cosP + cameraDistance
        guard depth > cameraDistance * 1e-6 else { return nil }
        let k = cameraDistance / depth
        return (ScreenPoint(x: principalPoint.x + e * k, y: principalPoint.y - (n * cosP + u * sinP) * k), depth)
    }
}
