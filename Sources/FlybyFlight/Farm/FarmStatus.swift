import FlybyData

/// How far a segmented render is, segment by segment: what `flyby farm-status` prints and what
/// `flyby join` checks before it joins (issue 20).
public struct FarmStatus: Sendable {
    /// The state of one segment of the layout.
    public enum State: Sendable, Equatable {
        /// Entry in the manifest, file present, checksum matches.
        case finished
        /// No entry in the manifest (not rendered yet, or still being rendered).
        case notFinished
        /// An entry, but no file.
        case missingFile
        /// An entry and a file whose SHA-256 differs (truncated, replaced or damaged).
        case checksumMismatch
    }

    public struct Segment: Sendable {
        public var file: String
        public var frames: Range<Int>
        public var state: State
    }

    /// Every segment of the layout, in order.
    public var segments: [Segment]

    /// Checks every segment of `manifest` in `store`'s folder.
    /// - Parameter verifyChecksums: hash every file (slow for big renders); false trusts entries
    ///   whose file exists.
    public init(manifest: FarmManifest, store: ManifestStore, verifyChecksums: Bool = true) throws(FarmError) {
        let layout = try manifest.header.layout
        segments = (0..<layout.count).map { i in
            let frames = layout.frames(ofSegment: i)
            let file = layout.fileName(ofSegment: i, extension: manifest.header.fileExtension)
            let state: State
            if let entry = manifest.segment(startingAt: frames.lowerBound) {
                let path = store.path(entry.file)
                if !FileInput.isFile(path) {
                    state = .missingFile
                } else if verifyChecksums, (try? SHA256.hex(contentsOfFile: path)) != entry.sha256 {
                    state = .checksumMismatch
                } else {
                    state = .finished
                }
            } else {
                state = .notFinished
            }
            return Segment(file: file, frames: frames, state: state)
        }
    }

    public var finishedSegments: Int { segments.count(where: { $0.state == .finished }) }
    public var finishedFrames: Int { segments.filter { $0.state == .finished }.reduce(0) { $0 + $1.frames.count } }
    public var isComplete: Bool { finishedSegments == segments.count }

    /// One phrase per segment that is not finished, e.g. `segment-000016.mp4 (frames 16:21) is not finished`.
    public var problems: [String] { phrases.compactMap { $0 } }

    /// Per segment (same order as ``segments``): what is wrong with it, nil when it is finished.
    public var phrases: [String?] {
        segments.map { s in
            let what = "\(s.file) (frames \(s.frames.lowerBound):\(s.frames.upperBound))"
            switch s.state {
            case .finished: return nil
            case .notFinished: return "\(what) is not finished (no manifest entry)"
            case .missingFile: return "\(what) is missing"
            case .checksumMismatch: return "\(what) does not match its SHA-256 in the manifest (truncated or replaced)"
            }
        }
    }

    /// The problems as one line: the first `limit`, then how many more.
    public static func summary(_ problems: [String], limit: Int = 5) -> String {
        let shown = problems.prefix(limit).joined(separator: "; ")
        return problems.count > limit ? shown + "; and \(problems.count - limit) more" : shown
    }
}
