// swift run symbol-markers [--out FILE.png]
import FlybyExamples
import FlybyMaps
#if canImport(Glibc)
import Glibc
#endif

do {
    let path = try ExampleSupport.outputPath(name: "symbol-markers")
    let report = try SymbolMarkersExample.run()
    print("\(SymbolMarkersExample.markers.count) markers, \(report.placedIcons.count) icons placed (icon-allow-overlap false hides the colliding one)")
    for box in report.placedIcons {
        print("  icon box x \(Int(box.minX))…\(Int(box.maxX)), y \(Int(box.minY))…\(Int(box.maxY))")
    }
    try report.snapshot.writePNG(to: path)
    print("snapshot: \(path)")
} catch {
    print("symbol-markers: error: \(error)")
    exit(1)
}
