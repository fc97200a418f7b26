// swift run featureset-interactions [--out FILE.png]
// Writes FILE.png (the interactions) and FILE-themes.png next to it (light presets and themes).
import FlybyExamples
import FlybyMaps

ExampleSupport.main(name: "featureset-interactions") {
    let report = try FeaturesetInteractionsExample.run()
    for line in report.log { print(line) }
    let path = try ExampleSupport.outputPath(name: "featureset-interactions")
    let themes = (path.hasSuffix(".png") ? String(path.dropLast(4)) : path) + "-themes.png"
    try report.themes.writePNG(to: themes)
    print("snapshot: \(themes) (default day · faded dawn / monochrome day · default night)")
    return report.interactions
}
