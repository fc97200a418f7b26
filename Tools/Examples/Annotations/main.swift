// swift run annotations [--out FILE.png]
import FlybyExamples
import FlybyMaps

ExampleSupport.main(name: "annotations") {
    let report = try AnnotationsExample.run()
    func show(_ what: String, _ calls: [(manager: String, annotations: [String])]) {
        let text = calls.isEmpty ? "no annotation" : calls.map { "\($0.annotations.joined(separator: ", ")) (manager \($0.manager))" }.joined(separator: "; ")
        print("tap \(what): \(text)")
    }
    show("on the New York → Washington line", report.tapOnLine)
    show("in the polygon's hole", report.tapInHole)
    show("on the polygon's band", report.tapOnRing)
    show("on the New York pin", report.tapOnPin)
    return report.snapshot
}
