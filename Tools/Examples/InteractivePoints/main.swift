// swift run interactive-points [--out FILE.png]
import FlybyExamples
import FlybyMaps

ExampleSupport.main(name: "interactive-points") {
    let report = try InteractivePointsExample.run()
    print("tap at \(report.tapPoint)")
    if let hit = report.selected {
        print("selected: \(hit.name) at \(hit.coordinate), \(hit.distance) pt from the tap (the nearest in the 44×44 box)")
    } else {
        print("selected: nothing in the 44×44 box")
    }
    return report.snapshot
}
