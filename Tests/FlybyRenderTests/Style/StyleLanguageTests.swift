import Foundation
import FlybyData
import Testing
@testable import FlybyRender

/// The whole style language on real styles, and its limits.
@Suite struct StyleLanguageTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// Compiles every layer's filter and every paint and layout value of a style without loading
    /// its sources. Returns the number of values compiled and the property names Flyby does not
    /// know (compiled as plain expressions of any type).
    static func compileLayers(of path: String) throws -> (count: Int, unknown: Set<String>) {
        let bytes = Array(try Data(contentsOf: fixtures.appendingPathComponent(path)))
        let doc = try JSONDocument(file: path, bytes: bytes)
        var count = 0
        var unknown = Set<String>()
        for layer in try doc.cursor.required("layers").elements() {
            if let f = try layer.member("filter") { _ = try ExpressionCompiler.compileFilter(f); count += 1 }
            for group in ["paint", "layout"] {
                guard let g = try layer.member(group) else { continue }
                for (key, value) in try g.members() where key != "visibility" {
                    if let p = StyleProperty(name: key) {
                        _ = try ExpressionCompiler.compileProperty(value, p)
                    } else {
                        unknown.insert(key)
                        // A plain array (`"fill-translate": [0, 0]`) is a literal value.
                        if ExpressionCompiler.isExpression(value) || value.isObject {
                            _ = try ExpressionCompiler.compile(value, spec: PropertySpec(type: nil))
                        }
                    }
                    count += 1
                }
            }
        }
        return (count, unknown)
    }

    @Test func osmBrightEveryLayerValueCompiles() throws {
        let r = try Self.compileLayers(of: "styles/osm-bright/style.json")
        print("osm-bright: \(r.count) values compiled; properties Flyby does not draw: \(r.unknown.sorted().joined(separator: ", "))")
        #expect(r.count > 300)
    }

    @Test func positronEveryLayerValueCompiles() throws {
        let r = try Self.compileLayers(of: "styles/positron/style.json")
        print("positron: \(r.count) values compiled; properties Flyby does not draw: \(r.unknown.sorted().joined(separator: ", "))")
        #expect(r.count > 100)
    }

    @Test func legacyZoomFunctionMatchesItsExpression() throws {
        let legacy = try StyleExpression.parse(#"{"base": 1.4, "stops": [[5, 0.5], [12, 4]]}"#, property: .lineWidth)
        let modern = try StyleExpression.parse(#"["interpolate", ["exponential", 1.4], ["zoom"], 5, 0.5, 12, 4]"#, property: .lineWidth)
        #expect(legacy.dependsOnZoom && !legacy.dependsOnFeature)
        for z in [0.0, 5, 7.3, 11.9, 12, 20] { #expect(legacy.evaluate(zoom: z) == modern.evaluate(zoom: z)) }
    }

    @Test func legacyCategoricalFunctionFallsBackToTheDefault() throws {
        let e = try StyleExpression.parse(#"{"property": "class", "type": "categorical", "stops": [["park", "green"], ["water", "blue"]], "default": "grey"}"#, property: .fillColor)
        func colour(_ c: String?) -> StyleValue? {
            e.evaluate(zoom: 0, feature: FeatureContext(properties: PropertyMap(c.map { [("class", PropertyValue.string($0))] } ?? [])))
        }
        #expect(colour("park") == .color(StyleColor(css: "green")!))
        #expect(colour("water") == .color(StyleColor(css: "blue")!))
        #expect(colour("road") == .color(StyleColor(css: "grey")!))
        #expect(colour(nil) == .color(StyleColor(css: "grey")!))
    }

    @Test func legacyFiltersCoverTypeIdInHasAndNone() throws {
        let f = FeatureContext(properties: PropertyMap([("class", .string("park")), ("rank", .number(3))]), kind: .polygon, id: .number(7))
        let cases: [(String, Bool)] = [
            (#"["==", "$type", "Polygon"]"#, true), (#"["==", "$type", "Point"]"#, false),
            (#"["==", "$id", 7]"#, true), (#"["in", "class", "wood", "park"]"#, true), (#"["!in", "class", "park"]"#, false),
            (#"["has", "rank"]"#, true), (#"["!has", "rank"]"#, false), (#"["has", "$id"]"#, true),
            (#"["<", "rank", 5]"#, true), (#"["<", "rank", "5"]"#, false), (#"["none", ["==", "class", "x"]]"#, true),
            (#"["all", ["==", "class", "park"], [">=", "rank", 3]]"#, true), (#"["any"]"#, false), (#"["all"]"#, true),
        ]
        for (json, want) in cases {
            #expect(try StyleExpression.parseFilter(json).evaluate(zoom: 0, feature: f) == .bool(want), "\(json)")
        }
    }

    /// 10,000 nested expressions are refused with an error (by the JSON reader's nesting limit),
    /// never by overflowing the stack; so are expressions within that limit but deeper than the
    /// compiler's own (32 levels), in a property, a filter, a legacy filter, or through `let`.
    ///
    /// Run on a thread with a 16 MB stack: in debug builds the JSON reader needs about 2 KB of stack
    /// per nesting level (1.1 MB at its 512-level limit), more than a test-pool thread may have.
    @Test func deeplyNestedExpressionIsRefusedCleanly() throws {
        final class Box: @unchecked Sendable { var problems: [String] = [] }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.problems = Self.deepNestingProblems()
            done.signal()
        }
        thread.stackSize = 16 << 20
        thread.start()
        done.wait()
        #expect(box.problems.isEmpty, "\(box.problems)")
    }

    /// What went wrong refusing deep expressions (empty when every one was refused as it should be).
    static func deepNestingProblems() -> [String] {
        func nested(_ open: String, _ depth: Int, _ leaf: String) -> String {
            String(repeating: open, count: depth) + leaf + String(repeating: "]", count: depth)
        }
        var problems: [String] = []
        func refused(_ what: String, _ needle: String, _ body: () throws(InputError) -> StyleExpression) {
            do { _ = try body(); problems.append("\(what) compiled") } catch {
                if !error.message.contains(needle) { problems.append("\(what): \(error)") }
            }
        }
        refused("10,000 levels", "nesting deeper than") { () throws(InputError) in try StyleExpression.parse(nested(#"["+", 1, "#, 10_000, "1"), property: .lineWidth) }
        refused("100 levels", "nested deeper than") { () throws(InputError) in try StyleExpression.parse(nested(#"["+", 1, "#, 100, "1"), property: .lineWidth) }
        do { _ = try StyleExpression.parse(nested(#"["+", 1, "#, 20, "1"), property: .lineWidth) } catch { problems.append("20 levels: \(error)") }
        // Each `let` adds 25 levels the `var` stands for: 5 of them are 125 levels when evaluated.
        var chain = #"["zoom"]"#
        for k in 0..<5 { chain = "[\"let\", \"v\(k)\", \(nested(#"["+", 1, "#, 5, chain)), [\"+\", 1, [\"var\", \"v\(k)\"]]]" }
        refused("a let chain", "nested deeper than") { () throws(InputError) in try StyleExpression.parse(nested(#"["+", 1, "#, 20, chain)) }
        refused("a 100-level filter", "nested deeper than") { () throws(InputError) in try StyleExpression.parseFilter(nested(#"["all", "#, 100, "true")) }
        refused("a 100-level legacy filter", "nested deeper than") { () throws(InputError) in try StyleExpression.parseFilter(nested(#"["none", "#, 100, #"["has", "a"]"#)) }
        return problems
    }

    @Test func malformedExpressionInAStyleNamesLayerPropertyAndPath() {
        let json = #"""
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
         "layers": [{"id": "roads", "type": "line", "source": "s",
                     "paint": {"line-width": ["interpolate", ["linear"], ["zoom"], 5, 1, 10, ["+", 1, "two"]]}}]}
        """#
        do {
            _ = try Style.parse(Array(json.utf8), file: "style.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.path == #"layers[0] (id "roads").paint.line-width[6][2]"#, "\(error)")
            #expect(error.message.contains("Expected number but found string instead."), "\(error)")
        }
    }

    @Test func colourInterpolationUsesStraightAlpha() throws {
        let e = try StyleExpression.parse(#"["interpolate", ["linear"], ["zoom"], 0, "red", 10, "rgba(0, 0, 255, 0)"]"#, property: .fillColor)
        let c = try #require(e.evaluate(zoom: 4)?.colorValue)
        #expect(abs(c.red - 0.6) < 1e-12 && abs(c.blue - 0.4) < 1e-12 && abs(c.alpha - 0.6) < 1e-12)
    }
}
