import FlybyData

/// `DIR/manifest.json` of a segmented render (docs/formats.md §1, issue 20): what was rendered and
/// which segments are finished.
///
/// ```json
/// {
///   "flyby": 1,
///   "kind": "segments",
///   "flight": {"file": "tour.flight.json", "sha256": "…"},
///   "style": {"name": "world", "sha256": "…"},
///   "size": [1280, 720],
///   "fps": 60,
///   "frames": 2000,
///   "segmentFrames": 240,
///   "encoder": "libx264 crf=20 preset=veryfast …",
///   "segments": [
///     {"file": "segment-000000.mp4", "frames": [0, 240], "frameCount": 240, "sha256": "…"}
///   ],
///   "checksum": "…"
/// }
/// ```
///
/// `flight.sha256` is the SHA-256 of the flight (or trace) file's bytes; `style.sha256` that of
/// the style JSON's bytes (and preset); `frames` the number of frames of the whole flight;
/// `segments` lists only finished segments, ordered by first frame, `frames` as [A, B) frame
/// indices. `checksum` is the SHA-256 of the manifest's own canonical text without that field,
/// so a manifest edited by hand is refused by `flyby join`.
public struct FarmManifest: Sendable, Equatable {
    /// What must be the same for every segment of one render.
    public struct Header: Sendable, Equatable {
        /// The flight or trace file as given to the first shard (informational; not compared).
        public var flightFile: String
        /// SHA-256 of the flight file's bytes, lowercase hex.
        public var flightSHA256: String
        /// The style spec (built-in name or path; informational).
        public var styleName: String
        /// SHA-256 of the style document's bytes and preset, lowercase hex.
        public var styleSHA256: String
        /// Frame size in pixels.
        public var width: Int, height: Int
        /// Frames per second (whole, as MP4 segments need).
        public var fps: Int
        /// Frames of the whole flight.
        public var frameCount: Int
        /// Frames per segment.
        public var segmentFrames: Int
        /// The encoder settings, as text; segments made with other settings cannot be joined.
        public var encoder: String
        /// Segment file extension (`mp4`, or `y4m`).
        public var fileExtension: String

        public init(flightFile: String, flightSHA256: String, styleName: String, styleSHA256: String,
                    width: Int, height: Int, fps: Int, frameCount: Int, segmentFrames: Int, encoder: String,
                    fileExtension: String = "mp4") {
            self.flightFile = flightFile; self.flightSHA256 = flightSHA256
            self.styleName = styleName; self.styleSHA256 = styleSHA256
            self.width = width; self.height = height; self.fps = fps
            self.frameCount = frameCount; self.segmentFrames = segmentFrames
            self.encoder = encoder; self.fileExtension = fileExtension
        }

        /// Whether segments rendered under `other` belong to the same render (file names aside).
        public func isSameRender(as other: Header) -> Bool {
            var a = self, b = other
            a.flightFile = ""; b.flightFile = ""; a.styleName = ""; b.styleName = ""
            return a == b
        }

        /// The segment cut.
        public var layout: SegmentLayout {
            get throws(FarmError) { try SegmentLayout(frameCount: frameCount, segmentFrames: segmentFrames) }
        }
    }

    /// One finished segment.
    public struct Segment: Sendable, Equatable {
        /// File name inside the manifest's folder.
        public var file: String
        /// Frames [A, B).
        public var frames: Range<Int>
        /// SHA-256 of the file's bytes, lowercase hex.
        public var sha256: String

        public init(file: String, frames: Range<Int>, sha256: String) {
            self.file = file; self.frames = frames; self.sha256 = sha256
        }
    }

    public var header: Header
    /// Finished segments, ordered by first frame, at most one per segment.
    public private(set) var segments: [Segment]

    public init(header: Header, segments: [Segment] = []) {
        self.header = header
        self.segments = segments.sorted { $0.frames.lowerBound < $1.frames.lowerBound }
    }

    /// Records a finished segment, replacing an earlier entry for the same frames.
    public mutating func record(_ segment: Segment) {
        segments.removeAll { $0.frames.lowerBound == segment.frames.lowerBound }
        let at = segments.firstIndex { $0.frames.lowerBound > segment.frames.lowerBound } ?? segments.count
        segments.insert(segment, at: at)
    }

    /// The entry for the segment starting at `firstFrame`.
    public func segment(startingAt firstFrame: Int) -> Segment? {
        segments.first { $0.frames.lowerBound == firstFrame }
    }

    /// Frames covered by finished segments.
    public var finishedFrames: Int { segments.reduce(0) { $0 + $1.frames.count } }

    // MARK: - Text

    /// The canonical text without the checksum line (what the checksum covers).
    func body() -> String {
        let h = header
        var s = "{\n"
        s += "  \"flyby\": 1,\n  \"kind\": \"segments\",\n"
        s += "  \"flight\": {\"file\": \(quote(h.flightFile)), \"sha256\": \(quote(h.flightSHA256))},\n"
        s += "  \"style\": {\"name\": \(quote(h.styleName)), \"sha256\": \(quote(h.styleSHA256))},\n"
        s += "  \"size\": [\(h.width), \(h.height)],\n  \"fps\": \(h.fps),\n  \"frames\": \(h.frameCount),\n"
        s += "  \"segmentFrames\": \(h.segmentFrames),\n  \"encoder\": \(quote(h.encoder)),\n"
        s += "  \"extension\": \(quote(h.fileExtension)),\n"
        s += "  \"segments\": ["
        for (i, seg) in segments.enumerated() {
            s += i == 0 ? "\n" : ",\n"
            s += "    {\"file\": \(quote(seg.file)), \"frames\": [\(seg.frames.lowerBound), \(seg.frames.upperBound)], "
            s += "\"frameCount\": \(seg.frames.count), \"sha256\": \(quote(seg.sha256))}"
        }
        s += segments.isEmpty ? "],\n" : "\n  ],\n"
        return s
    }

    /// The manifest as written to `manifest.json` (deterministic: same content, same bytes).
    public func text() -> String {
        let b = body()
        return b + "  \"checksum\": \"\(SHA256.hex(Array(b.utf8)))\"\n}\n"
    }

    private func quote(_ s: String) -> String {
        var out: [UInt8] = []
        JSONWriter.appendString(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Reading

    /// Parses and checks a manifest: its shape, that every entry is a segment of the layout with
    /// the expected file name, and its checksum.
    /// - Throws: ``InputError`` naming `file` and the JSON path of the bad value.
    public static func parse(bytes: [UInt8], file: String) throws(InputError) -> FarmManifest {
        let doc = try JSONDocument(file: file, bytes: bytes)
        let root = doc.cursor
        guard root.isObject else { throw root.error("a manifest is a JSON object") }
        try root.rejectUnknownKeys(["flyby", "kind", "flight", "style", "size", "fps", "frames", "segmentFrames",
                                    "encoder", "extension", "segments", "checksum"])
        guard try root.required("flyby").int() == 1 else { throw try root.required("flyby").error("must be 1") }
        let kind = try root.required("kind")
        guard try kind.string() == "segments" else { throw kind.error("must be \"segments\"") }
        let flight = try root.required("flight"), style = try root.required("style")
        let size = try root.required("size").elements()
        guard size.count == 2 else { throw try root.required("size").error("must be [width, height]") }
        let w = try size[0].int(), h = try size[1].int()
        guard (1...16384).contains(w), (1...16384).contains(h) else { throw try root.required("size").error("width and height must be 1…16384") }
        let fpsCursor = try root.required("fps"), fps = try fpsCursor.int()
        guard (1...1000).contains(fps) else { throw fpsCursor.error("must be 1…1000") }
        let framesCursor = try root.required("frames"), frames = try framesCursor.int()
        guard (1...1_080_000).contains(frames) else { throw framesCursor.error("must be 1…1080000") }
        let nCursor = try root.required("segmentFrames"), n = try nCursor.int()
        guard n >= 1 else { throw nCursor.error("must be at least 1") }
        let ext = try root.member("extension")?.string() ?? "mp4"
        guard ext == "mp4" || ext == "y4m" else { throw try root.required("extension").error("must be \"mp4\" or \"y4m\"") }
        let header = Header(flightFile: try flight.required("file").string(), flightSHA256: try hash(flight.required("sha256")),
                            styleName: try style.required("name").string(), styleSHA256: try hash(style.required("sha256")),
                            width: w, height: h, fps: fps, frameCount: frames, segmentFrames: n,
                            encoder: try root.required("encoder").string(), fileExtension: ext)
        let layout: SegmentLayout
        do { layout = try header.layout } catch { throw nCursor.error(error.message) }
        var segments: [Segment] = []
        var seen = Set<Int>()
        for entry in try root.required("segments").elements() {
            try entry.rejectUnknownKeys(["file", "frames", "frameCount", "sha256"])
            let fileCursor = try entry.required("file"), name = try fileCursor.string()
            let range = try entry.required("frames").elements()
            guard range.count == 2 else { throw try entry.required("frames").error("must be [A, B]") }
            let a = try range[0].int(), b = try range[1].int()
            guard a >= 0, a < frames, a % n == 0, layout.frames(ofSegment: a / n) == a..<b else {
                throw try entry.required("frames").error("[\(a), \(b)] is not a segment of \(frames) frames cut every \(n)")
            }
            guard name == SegmentLayout.fileName(firstFrame: a, extension: ext) else {
                throw fileCursor.error("'\(name)' is not the file of frames [\(a), \(b)] (expected \(SegmentLayout.fileName(firstFrame: a, extension: ext)))")
            }
            if let count = try entry.member("frameCount") {
                guard try count.int() == b - a else { throw count.error("must be \(b - a), the frames in [\(a), \(b)]") }
            }
            guard seen.insert(a).inserted else { throw entry.error("a second entry for frames [\(a), \(b)]") }
            segments.append(Segment(file: name, frames: a..<b, sha256: try hash(entry.required("sha256"))))
        }
        let manifest = FarmManifest(header: header, segments: segments)
        let checkCursor = try root.required("checksum")
        guard try checkCursor.string() == SHA256.hex(Array(manifest.body().utf8)) else {
            throw checkCursor.error("the manifest was edited by hand (its checksum does not match its content); rerun the shards to rewrite it")
        }
        return manifest
    }

    private static func hash(_ c: JSONCursor) throws(InputError) -> String {
        let s = try c.string()
        guard s.utf8.count == 64, s.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw c.error("must be a SHA-256 in 64 lowercase hex digits")
        }
        return s
    }
}
