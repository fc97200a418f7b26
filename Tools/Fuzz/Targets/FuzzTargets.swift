import FlybyCore
import FlybyData
import FlybyFlight
import FlybyMedia
import FlybyRender
import FlybyTiles

/// The parsers under fuzzing (issue 8), one entry point each. An input may be rejected with an
/// error — that is the expected outcome for garbage — but must never crash, hang or produce a
/// non-finite camera. Shared by the libFuzzer build (`Tools/fuzz`) and by the regression test that
/// replays `Tools/Fuzz/regressions/` in the normal test suite.
public enum FuzzTarget: String, CaseIterable, Sendable {
    case flight, style, geojson, gpx, trace, mvt, pmtiles
    /// The raster-tile image decoders (PNG, JPEG through libturbojpeg, WebP through libwebp; issue 19).
    case image
    /// Sprite JSON (issue 18) over a fixed 64 × 64 sheet.
    case sprite
    /// The flight parser alone (no simulation), so it reaches millions of runs (issue 14).
    case flightParser = "flight-parser"
    /// Glyph PBFs (the style's `glyphs`, one 256-code-point range a file), decoded and converted
    /// to distance fields.
    case glyphs
    /// Binary glTF 2.0 models (`.glb`, the 3D puck; issue 19 item 6).
    case gltf

    /// Runs one input. Returns false only when an invariant broke (the fuzzer then aborts).
    public func run(_ bytes: [UInt8]) -> Bool {
        switch self {
        case .flight:
            guard let script = try? FlightScriptParser.parse(bytes: bytes, file: "fuzz.flight.json") else { return true }
            // Run a bounded part of the flight; every camera must stay finite and wrapped.
            guard script.size.width * script.size.height <= 16_384 * 16_384 else { return false }
            let runner = FlightRunner(script: script, startCamera: CameraState(center: .init(latitude: 0, longitude: 0), zoom: 1))
            var ok = true
            try? runner.run(frameLimit: 600) { r in
                let c = r.camera
                if !(c.zoom.isFinite && c.center.latitude.isFinite && c.center.longitude.isFinite && c.bearing.isFinite && c.pitch.isFinite) { ok = false }
            }
            return ok
        case .flightParser:
            guard let script = try? FlightScriptParser.parse(bytes: bytes, file: "fuzz.flight.json") else { return true }
            return script.size.width.isFinite && script.size.height.isFinite && script.fps.isFinite && script.fps > 0
                && script.size.width * script.size.height <= 16_384 * 16_384
        case .style:
            guard let style = try? Style.parse(bytes, file: "fuzz.style.json") else { return true }
            for layer in style.layers {
                for z in stride(from: 0.0, through: 22, by: 5.5) {
                    _ = layer.isVisible(atZoom: z)
                    _ = layer.accepts(zoom: z, feature: .empty)
                    for p in layer.declaredProperties { _ = layer.value(p, zoom: z) }
                }
                // `line-gradient` is evaluated over `line-progress` (the renderer's ramp).
                if let gradient = layer.expression(.lineGradient) {
                    for k in 0...4 {
                        var globals = ExpressionGlobals()
                        globals.lineProgress = Double(k) / 4
                        _ = gradient.evaluate(zoom: 0, feature: .empty, globals: globals)
                    }
                }
            }
            return true
        case .geojson:
            guard let fc = try? GeoJSON.parse(bytes, file: "fuzz.geojson") else { return true }
            let source = ProjectedSource(fc)
            _ = source.level(forZoom: 0)
            return true
        case .gpx:
            guard let track = try? TrackFile.parseGPX(bytes, file: "fuzz.gpx") else { return true }
            return track.fixes.allSatisfy { $0.coordinate.isFinite && $0.timestamp.isFinite }
        case .trace:
            guard let trace = try? TraceReader.read(bytes: bytes, file: "fuzz.trace.jsonl") else { return true }
            _ = try? TraceDiff.compare(bytes, fileA: "a", bytes, fileB: "b", tolerance: 0)
            return trace.frames.allSatisfy { $0.camera.zoom.isFinite }
        case .mvt:
            // Decoding must refuse or succeed; a decoded tile must be self-consistent and
            // convertible to GeoJSON (tags in range, part tables inside the vertex array).
            for strict in [false, true] {
                guard let tile = try? VectorTileDecoder.decode(bytes, options: .init(strictGeometry: strict)) else { continue }
                for layer in tile.layers {
                    for f in layer.features {
                        guard f.tags.count % 2 == 0, f.geometry.partStarts.last.map({ Int($0) }) ?? 0 <= f.geometry.points.count else { return false }
                        if f.type == .lineString || f.type == .polygon {
                            guard f.geometry.partStarts.last.map({ Int($0) }) == f.geometry.points.count else { return false }
                        }
                        _ = layer.properties(of: f)
                    }
                }
                _ = TileGeoJSON.featureCollection(tile, id: TileID(z: 3, x: 2, y: 5))
            }
            return true
        case .image:
            // Refused or decoded; a decoded image is within the limit and has its pixels.
            guard let image = try? TileImageDecoder.decode(bytes, maxPixels: 1024 * 1024) else { return true }
            return image.width * image.height <= 1024 * 1024 && image.pixels.count == image.width * image.height
        case .glyphs:
            guard let range = try? PBFGlyphRange.decode(bytes, file: "fuzz/0-255.pbf", firstCodePoint: 0) else { return true }
            // Every accepted glyph is within the documented bounds, and its field is too.
            guard range.glyphs.count <= PBFGlyphRange.maxGlyphs else { return false }
            for g in range.glyphs {
                guard g.id < 256, g.width <= PBFGlyph.maxSide, g.height <= PBFGlyph.maxSide,
                      g.bitmap.count == (g.width == 0 || g.height == 0 ? 0 : (g.width + 6) * (g.height + 6)) else { return false }
            }
            return range.fieldByteCount() <= range.glyphs.count * (PBFGlyph.maxSide + 26) * (PBFGlyph.maxSide + 26)
        case .gltf:
            // Refused or read; a model is within its triangle limit and every corner is finite.
            guard let model = try? GLTFModel.read(bytes, file: "fuzz.glb") else { return true }
            guard model.triangles.count <= GLTFModel.maxTriangles else { return false }
            return model.triangles.allSatisfy { t in
                [t.a, t.b, t.c].allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
            }
        case .sprite:
            guard let s = try? SpriteSheet(json: bytes, file: "fuzz-sprite.json", sheet: FuzzTarget.spriteSheet) else { return true }
            // Every image lies inside the sheet, and its stretch zones and content inside the image.
            for (name, image) in s.images {
                guard image.width <= 64, image.height <= 64, let info = s.info[name] else { return false }
                for z in info.stretchX where z.lowerBound < 0 || z.upperBound > Double(image.width) { return false }
                for z in info.stretchY where z.lowerBound < 0 || z.upperBound > Double(image.height) { return false }
            }
            return true
        case .pmtiles:
            guard let archive = try? PMTilesArchive(bytes: bytes, name: "fuzz.pmtiles") else { return true }
            _ = try? archive.info().json()
            for (z, x, y) in [(0, 0, 0), (1, 0, 1), (1, 1, 0), (2, 1, 2), (3, 5, 2), (14, 8801, 5371)] {
                if let tile = try? archive.tile(z: z, x: x, y: y), tile.count > Decompressor.defaultLimit { return false }
                _ = try? archive.vectorTile(z: z, x: x, y: y)
            }
            return true
        }
    }
}

extension FuzzTarget {
    /// The sheet the sprite target's JSON is cut from: 64 × 64, a gradient of alphas (so SDF
    /// entries take both the field and the mask path).
    static let spriteSheet: PNGImage = {
        var pixels = [UInt32](repeating: 0, count: 64 * 64)
        for y in 0..<64 { for x in 0..<64 { pixels[y * 64 + x] = UInt32((x * 4 + y) & 0xFF) << 24 } }
        return PNGImage(width: 64, height: 64, pixels: pixels)
    }()
}
