import FlybyRender
import FlybyTestSupport
import Foundation
import Testing

/// FlybyMaps' typed layers are generated from the style-property table: the committed
/// `Sources/FlybyMaps/Style/Layers+Generated.swift` must be what ``LayersGenerator`` writes.
///
/// `FLYBY_RECORD_GOLDENS=1 swift test --filter LayersGeneratedTests` (or `Tools/generate-layers`)
/// rewrites the file and **fails**, so a recording run never passes by accident; rebuild after.
@Suite struct LayersGeneratedTests {
    static let path = repositoryRoot() + "/Sources/FlybyMaps/Style/Layers+Generated.swift"

    @Test func theCommittedLayersAreWhatTheTableGenerates() throws {
        let expected = LayersGenerator.generate()
        let committed = FileManager.default.contents(atPath: Self.path).flatMap { String(data: $0, encoding: .utf8) }
        guard committed != expected else { return }
        if ProcessInfo.processInfo.environment["FLYBY_RECORD_GOLDENS"] == "1" {
            try Data(expected.utf8).write(to: URL(fileURLWithPath: Self.path))
            Issue.record("rewrote \(Self.path); rebuild and re-run without FLYBY_RECORD_GOLDENS")
            return
        }
        let old = (committed ?? "").split(separator: "\n", omittingEmptySubsequences: false)
        let new = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (0..<min(old.count, new.count)).first { old[$0] != new[$0] } ?? min(old.count, new.count)
        Issue.record("\(Self.path) differs from the table at line \(line + 1) (run Tools/generate-layers): expected \(line < new.count ? String(new[line]) : "<end>")")
    }

    @Test func everyLayerTypeHasATypedLayer() {
        let generated = Set(LayersGenerator.kinds.map(\.type))
        for t in LayerType.allCases { #expect(generated.contains(t), "\(t.rawValue) has no typed layer") }
    }

    @Test func keywordCasesAreCamelCased() {
        #expect(LayersGenerator.caseName("viewport-glyph") == "viewportGlyph")
        #expect(LayersGenerator.caseName("top-left") == "topLeft")
        #expect(LayersGenerator.caseName("map") == "map")
    }
}
