import FlybyRender
import FlybyTestSupport
import Foundation
import Synchronization
import Testing

/// No property is accepted silently (CONTRACTS.md §4): every property the parser accepts is read
/// by the drawing code, or is marked not drawn in ``StyleProperty/drawing`` and warned about when
/// a style sets it.
@Suite struct StylePropertyDrawingTests {
    /// The renderer's Swift sources outside the style parser (Sources/FlybyRender minus Style/).
    static let drawingCode: String = {
        // This file is Tests/FlybyRenderTests/Style/StylePropertyDrawingTests.swift.
        let root = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast(4).joined(separator: "/")
            + "/Sources/FlybyRender"
        let files = ((try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? [])
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("Style/") }.sorted()
        return files.compactMap { try? String(contentsOfFile: root + "/" + $0, encoding: .utf8) }.joined(separator: "\n")
    }()

    /// True when `code` names the enum case `.name` (not as a prefix of a longer name).
    static func mentions(_ code: String, _ name: String) -> Bool {
        var search = code[...]
        while let r = search.range(of: "." + name) {
            let next = search[r.upperBound...].first
            if next.map({ !$0.isLetter && !$0.isNumber && $0 != "_" }) ?? true { return true }
            search = search[r.upperBound...]
        }
        return false
    }

    @Test func everyPropertyMarkedDrawnIsReadByTheDrawingCode() {
        #expect(Self.drawingCode.count > 10_000, "the sources were found")
        for p in StyleProperty.allCases where p.drawing == .drawn {
            #expect(Self.mentions(Self.drawingCode, String(describing: p)),
                    "\(p.rawValue) is marked drawn but no drawing code reads .\(p); draw it or mark it .notDrawn")
        }
    }

    @Test func propertiesWithFixedBehaviourAcceptOnlyKeywords() {
        for p in StyleProperty.allCases {
            guard case .fixed = p.drawing else { continue }
            guard case .enumeration = p.valueType else { Issue.record("\(p.rawValue) is .fixed but accepts any value"); continue }
        }
    }

    @Test func theNewlyDrawnPropertiesAreMarkedDrawn() {
        let drawn: [StyleProperty] = [.lineOffset, .lineGapWidth, .lineBlur, .lineRoundLimit, .lineTranslate, .lineTranslateAnchor,
                                      .circleBlur, .circleTranslate, .circleTranslateAnchor, .circlePitchScale, .circlePitchAlignment]
        for p in drawn { #expect(p.drawing == .drawn, "\(p.rawValue)") }
    }

    /// A JSON literal of a property's default value (colours as `#000000`, images as a name).
    static func literal(_ p: StyleProperty) -> String {
        if case .image = p.valueType { return #""pattern""# }
        switch p.defaultValue {
        case .number(let d): return "\(d)"
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return #""\#(s)""#
        case .color: return ##""#000000""##
        default: return "0"
        }
    }

    /// A style that sets `p` once in a layer of its type (or in `sky`).
    static func style(setting p: StyleProperty, layers: Int = 1) -> String {
        let group = p.group == .layout ? "layout" : "paint"
        let setting = #""\#(p.rawValue)": \#(literal(p))"#
        guard let type = p.layerType else {
            return #"{"version": 8, "sources": {}, "sky": {\#(setting)}, "layers": []}"#
        }
        let source = type == .background ? "" : #""source": "s", "#
        let list = (0..<layers).map { #"{"id": "l\#($0)", "type": "\#(type.rawValue)", \#(source)"\#(group)": {\#(setting)}}"# }
        // Raster layers draw a raster source (an archive the style only names: parsing does not open it).
        let sourceSpec = type == .raster ? #"{"type": "raster", "url": "pmtiles://never-opened.pmtiles"}"#
            : type == .hillshade ? #"{"type": "raster-dem", "url": "pmtiles://never-opened.pmtiles"}"#
            : #"{"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}"#
        return """
            {"version": 8, "sources": {"s": \(sourceSpec)},
             "layers": [\(list.joined(separator: ", "))]}
            """
    }

    @Test func settingAPropertyThatIsNotDrawnWarnsOnceNamingIt() throws {
        let undrawn = StyleProperty.allCases.filter { !$0.isDrawn }
        #expect(!undrawn.isEmpty)
        for p in undrawn {
            let warnings = Mutex<[String]>([])
            var loader = StyleLoader()
            loader.warn = { message in warnings.withLock { $0.append(message) } }
            // Two layers set it, and the style is loaded twice: one warning.
            let style = try Style.parse(Array(Self.style(setting: p, layers: 2).utf8), file: "undrawn.json")
            if p.layerType == .raster || p.layerType == .hillshade {
                // Loading would open the archive: the warnings the loader prints come from this list.
                let listed = style.undrawnProperties
                #expect(listed.count == 1 && listed[0].property == p && listed[0].warning.contains("undrawn.json"), "\(p.rawValue): \(listed)")
                continue
            }
            _ = try loader.load(style: style)
            _ = try loader.load(style: style)
            let got = warnings.withLock { $0 }
            #expect(got.count == 1, "\(p.rawValue): \(got)")
            #expect(got.first.map { $0.contains(p.rawValue) && $0.contains("undrawn.json") && $0.contains("not drawn") } == true,
                    "\(got)")
        }
    }

    @Test func anOffsetOrGapOnAPatternedOrGradientLineWarnsNamingBoth() throws {
        let json = """
            {"version": 8, "sources": {"l": {"type": "geojson", "lineMetrics": true,
              "data": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}}},
             "layers": [{"id": "g", "type": "line", "source": "l",
                         "paint": {"line-gradient": ["interpolate", ["linear"], ["line-progress"], 0, "red", 1, "blue"],
                                   "line-offset": 3, "line-gap-width": 2}}]}
            """
        let listed = try Style.parse(Array(json.utf8), file: "combo.json").undrawnProperties
        #expect(listed.map(\.property) == [.lineOffset, .lineGapWidth], "\(listed)")
        #expect(listed.allSatisfy { $0.warning.contains("combo.json") && $0.warning.contains("line-gradient") && $0.warning.contains("layer 'g'") })
    }

    @Test func aStyleOfDrawnPropertiesLoadsWithoutWarnings() throws {
        let warnings = Mutex<[String]>([])
        var loader = StyleLoader()
        loader.warn = { message in warnings.withLock { $0.append(message) } }
        for p in [StyleProperty.lineOffset, .lineGapWidth, .lineBlur, .circleBlur, .lineRoundLimit, .circleTranslateAnchor] {
            _ = try loader.load(style: try Style.parse(Array(Self.style(setting: p).utf8), file: "drawn.json"))
        }
        #expect(warnings.withLock { $0 }.isEmpty)
    }

    @Test func patternsGradientsAndHaloBlursAreMarkedDrawnAndLoadWithoutWarnings() throws {
        let drawn: [StyleProperty] = [.fillPattern, .linePattern, .backgroundPattern, .lineGradient, .textHaloBlur, .iconHaloBlur]
        for p in drawn { #expect(p.drawing == .drawn, "\(p.rawValue)") }
        let warnings = Mutex<[String]>([])
        var loader = StyleLoader()
        loader.warn = { message in warnings.withLock { $0.append(message) } }
        for p in [StyleProperty.fillPattern, .linePattern, .backgroundPattern, .textHaloBlur, .iconHaloBlur] {
            _ = try loader.load(style: try Style.parse(Array(Self.style(setting: p).utf8), file: "drawn.json"))
        }
        #expect(warnings.withLock { $0 }.isEmpty)
    }
}
