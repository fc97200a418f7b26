// swift run featureset-interactions [--out FILE.png]
// Writes FILE.png (the interactions) and FILE-themes.png (light presets and themes).
import FlybyExamples
import FlybyMaps
#if canImport(Glibc)
import Glibc
#endif

do {
    let path = try ExampleSupport.outputPath(name: "featureset-interactions")
    let report = try FeaturesetInteractionsExample.run()
    for line in report.log { print(line) }
    try report.interactions.writePNG(to: path)
    print("snapshot: \(path)")
    let themes = path.hasSuffix(".png") ? String(path.dropLast(4)) + "-themes.png" : path + "-themes.png"
    try report.themes.writePNG(to: themes)
    print("snapshot: \(themes) (day · faded dawn / monochrome · night)")
} catch {
    print("featureset-interactions: error: \(error)")
    exit(1)
}
