// swift run symbol-markers [--out FILE.png]
import FlybyExamples
import FlybyMaps
import FlybyRender

ExampleSupport.main(name: "symbol-markers") {
    let report = try SymbolMarkersExample.run()
    print("\(SymbolMarkersExample.markers.count) markers, \(report.placedIcons.count) icons placed (icon-allow-overlap false hides the colliding one)")
    for box in report.placedIcons {
        print("  icon box x \(Int(box.minX))…\(Int(box.maxX)), y \(Int(box.minY))…\(Int(box.maxY))")
    }
    return report.snapshot
}
