import FlybyCore
import FlybyData
import FlybyRender
import Testing

extension RenderGoldenTests {
    /// The `puck3d` scenes: the built-in arrow as the 3D puck over the city style, the camera
    /// pitched 60° and following the puck's course (30°) as `followPuck` does, at zoom 16.5.
    static func renderPuck3D(threads: Int) throws -> PixelBuffer {
        var renderer = try MapRenderer(style: try #require(styles["city"]), width: width, height: height)
        renderer.threads = threads
        renderer.puck3D = Puck3D(model: try GLTFModel.load(path: try #require(BuiltinData.path("models/arrow.glb"))))
        let puck = PuckState(location: Location(coordinate: helsinki, timestamp: 0, course: 30, horizontalAccuracy: 0))
        var frame = PixelBuffer(width: width, height: height)
        renderer.render(camera: CameraState(center: helsinki, zoom: 16.5, bearing: 30, pitch: 60), puck: puck, into: &frame)
        return frame
    }
}
