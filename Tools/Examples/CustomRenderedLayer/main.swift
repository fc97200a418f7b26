// swift run custom-rendered-layer [--out FILE.png]
import FlybyExamples
import FlybyMaps
#if canImport(Glibc)
import Glibc
#endif

do {
    let path = try ExampleSupport.outputPath(name: "custom-rendered-layer")
    let report = try CustomRenderedLayerExample.run()
    print("layers: \(report.layerIds.joined(separator: " < "))")
    var changed = 0
    for k in report.snapshot.pixels.indices where report.snapshot.pixels[k] != report.baseline.pixels[k] { changed += 1 }
    print("the custom layer changed \(changed) of \(report.snapshot.pixels.count) pixels")
    try report.snapshot.writePNG(to: path)
    print("snapshot: \(path)")
} catch {
    print("custom-rendered-layer: error: \(error)")
    exit(1)
}
