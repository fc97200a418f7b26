// swift run view-annotations [--out FILE.png]
import FlybyExamples
import FlybyMaps

ExampleSupport.main(name: "view-annotations") {
    let report = try ViewAnnotationsExample.run()
    for (title, anchor) in report.firstAnchors.sorted(by: { $0.key < $1.key }) { print("\(title): \(anchor)") }
    print("taxi rank: hidden without allowOverlap = \(report.taxiHiddenWithoutOverlap), shown with it = \(report.taxiShownWithOverlap)")
    print("cathedral near the top edge: anchor \(report.cathedralAnchorNearTop ?? "hidden")")
    for change in report.anchorChanges { print("onAnchorChanged: \(change)") }
    return report.snapshot
}
