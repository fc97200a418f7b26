// swift run custom-rendered-layer [--out FILE.png]
import FlybyExamples
import FlybyMaps
import FlybyRender

ExampleSupport.main(name: "custom-rendered-layer") {
    let report = try CustomRenderedLayerExample.run()
    print("layers: \(report.layerIds.joined(separator: " < "))")
    let changed = zip(report.snapshot.pixels, report.baseline.pixels).filter { $0 != $1 }.count
    print("the custom layer changed \(changed) of \(report.snapshot.pixels.count) pixels")
    return report.snapshot
}
