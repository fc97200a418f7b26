// swift run declarative-map [--out FILE.png]
import FlybyCore
import FlybyExamples
import FlybyMaps

ExampleSupport.main(name: "declarative-map") {
    let report = try DeclarativeMapExample.run()
    print("sources added: \(report.sourcesAdded.joined(separator: ", "))")
    print("layers added: \(report.layersAdded.joined(separator: ", "))")
    for s in report.steps {
        let c = s.camera
        print("viewport = .\(s.viewport) with \(s.animation): done after \(s.duration) s at \(c.center), zoom \(c.zoom), bearing \(c.bearing), pitch \(c.pitch)")
    }
    return report.snapshot
}
