import FlybyData
@testable import FlybyRender
import Foundation
import Testing

/// The style-property table (StylePropertyTable.swift) is consistent with itself and with the
/// parser: one row per property, defaults of the row's type inside its range, and every row
/// accepted where the row says (and only there).
@Suite struct StylePropertyTableTests {
    @Test func everyPropertyHasExactlyOneRowAtItsIndex() {
        #expect(StyleProperty.table.count == StyleProperty.allCases.count)
        for p in StyleProperty.allCases { #expect(StyleProperty.table[p.index].property == p, "\(p.rawValue)") }
    }

    /// True when `v` is a value of type `t`.
    static func has(_ v: StyleValue, _ t: PropertyValueType) -> Bool {
        switch (t, v) {
        case (.color, .color), (.number, .number), (.boolean, .bool), (.string, .string), (.formatted, .string), (.image, .string):
            return true
        case (.enumeration(let values), .string(let s)): return values.contains(s)
        case (.numberArray(let count), .array(let a)):
            return a.allSatisfy { if case .number = $0 { return true } else { return false } } && (count == nil || a.count == count)
        case (.stringArray, .array(let a)):
            return !a.isEmpty && a.allSatisfy { if case .string = $0 { return true } else { return false } }
        default: return false
        }
    }

    @Test func everyDefaultHasTheRowsValueType() {
        // Unset defaults mean "use another property" (fill-outline-color, line-gradient; the
        // variable anchors: text-anchor alone) or "solid".
        let unset: Set<StyleProperty> = [.fillOutlineColor, .lineGradient, .lineDasharray, .textVariableAnchor, .textVariableAnchorOffset]
        for r in StyleProperty.table {
            if r.defaultValue == .null {
                #expect(unset.contains(r.property), "\(r.property.rawValue) has no default")
            } else {
                #expect(Self.has(r.defaultValue, r.valueType), "\(r.property.rawValue): \(r.defaultValue) is not a \(r.valueType)")
            }
        }
    }

    @Test func everyRangeContainsItsDefaultAndBelongsToANumber() {
        for r in StyleProperty.table {
            guard let range = r.range else { continue }
            #expect(r.valueType == .number, "\(r.property.rawValue) has a range but is not a number")
            guard case .number(let d) = r.defaultValue else { Issue.record("\(r.property.rawValue): default not a number"); continue }
            #expect(range.contains(d), "\(r.property.rawValue): default \(d) outside \(range)")
        }
    }

    @Test func layerTypeAndGroupAgreeWithTheName() {
        for r in StyleProperty.table {
            #expect((r.layerType == nil) == (r.group == .sky), "\(r.property.rawValue)")
            guard let t = r.layerType else { continue }
            let prefix = t == .symbol ? ["text-", "icon-", "symbol-"] : [t.rawValue + "-"]
            #expect(prefix.contains { r.property.rawValue.hasPrefix($0) }, "\(r.property.rawValue) is not a \(t.rawValue) name")
            #expect(!r.units.isEmpty, "\(r.property.rawValue) has no units text")
        }
    }

    @Test func onlySingleNumbersScaleWithThePixelRatio() {
        for r in StyleProperty.table where r.scalesWithPixelRatio { #expect(r.valueType == .number, "\(r.property.rawValue)") }
        #expect(Style.pixelLengthProperties.contains(.lineWidth))
        #expect(!Style.pixelLengthProperties.contains(.lineTranslate) && !Style.pixelLengthProperties.contains(.textMaxWidth))
    }

    @Test func onlyPaintPropertiesTransition() {
        for r in StyleProperty.table where r.isTransitionable { #expect(r.group != .layout, "\(r.property.rawValue)") }
    }

    /// A JSON literal of a row's default (colours as `#000000`, an unset dash array as `[2, 1]`).
    static func literal(_ r: StylePropertyRow) -> String {
        if case .numberArray = r.valueType, r.defaultValue == .null { return "[2, 1]" }
        if r.valueType == .anchorArray { return #"["top", "bottom-left"]"# }
        if r.valueType == .anchorOffsets { return #"["top", [0, 1], "left", [1.5, 0]]"# }
        switch r.defaultValue {
        case .number(let d): return "\(d)"
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return #""\#(s.isEmpty ? "x" : s)""#
        case .array(let a): return "[" + a.map { v in
                if case .number(let d) = v { return "\(d)" }
                if case .string(let s) = v { return #""\#(s)""# }
                return "0"
            }.joined(separator: ", ") + "]"
        default: return ##""#000000""##
        }
    }

    /// A style with one layer of `r`'s type setting `r` to `value` in `group` (or in `sky`).
    static func style(_ r: StylePropertyRow, _ value: String, group: StyleProperty.Group? = nil) -> String {
        let g = group ?? r.group
        let setting = #""\#(r.property.rawValue)": \#(value)"#
        guard let type = r.layerType else { return #"{"version": 8, "sources": {}, "sky": {\#(setting)}, "layers": []}"# }
        let source = type == .background ? "" : #""source": "s", "#
        let spec = type == .raster ? #"{"type": "raster", "url": "pmtiles://never-opened.pmtiles"}"#
            : type == .hillshade ? #"{"type": "raster-dem", "url": "pmtiles://never-opened.pmtiles"}"#
            : #"{"type": "geojson", "lineMetrics": true, "data": {"type": "FeatureCollection", "features": []}}"#
        return #"{"version": 8, "sources": {"s": \#(spec)}, "layers": [{"id": "l", "type": "\#(type.rawValue)", \#(source)"\#(g == .layout ? "layout" : "paint")": {\#(setting)}}]}"#
    }

    @Test func theParserAcceptsEveryRowInItsGroupAndOnlyThere() throws {
        for r in StyleProperty.table {
            #expect(throws: Never.self, "\(r.property.rawValue)") { try Style.parse(Array(Self.style(r, Self.literal(r)).utf8), file: "t.json") }
            guard r.group != .sky else { continue }
            let other: StyleProperty.Group = r.group == .paint ? .layout : .paint
            #expect(throws: InputError.self, "\(r.property.rawValue) in \(other)") {
                try Style.parse(Array(Self.style(r, Self.literal(r), group: other).utf8), file: "t.json")
            }
        }
    }

    @Test func aNameWithoutARowIsRefused() {
        let row = StyleProperty.fillColor.row
        let json = Self.style(row, #""red""#).replacingOccurrences(of: "fill-color", with: "fill-emissive-strength")
        #expect(throws: InputError.self) { try Style.parse(Array(json.utf8), file: "t.json") }
        #expect(StyleProperty(name: "fill-emissive-strength") == nil)
    }

    @Test func featureDataIsAcceptedWhereTheRowsRuleAllowsIt() throws {
        for r in StyleProperty.table where r.layerType != nil && (r.valueType == .number || r.valueType == .color) {
            let fallback = Self.literal(r)  // a colour row's literal is "#000000", also when unset
            let check = r.valueType == .number ? "number" : "to-color"
            let json = Self.style(r, #"["\#(check)", ["get", "v"], \#(fallback)]"#)
            if r.expression.parserAcceptsFeatureData {
                #expect(throws: Never.self, "\(r.property.rawValue)") { try Style.parse(Array(json.utf8), file: "t.json") }
            } else {
                #expect(throws: InputError.self, "\(r.property.rawValue)") { try Style.parse(Array(json.utf8), file: "t.json") }
            }
        }
        #expect(StyleProperty.lineGradient.expression == .colorRamp)
    }
}
