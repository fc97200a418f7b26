/// An affine map of 3D space: `p ↦ c0·x + c1·y + c2·z + t` (columns of the linear part, then the
/// translation), the node transforms of a glTF scene (glTF 2.0 §3.5.2, column vectors).
struct Affine3: Equatable {
    var c0: SIMD3<Double>, c1: SIMD3<Double>, c2: SIMD3<Double>
    var t: SIMD3<Double>

    static let identity = Affine3(c0: SIMD3(1, 0, 0), c1: SIMD3(0, 1, 0), c2: SIMD3(0, 0, 1), t: .zero)

    @inline(__always) func linear(_ v: SIMD3<Double>) -> SIMD3<Double> { c0 * v.x + c1 * v.y + c2 * v.z }
    @inline(__always) func apply(_ p: SIMD3<Double>) -> SIMD3<Double> { linear(p) + t }

    /// `self ∘ inner`: first `inner`, then `self` (a parent's transform then a child's local one).
    func then(_ inner: Affine3) -> Affine3 {
        Affine3(c0: linear(inner.c0), c1: linear(inner.c1), c2: linear(inner.c2), t: apply(inner.t))
    }

    var determinant: Double { (c0 * Affine3.cross(c1, c2)).sum() }

    /// The cofactor matrix (det · inverse transpose), as columns: it maps normals, keeping them
    /// perpendicular to transformed surfaces even under non-uniform scale.
    var cofactor: Affine3 { Affine3(c0: Affine3.cross(c1, c2), c1: Affine3.cross(c2, c0), c2: Affine3.cross(c0, c1), t: .zero) }

    /// The rotation of the unit quaternion (x, y, z, w) (glTF's `rotation` order).
    static func rotation(x: Double, y: Double, z: Double, w: Double) -> Affine3 {
        Affine3(c0: SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)),
                c1: SIMD3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)),
                c2: SIMD3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)),
                t: .zero)
    }

    /// The rotation by `degrees` about axis `axis` (0 x, 1 y, 2 z), counter-clockwise looking
    /// down the axis towards the origin (right-handed).
    static func rotation(degrees: Double, axis: Int) -> Affine3 {
        let a = degrees * .pi / 180
        let c = mapCos(a), s = mapSin(a)
        switch axis {
        case 0: return Affine3(c0: SIMD3(1, 0, 0), c1: SIMD3(0, c, s), c2: SIMD3(0, -s, c), t: .zero)
        case 1: return Affine3(c0: SIMD3(c, 0, -s), c1: SIMD3(0, 1, 0), c2: SIMD3(s, 0, c), t: .zero)
        default: return Affine3(c0: SIMD3(c, s, 0), c1: SIMD3(-s, c, 0), c2: SIMD3(0, 0, 1), t: .zero)
        }
    }

    @inline(__always) static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    @inline(__always) static func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }

    @inline(__always) static func isFinite(_ v: SIMD3<Double>) -> Bool { v.x.isFinite && v.y.isFinite && v.z.isFinite }
}
