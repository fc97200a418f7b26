// swift run chained-camera-animators [--out FILE.png]
import FlybyCore
import FlybyExamples
import FlybyMaps

ExampleSupport.main(name: "chained-camera-animators") {
    let report = try ChainedCameraAnimatorsExample.run()
    for line in report.log { print(line) }
    let c = report.cameraAfterChain
    print("after 10 s: zoom \(c.zoom), pitch \(c.pitch), bearing \(c.bearing)")
    print("owners: \(report.owners.joined(separator: ", "))")
    print("fromValue/toValue: zoom \(report.fromToZoom.start) after the first frame, \(report.fromToZoom.end) at the end")
    print("restricted bounds: asked for zoom 2 at 10°N 20°W, got zoom \(report.restrictedCamera.zoom) at \(report.restrictedCamera.center)")
    print("fitted camera: zoom \(report.fittedCamera.zoom ?? .nan) at \(report.fittedCamera.center.map { "\($0)" } ?? "-")")
    return report.snapshot
}
