// swift run interactive-points [--out FILE.png]
import FlybyExamples
import FlybyMaps
#if canImport(Glibc)
import Glibc
#endif

do {
    let path = try ExampleSupport.outputPath(name: "interactive-points")
    let report = try InteractivePointsExample.run()
    print("tap at \(report.tapPoint)")
    if let hit = report.selected {
        print("selected: \(hit.name) at \(hit.coordinate), \(hit.distance) pt from the tap (nearest in the 44×44 box)")
    } else {
        print("selected: nothing in the 44×44 box")
    }
    try report.snapshot.writePNG(to: path)
    print("snapshot: \(path)")
} catch {
    print("interactive-points: error: \(error)")
    exit(1)
}
