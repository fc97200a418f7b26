/// A glyph outline as stored in the font: quadratic B-spline contours in **font units, y up**,
/// origin at the glyph's pen position on the baseline. Composite glyphs are already resolved.
///
/// Each contour is closed. Between two consecutive off-curve points lies an implied on-curve point
/// at their midpoint (TrueType reference manual, `glyf` table).
public struct GlyphContours: Sendable, Equatable {
    /// All points, contour after contour.
    public var points: [SIMD2<Float>]
    /// Whether each point is on the curve (`true`) or a quadratic control point (`false`).
    public var onCurve: [Bool]
    /// Index one past the last point of each contour.
    public var contourEnds: [Int]

    public init(points: [SIMD2<Float>] = [], onCurve: [Bool] = [], contourEnds: [Int] = []) {
        self.points = points
        self.onCurve = onCurve
        self.contourEnds = contourEnds
    }

    /// Whether the glyph draws nothing (space and other blanks).
    public var isEmpty: Bool { contourEnds.isEmpty }
}

// Simple-glyph point flags and composite-glyph component flags (TrueType reference manual, 'glyf').
private let onCurvePoint: UInt8 = 0x01
private let xShortVector: UInt8 = 0x02
private let yShortVector: UInt8 = 0x04
private let repeatFlag: UInt8 = 0x08
private let xIsSameOrPositive: UInt8 = 0x10
private let yIsSameOrPositive: UInt8 = 0x20
private let argsAreWords: UInt16 = 0x0001
private let argsAreXYValues: UInt16 = 0x0002
private let weHaveAScale: UInt16 = 0x0008
private let moreComponents: UInt16 = 0x0020
private let weHaveXAndYScale: UInt16 = 0x0040
private let weHaveTwoByTwo: UInt16 = 0x0080
private let scaledComponentOffset: UInt16 = 0x0800

extension TrueTypeFont {
    /// The deepest nesting of composite glyphs accepted (deeper means a loop or a broken font).
    static let maxCompositeDepth = 8
    /// The most points one resolved glyph may have.
    static let maxGlyphPoints = 1 << 16
    /// The most points plus components read while resolving one glyph, shared by every level of a
    /// composite, so a hostile font cannot make resolution take exponential time.
    static let maxGlyphWork = 1 << 18

    /// The stored outline of `glyph`, composites resolved, in font units (y up).
    /// - Throws: ``FontError`` if the glyph's data is malformed or `glyph` is out of range.
    public func contours(of glyph: GlyphID) throws(FontError) -> GlyphContours {
        var result = GlyphContours()
        var budget = TrueTypeFont.maxGlyphWork
        try appendContours(of: glyph, depth: 0, budget: &budget, into: &result)
        return result
    }

    /// Whether `glyph` is stored as a composite of other glyphs.
    func isComposite(_ glyph: GlyphID) throws(FontError) -> Bool {
        guard let g = try glyphTable(glyph) else { return false }
        return try g.i16(0) < 0
    }

    private func glyphTable(_ glyph: GlyphID) throws(FontError) -> FontTable? {
        guard Int(glyph) < glyphCount else {
            throw FontError(font: name, message: "glyph \(glyph) does not exist (the font has \(glyphCount))")
        }
        let start = Int(glyphOffsets[Int(glyph)]), end = Int(glyphOffsets[Int(glyph) + 1])
        if start == end { return nil }  // no outline (e.g. space)
        return try glyf.slice(start, end - start, tag: "glyf (glyph \(glyph))")
    }

    private func appendContours(of glyph: GlyphID, depth: Int, budget: inout Int,
                                into out: inout GlyphContours) throws(FontError) {
        guard let g = try glyphTable(glyph) else { return }
        let contourCount = Int(try g.i16(0))
        if contourCount >= 0 {
            try appendSimple(g, contourCount: contourCount, budget: &budget, into: &out)
        } else {
            guard depth < TrueTypeFont.maxCompositeDepth else {
                throw FontError(font: name, message: "composite glyph \(glyph) nests deeper than \(TrueTypeFont.maxCompositeDepth) levels (a loop?)")
            }
            try appendComposite(g, depth: depth, budget: &budget, into: &out)
        }
    }

    private func spend(_ amount: Int, _ budget: inout Int, _ g: FontTable) throws(FontError) {
        budget -= amount
        guard budget >= 0 else {
            throw FontError(font: name, message: "table '\(g.tag)': composite glyph needs more than \(TrueTypeFont.maxGlyphWork) points and components")
        }
    }

    private func appendSimple(_ g: FontTable, contourCount: Int, budget: inout Int,
                              into out: inout GlyphContours) throws(FontError) {
        guard contourCount > 0 else { return }
        var ends: [Int] = []
        for i in 0..<contourCount {
            let end = Int(try g.u16(10 + 2 * i)) + 1
            guard end > (ends.last ?? 0) else { throw FontError(font: name, message: "table '\(g.tag)': contour ends are not increasing") }
            ends.append(end)
        }
        let pointCount = ends[ends.count - 1]
        try spend(pointCount, &budget, g)
        guard out.points.count + pointCount <= TrueTypeFont.maxGlyphPoints else {
            throw FontError(font: name, message: "table '\(g.tag)': more than \(TrueTypeFont.maxGlyphPoints) points")
        }
        let instructionLength = Int(try g.u16(10 + 2 * contourCount))
        var p = 12 + 2 * contourCount + instructionLength
        var flags: [UInt8] = []
        flags.reserveCapacity(pointCount)
        while flags.count < pointCount {
            let flag = try g.u8(p); p += 1
            flags.append(flag)
            if flag & repeatFlag != 0 {
                let repeats = Int(try g.u8(p)); p += 1
                for _ in 0..<min(repeats, pointCount - flags.count) { flags.append(flag) }
            }
        }
        func coordinates(short: UInt8, same: UInt8) throws(FontError) -> [Float] {
            var values: [Float] = []
            values.reserveCapacity(pointCount)
            var v: Int32 = 0
            for flag in flags {
                if flag & short != 0 {
                    let d = Int32(try g.u8(p)); p += 1
                    v += flag & same != 0 ? d : -d
                } else if flag & same == 0 {
                    v += Int32(try g.i16(p)); p += 2
                }
                values.append(Float(v))
            }
            return values
        }
        let xs = try coordinates(short: xShortVector, same: xIsSameOrPositive)
        let ys = try coordinates(short: yShortVector, same: yIsSameOrPositive)
        let base = out.points.count
        for i in 0..<pointCount {
            out.points.append(SIMD2(xs[i], ys[i]))
            out.onCurve.append(flags[i] & onCurvePoint != 0)
        }
        out.contourEnds += ends.map { $0 + base }
    }

    private func appendComposite(_ g: FontTable, depth: Int, budget: inout Int,
                                 into out: inout GlyphContours) throws(FontError) {
        var p = 10
        var flags: UInt16
        repeat {
            flags = try g.u16(p)
            let component = try g.u16(p + 2)
            p += 4
            try spend(1, &budget, g)
            let arg1: Int, arg2: Int
            if flags & argsAreWords != 0 {
                if flags & argsAreXYValues != 0 {
                    arg1 = Int(try g.i16(p)); arg2 = Int(try g.i16(p + 2))
                } else {
                    arg1 = Int(try g.u16(p)); arg2 = Int(try g.u16(p + 2))
                }
                p += 4
            } else {
                if flags & argsAreXYValues != 0 {
                    arg1 = Int(try g.i8(p)); arg2 = Int(try g.i8(p + 1))
                } else {
                    arg1 = Int(try g.u8(p)); arg2 = Int(try g.u8(p + 1))
                }
                p += 2
            }
            // Transform [a c; b d] in F2Dot14 (TrueType manual: x' = a·x + c·y + e, y' = b·x + d·y + f).
            func f2dot14(_ offset: Int) throws(FontError) -> Float { Float(try g.i16(offset)) / 16384 }
            var a: Float = 1, b: Float = 0, c: Float = 0, d: Float = 1
            if flags & weHaveAScale != 0 {
                a = try f2dot14(p); d = a; p += 2
            } else if flags & weHaveXAndYScale != 0 {
                a = try f2dot14(p); d = try f2dot14(p + 2); p += 4
            } else if flags & weHaveTwoByTwo != 0 {
                a = try f2dot14(p); b = try f2dot14(p + 2); c = try f2dot14(p + 4); d = try f2dot14(p + 6); p += 8
            }

            var child = GlyphContours()
            try appendContours(of: component, depth: depth + 1, budget: &budget, into: &child)
            for i in child.points.indices {
                let q = child.points[i]
                child.points[i] = SIMD2(a * q.x + c * q.y, b * q.x + d * q.y)
            }
            var offset: SIMD2<Float>
            if flags & argsAreXYValues != 0 {
                offset = SIMD2(Float(arg1), Float(arg2))
                // Offsets are unscaled (Microsoft's default) unless the font asks for scaled ones.
                if flags & scaledComponentOffset != 0 { offset = SIMD2(a * offset.x + c * offset.y, b * offset.x + d * offset.y) }
            } else {
                // Point matching: child point arg2 lands on already-placed parent point arg1.
                guard arg1 < out.points.count, arg2 < child.points.count else {
                    throw FontError(font: name, message: "table '\(g.tag)': component anchor points \(arg1)/\(arg2) do not exist")
                }
                offset = out.points[arg1] - child.points[arg2]
            }
            guard out.points.count + child.points.count <= TrueTypeFont.maxGlyphPoints else {
                throw FontError(font: name, message: "table '\(g.tag)': more than \(TrueTypeFont.maxGlyphPoints) points")
            }
            let base = out.points.count
            out.points += child.points.map { $0 + offset }
            out.onCurve += child.onCurve
            out.contourEnds += child.contourEnds.map { $0 + base }
        } while flags & moreComponents != 0
    }
}
