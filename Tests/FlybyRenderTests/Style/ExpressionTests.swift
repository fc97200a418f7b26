import FlybyData
import FlybyRender
import Testing

private func feature(_ props: [(String, PropertyValue)], state: [(String, PropertyValue)] = []) -> FeatureContext {
    FeatureContext(properties: PropertyMap(props), state: PropertyMap(state))
}

private func eval(_ json: String, zoom: Double = 0, _ f: FeatureContext = .empty) throws -> StyleValue? {
    try StyleExpression.parse(json).evaluate(zoom: zoom, feature: f)
}

@Suite struct ExpressionTests {
    let f = feature([("name", .string("Helsinki")), ("pop", .number(650_000)), ("rank", .number(2)), ("cap", .bool(true)),
                     ("n", .string("42")), ("nothing", .null)],
                    state: [("select", .bool(true))])

    @Test func getHasAndFeatureState() throws {
        #expect(try eval(#"["get", "name"]"#, f) == .string("Helsinki"))
        #expect(try eval(#"["get", "missing"]"#, f) == .null)
        #expect(try eval(#"["has", "pop"]"#, f) == .bool(true))
        #expect(try eval(#"["has", "missing"]"#, f) == .bool(false))
        #expect(try eval(#"["feature-state", "select"]"#, f) == .bool(true))
        #expect(try eval(#"["feature-state", "hover"]"#, f) == .null)
    }

    @Test func zoomAndLiteral() throws {
        #expect(try eval(#"["interpolate", ["linear"], ["zoom"], 0, 0, 24, 24]"#, zoom: 7.5) == .number(7.5))
        #expect(throws: InputError.self) { try eval(#"["zoom"]"#) }  // zoom only as a curve input
        #expect(try eval(#"["literal", [1, 2]]"#) == .array([.number(1), .number(2)]))
        #expect(try eval(#"["literal", {"a": 1}]"#) == .object(PropertyMap([("a", .number(1))])))
    }

    @Test func comparisons() throws {
        #expect(try eval(#"["==", ["get", "name"], "Helsinki"]"#, f) == .bool(true))
        #expect(try eval(#"["!=", ["get", "name"], "Oslo"]"#, f) == .bool(true))
        #expect(try eval(#"["==", ["get", "pop"], "650000"]"#, f) == .bool(false))
        #expect(try eval(#"["<", ["get", "rank"], 3]"#, f) == .bool(true))
        #expect(try eval(#"["<=", ["get", "rank"], 2]"#, f) == .bool(true))
        #expect(try eval(#"[">", ["get", "rank"], 2]"#, f) == .bool(false))
        #expect(try eval(#"[">=", ["get", "rank"], 2]"#, f) == .bool(true))
        #expect(try eval(#"["<", ["get", "name"], "Oslo"]"#, f) == .bool(true))
        // Ordering a string against a number is an evaluation error.
        #expect(try eval(#"["<", ["get", "name"], 3]"#, f) == nil)
    }

    @Test func logic() throws {
        #expect(try eval(#"["all", ["has", "pop"], ["get", "cap"]]"#, f) == .bool(true))
        #expect(try eval(#"["all"]"#) == .bool(true))
        #expect(try eval(#"["any", false, ["==", ["get", "rank"], 2]]"#, f) == .bool(true))
        #expect(try eval(#"["any"]"#) == .bool(false))
        #expect(try eval(#"["!", ["has", "pop"]]"#, f) == .bool(false))
    }

    @Test func caseAndCoalesce() throws {
        let e = #"["case", ["==", ["get", "rank"], 1], "one", ["==", ["get", "rank"], 2], "two", "many"]"#
        #expect(try eval(e, f) == .string("two"))
        #expect(try eval(e, .empty) == .string("many"))
        #expect(try eval(#"["coalesce", ["get", "missing"], ["get", "nothing"], ["get", "name"]]"#, f) == .string("Helsinki"))
        #expect(try eval(#"["coalesce", ["get", "missing"]]"#, f) == .null)
    }

    @Test func match() throws {
        let e = #"["match", ["get", "name"], ["Helsinki", "Espoo"], 1, "Oslo", 2, 0]"#
        #expect(try eval(e, f) == .number(1))
        #expect(try eval(e, feature([("name", .string("Oslo"))])) == .number(2))
        #expect(try eval(e, .empty) == .number(0))
        #expect(try eval(#"["match", ["get", "rank"], 1, "a", 2, "b", "c"]"#, f) == .string("b"))
    }

    @Test func stepBoundaries() throws {
        let e = try StyleExpression.parse(#"["step", ["zoom"], 0, 3, 10, 6, 20]"#)
        #expect(e.dependsOnZoom && !e.dependsOnFeature)
        #expect(e.evaluate(zoom: 2.999) == .number(0))
        #expect(e.evaluate(zoom: 3) == .number(10))  // a stop's own value starts at the stop
        #expect(e.evaluate(zoom: 5.9) == .number(10))
        #expect(e.evaluate(zoom: 6) == .number(20))
        #expect(e.evaluate(zoom: 22) == .number(20))
    }

    @Test func interpolateLinearBoundaries() throws {
        let e = try StyleExpression.parse(#"["interpolate", ["linear"], ["zoom"], 5, 1, 10, 11]"#)
        #expect(e.evaluate(zoom: 0) == .number(1))
        #expect(e.evaluate(zoom: 5) == .number(1))
        #expect(e.evaluate(zoom: 7.5) == .number(6))
        #expect(e.evaluate(zoom: 10) == .number(11))
        #expect(e.evaluate(zoom: 15) == .number(11))
    }

    @Test func interpolateExponentialBase() throws {
        let e = try StyleExpression.parse(#"["interpolate", ["exponential", 2], ["zoom"], 0, 0, 2, 3]"#)
        // t = (2^1 − 1) / (2^2 − 1) = 1/3 at zoom 1.
        let v = try #require(e.evaluate(zoom: 1)?.doubleValue)
        #expect(abs(v - 1) < 1e-12)
        let linear = try StyleExpression.parse(#"["interpolate", ["exponential", 1], ["zoom"], 0, 0, 2, 3]"#)
        #expect(linear.evaluate(zoom: 1) == .number(1.5))
    }

    @Test func interpolateColoursAndArrays() throws {
        let c = try StyleExpression.parse(#"["interpolate", ["linear"], ["zoom"], 0, "black", 10, "white"]"#, property: .fillColor)
        let mid = try #require(c.evaluate(zoom: 5)?.colorValue)
        #expect(mid.red == 0.5 && mid.alpha == 1)
        let a = try StyleExpression.parse(#"["interpolate", ["linear"], ["zoom"], 0, ["literal", [0, 0]], 10, ["literal", [2, 4]]]"#, property: .textOffset)
        #expect(a.evaluate(zoom: 5) == .array([.number(1), .number(2)]))
    }

    @Test func conversions() throws {
        #expect(try eval(#"["to-string", ["get", "pop"]]"#, f) == .string("650000"))
        #expect(try eval(#"["to-string", 1.5]"#) == .string("1.5"))
        #expect(try eval(#"["to-string", ["get", "cap"]]"#, f) == .string("true"))
        #expect(try eval(#"["to-string", ["get", "missing"]]"#, f) == .string(""))
        #expect(try eval(#"["to-number", ["get", "n"]]"#, f) == .number(42))
        #expect(try eval(#"["to-number", ["get", "name"], 7]"#, f) == .number(7))
        #expect(try eval(#"["to-number", ["get", "name"]]"#, f) == nil)
        #expect(try eval(#"["to-number", true]"#) == .number(1))
        #expect(try eval(#"["concat", ["get", "name"], " (", ["get", "rank"], ")"]"#, f) == .string("Helsinki (2)"))
    }

    @Test func textFieldTokens() throws {
        let e = try StyleExpression.parse(#""{name} ({rank}){missing}""#, property: .textField)
        #expect(e.dependsOnFeature)
        #expect(e.evaluate(zoom: 0, feature: f) == .string("Helsinki (2)"))
        let plain = try StyleExpression.parse(#""no tokens {""#, property: .textField)
        #expect(plain.constantValue == .string("no tokens {"))
        let number = try StyleExpression.parse(#"["get", "pop"]"#, property: .textField)
        #expect(number.evaluate(zoom: 0, feature: f) == .string("650000"))
    }

    @Test func constantAndZoomFastPaths() throws {
        let k = try StyleExpression.parse(#"["case", true, 3, 4]"#)
        #expect(k.constantValue == .number(3))
        let z = try StyleExpression.parse(#"["interpolate", ["linear"], ["zoom"], 0, 1, 10, 2]"#, property: .lineWidth)
        #expect(z.dependsOnZoom && !z.dependsOnFeature && z.constantValue == nil)
        let s = try StyleExpression.parse(#"["case", ["==", ["feature-state", "select"], true], "red", "blue"]"#, property: .fillColor)
        #expect(s.dependsOnFeature && s.dependsOnFeatureState && !s.dependsOnZoom)
        #expect(s.evaluate(zoom: 0, feature: f) == .color(StyleColor(css: "red")!))
    }

    @Test func colourPropertyCoercesStringValuesAtRunTime() throws {
        let e = try StyleExpression.parse(#"["get", "colour"]"#, property: .fillColor)
        #expect(e.evaluate(zoom: 0, feature: feature([("colour", .string("#00ff00"))])) == .color(StyleColor(red: 0, green: 1, blue: 0)))
        #expect(e.evaluate(zoom: 0, feature: feature([("colour", .string("nope"))])) == nil)
    }
}

struct BadExpressionCase: Sendable, CustomTestStringConvertible {
    var json: String
    var property: StyleProperty?
    var message: String
    var testDescription: String { json }
    static let all: [BadExpressionCase] = [
        .init(json: #"["get"]"#, property: nil, message: "Expected 1 to 2 arguments, but found 0 instead."),
        .init(json: #"["get", "a", "b"]"#, property: nil, message: "Expected object but found string instead."),
        .init(json: #"["zoom", 1]"#, property: nil, message: "Expected 0 arguments, but found 1 instead."),
        .init(json: #"["!", true, false]"#, property: nil, message: "Expected 1 argument, but found 2 instead."),
        .init(json: #"["case", true, 1]"#, property: nil, message: "Expected at least 3 arguments, but found only 2."),
        .init(json: #"["match", ["get", "a"], 1, 2]"#, property: nil, message: "Expected at least 4 arguments, but found only 3."),
        .init(json: #"["match", ["get", "a"], 1, "x", "b", "y", "z"]"#, property: nil, message: "Expected number but found string instead."),
        .init(json: #"["match", ["get", "a"], 1, "x", 1, "y", "z"]"#, property: nil, message: "Branch labels must be unique."),
        .init(json: #"["step", ["zoom"], 1, 5, 2, 5, 3]"#, property: nil, message: "strictly ascending"),
        .init(json: #"["interpolate", ["quadratic"], ["zoom"], 0, 1, 1, 2]"#, property: nil, message: "Unknown interpolation type quadratic"),
        .init(json: #"["interpolate", ["cubic-bezier", 0, 0, 2, 1], ["zoom"], 0, 1, 1, 2]"#, property: nil, message: "four numeric arguments with values between 0 and 1"),
        .init(json: #"["interpolate", ["linear"], ["zoom"], 0, "a", 1, "b"]"#, property: nil, message: "Type string is not interpolatable."),
        .init(json: #"["interpolate", ["exponential", "x"], ["zoom"], 0, 1, 1, 2]"#, property: nil, message: "requires a numeric base"),
        .init(json: #"["sqrtx", 4]"#, property: nil, message: "Unknown expression \"sqrtx\""),
        .init(json: #"["<", true, 1]"#, property: nil, message: "\"<\" comparisons are not supported for type 'boolean'."),
        .init(json: #"["==", 1, "a"]"#, property: nil, message: "Cannot compare types 'number' and 'string'."),
        .init(json: #"[]"#, property: nil, message: "Expected an array with at least one element"),
        .init(json: #"{"a": 1}"#, property: nil, message: "unknown field 'a' of a function"),
        .init(json: #"["all", 1]"#, property: nil, message: "Expected boolean but found number instead."),
        .init(json: #"["+", 1, ["zoom"]]"#, property: nil, message: "\"zoom\" expression may only be used as input to a top-level"),
        .init(json: #"["number", "x"]"#, property: nil, message: "Expected value to be of type number"),
        .init(json: #"["let", "a", 1, ["var", "b"]]"#, property: nil, message: "Unknown variable \"b\""),
        .init(json: #"["within", {"type": "Point", "coordinates": [0, 0]}]"#, property: nil, message: "contains polygon geometry type"),
        .init(json: #"["rgb", 300, 0, 0]"#, property: nil, message: "cannot be evaluated"),
        .init(json: "12", property: .fillColor, message: "expected a colour, found a number"),
        .init(json: #""#  + "\"#12345\"", property: .fillColor, message: "invalid colour '#12345'"),
        .init(json: #"["case", true, 3, "red"]"#, property: .fillColor, message: "Expected color but found number instead."),
        .init(json: #"["match", ["get", "a"], "x", "notacolour", "red"]"#, property: .fillColor, message: "Could not parse color from value 'notacolour'"),
        .init(json: "\"diagonal\"", property: .lineCap, message: "'diagonal' is not a valid value of line-cap"),
        .init(json: "-1", property: .lineWidth, message: "line-width must be at least 0"),
        .init(json: "[1, 2, 3]", property: .textOffset, message: "expected an array of 2 numbers"),
        .init(json: #"["interpolate", ["linear"], ["get", "a"], 0, 1, 1, "x"]"#, property: .lineWidth, message: "Expected number but found string instead."),
    ]
}

@Suite struct ExpressionErrorTests {
    @Test(arguments: BadExpressionCase.all)
    func badExpressionIsAnError(_ c: BadExpressionCase) {
        do {
            _ = try StyleExpression.parse(c.json, property: c.property)
            Issue.record("expected an error for \(c.json)")
        } catch {
            #expect(error.description.contains(c.message), "\(error)")
        }
    }

    @Test func errorPathPointsInsideTheExpression() {
        do {
            _ = try StyleExpression.parse(#"["case", ["==", ["get", "a"], 1], ["sqrtx", 2], 3]"#, property: .lineWidth)
            Issue.record("expected an error")
        } catch {
            #expect(error.path == "[2]", "\(error)")
            #expect(error.column == 35)
        }
    }

    @Test func legacyFilterWithAKeyCompilesToTheSameTestAsTheExpression() throws {
        let legacy = try StyleExpression.parseFilter(#"["==", "class", "park"]"#)
        let modern = try StyleExpression.parseFilter(#"["==", ["get", "class"], "park"]"#)
        for value in ["park", "wood"] {
            let f = FeatureContext(properties: PropertyMap([("class", .string(value))]))
            #expect(legacy.evaluate(zoom: 0, feature: f) == modern.evaluate(zoom: 0, feature: f))
        }
        #expect(legacy.evaluate(zoom: 0, feature: .empty) == .bool(false))
    }
}
