import FlybyData
import FlybyExport
import FlybyFlight
import FlybyMedia
import Foundation

/// `flyby join MANIFEST --out FILE.mp4` (docs/formats.md §1, issue 20).
enum JoinCommand: FlybyCommand {
    static let name = "join"
    static let summary = "join the MP4 segments of a render farm into one video (no re-encoding)"
    static let about = """
    Joins the segments listed in a manifest written by 'flyby play … --segment-frames N' into one
    MP4, without re-encoding (ffmpeg's concat demuxer with stream copy), with the flight's exact
    frame count. Before joining it checks that every segment is finished and present, matches its
    SHA-256, is from the manifest's flight (the segment's own tag), has its frame count, starts
    with a key frame and was encoded with the same settings; and that the manifest itself was not
    edited by hand. Anything else is refused. A segment that matches its SHA-256 is the file that
    'play' checked with ffprobe before recording it.
    """
    static let notes = """
    Exit codes: 0 joined; 2 a bad manifest or a missing, mismatched or truncated segment (the
    message names them; nothing is written); 3 no ffmpeg/ffprobe on PATH.
    """
    static let positionals = Positionals.exactly("MANIFEST", "takes one manifest.json")
    static let options = [
        OptionSpec("out", .string, "FILE.mp4", help: "the joined video", required: true),
        OptionSpec("verify-video", .flag, help: "probe every segment again (one ffprobe per segment: slower)"),
    ]

    static func run(_ parsed: ParsedOptions, _ out: CommandOutput) throws {
        guard let output = parsed.string("out"), output.lowercased().hasSuffix(".mp4") else {
            throw CommandError("'join' needs --out FILE.mp4 (see 'flyby help join')")
        }
        let start = ProcessInfo.processInfo.systemUptime
        let (manifestPath, manifest, store) = try FarmStatusCommand.load(parsed.positional[0])
        let header = manifest.header
        guard header.fileExtension == "mp4" else { throw CommandError("\(manifestPath): join makes MP4 from MP4 segments, these are .\(header.fileExtension)") }
        let status: FarmStatus
        do { status = try FarmStatus(manifest: manifest, store: store) } catch { throw CommandError("\(manifestPath): \(error.message)") }
        let searchPath = out.environment["PATH"] ?? "/usr/bin:/bin"
        var problems: [String] = []
        // A segment whose SHA-256 matches its entry is the file `play` checked with ffprobe before
        // recording it, so only the others (to say what they are) are probed, unless asked.
        let all = parsed.flag("verify-video")
        func probed(_ s: FarmStatus.Segment) -> Bool { s.state == .checksumMismatch || (all && s.state == .finished) }
        var probes = SegmentVideo.probeAll(status.segments.filter(probed).map { store.path($0.file) }, searchPath: searchPath).makeIterator()
        for (s, phrase) in zip(status.segments, status.phrases) {
            if s.state == .finished && !all { continue }
            guard probed(s) else { problems.append(phrase!); continue }
            let probe: SegmentVideo.Probe
            do { probe = try probes.next()!.get() } catch {
                throw PlayCommand.commandError(error, output: output)
            }
            let found = check(probe, s, header)
            // A file from another render says so in its tag: a clearer reason than its checksum.
            if let foreign = found.first(where: { $0.contains("is from another flight") }) {
                problems.append(foreign)
            } else if let phrase {
                problems.append(phrase)
            } else {
                problems += found
            }
        }
        guard problems.isEmpty else {
            throw CommandError("\(manifestPath): cannot join: \(FarmStatus.summary(problems)); \(output) was not written")
        }
        do {
            try SegmentVideo.join(status.segments.map { store.path($0.file) }, to: output, expectedFrames: header.frameCount,
                                  tag: "flyby flight=\(header.flightSHA256) frames=0:\(header.frameCount)", searchPath: searchPath)
        } catch {
            throw PlayCommand.commandError(error, output: output)
        }
        let t = ((ProcessInfo.processInfo.systemUptime - start) * 100).rounded() / 100
        out.error("flyby join: \(header.frameCount) frames \(header.width)x\(header.height) at \(header.fps) fps from \(status.segments.count) segments to \(output) in \(t) s")
    }

    /// What is wrong with one segment's video, as phrases naming it.
    static func check(_ p: SegmentVideo.Probe, _ s: FarmStatus.Segment, _ h: FarmManifest.Header) -> [String] {
        let name = s.file
        var problems: [String] = []
        if !p.problems.isEmpty {
            problems.append("\(name) is damaged (ffprobe: \(p.problems.split(whereSeparator: \.isNewline).first ?? ""))")
        }
        let expectedTag = SegmentExport.tag(h, s.frames)
        if p.comment != expectedTag {
            if let flight = p.comment.split(separator: " ").first(where: { $0.hasPrefix("flight=") }), flight != "flight=\(h.flightSHA256)" {
                problems.append("\(name) is from another flight (\(flight.prefix(19))…, the manifest's is \(h.flightSHA256.prefix(12))…)")
            } else {
                problems.append("\(name) is not the segment of frames \(s.frames.lowerBound):\(s.frames.upperBound) of this render (tag '\(p.comment.prefix(80))')")
            }
        }
        if p.frameCount != s.frames.count { problems.append("\(name) has \(p.frameCount) frames, expected \(s.frames.count)") }
        if !p.startsWithKeyFrame { problems.append("\(name) does not start with a key frame") }
        if p.codec != "h264" || p.width != h.width + h.width % 2 || p.height != h.height + h.height % 2 || p.pixelFormat != "yuv420p"
            || p.frameRate != "\(h.fps)/1" || p.timeBase != "1/\(h.fps * 1000)" {
            problems.append("\(name) was encoded differently (\(p.codec) \(p.width)x\(p.height) \(p.pixelFormat) \(p.frameRate) fps, time base \(p.timeBase))")
        }
        return problems
    }
}

/// `flyby farm-status MANIFEST` (issue 20): how many frames and segments of a segmented render
/// are done, as one JSON line.
enum FarmStatusCommand: FlybyCommand {
    static let name = "farm-status"
    static let summary = "how many frames and segments of a segmented render are done"
    static let about = """
    Prints one JSON line about a segmented render ('flyby play … --segment-frames N'):
      {"frames":F,"framesDone":D,"segments":S,"segmentsDone":N,"complete":BOOL,"problems":[…]}
    'problems' names each segment that is not finished, missing, or does not match its SHA-256.
    """
    static let notes = "Exit codes: 0 complete; 1 not complete yet; 2 a bad manifest."
    static let positionals = Positionals.exactly("MANIFEST", "takes one manifest.json")
    static let options = [OptionSpec("fast", .flag, help: "trust manifest entries whose file exists instead of hashing every file")]

    static func run(_ parsed: ParsedOptions, _ out: CommandOutput) throws {
        let (path, manifest, store) = try load(parsed.positional[0])
        let status: FarmStatus
        do { status = try FarmStatus(manifest: manifest, store: store, verifyChecksums: !parsed.flag("fast")) } catch {
            throw CommandError("\(path): \(error.message)")
        }
        var line: [UInt8] = []
        line += Array(#"{"frames":\#(manifest.header.frameCount),"framesDone":\#(status.finishedFrames),"segments":\#(status.segments.count),"#.utf8)
        line += Array(#""segmentsDone":\#(status.finishedSegments),"complete":\#(status.isComplete),"problems":["#.utf8)
        for (i, p) in status.problems.enumerated() {
            if i > 0 { line.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(p, to: &line)
        }
        line += Array("]}\n".utf8)
        out.write(line)
        if !status.isComplete { throw CommandError("\(path): \(status.finishedSegments) of \(status.segments.count) segments done", exitCode: 1) }
    }

    /// Reads and checks a manifest; a folder means its `manifest.json`.
    static func load(_ argument: String) throws -> (String, FarmManifest, ManifestStore) {
        var isDir: ObjCBool = false
        let path = FileManager.default.fileExists(atPath: argument, isDirectory: &isDir) && isDir.boolValue
            ? ManifestStore(directory: argument).manifestPath : argument
        let dir = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let bytes = try FileInput.read(path, maxBytes: 256 << 20)
        return (path, try FarmManifest.parse(bytes: bytes, file: path), ManifestStore(directory: dir.isEmpty ? "/" : dir))
    }
}
