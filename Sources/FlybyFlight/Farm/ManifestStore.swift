import FlybyData
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and updates `DIR/manifest.json` safely while several shards write to the same folder.
///
/// Every change is a read–modify–write done while holding an exclusive `flock(2)` on
/// `DIR/.manifest.lock`, and the new text replaces the old by rename (readers such as `flyby join`
/// never see a half-written manifest and need no lock). Shards therefore never lose each other's
/// entries. `flock` works on local file systems, NFSv4, CephFS and most Kubernetes
/// ReadWriteMany volumes; on a file system without locks the call fails and the shard stops
/// with an error rather than risk a lost entry.
public struct ManifestStore: Sendable {
    /// The output folder.
    public let directory: String

    public init(directory: String) { self.directory = directory }

    public var manifestPath: String { path("manifest.json") }

    /// `DIR/name`.
    public func path(_ name: String) -> String { (directory.hasSuffix("/") ? directory : directory + "/") + name }

    /// Reads the manifest, or nil when there is none.
    /// - Throws: ``InputError`` for a manifest that does not parse or check.
    public func read() throws(InputError) -> FarmManifest? {
        guard FileInput.isFile(manifestPath) else { return nil }
        return try FarmManifest.parse(bytes: FileInput.read(manifestPath, maxBytes: 256 << 20), file: manifestPath)
    }

    /// Opens the render: creates the manifest for `header` when there is none, else checks that
    /// the existing one is for the same render and returns it.
    /// - Throws: ``FarmError`` when the folder holds another render.
    public func open(_ header: FarmManifest.Header) throws -> FarmManifest {
        try locked { () throws -> FarmManifest in
            if let existing = try read() {
                try check(existing.header, against: header)
                return existing
            }
            let fresh = FarmManifest(header: header)
            try write(fresh)
            return fresh
        }
    }

    /// Records a finished segment (under the lock; the manifest is re-read first, so other shards'
    /// entries made meanwhile are kept).
    public func record(_ segment: FarmManifest.Segment, header: FarmManifest.Header) throws {
        try locked { () throws in
            var manifest = try read() ?? FarmManifest(header: header)
            try check(manifest.header, against: header)
            manifest.record(segment)
            try write(manifest)
        }
    }

    private func check(_ existing: FarmManifest.Header, against header: FarmManifest.Header) throws {
        guard existing.isSameRender(as: header) else {
            var why: [String] = []
            if existing.flightSHA256 != header.flightSHA256 { why.append("another flight file") }
            if existing.styleSHA256 != header.styleSHA256 { why.append("another style") }
            if (existing.width, existing.height) != (header.width, header.height) { why.append("size \(existing.width)x\(existing.height)") }
            if existing.fps != header.fps { why.append("\(existing.fps) fps") }
            if existing.frameCount != header.frameCount { why.append("\(existing.frameCount) frames") }
            if existing.segmentFrames != header.segmentFrames { why.append("segments of \(existing.segmentFrames) frames") }
            if existing.encoder != header.encoder || existing.fileExtension != header.fileExtension { why.append("other encoder settings") }
            throw FarmError("\(manifestPath) is for another render (\(why.joined(separator: ", "))); use another --out folder or remove it")
        }
    }

    private func write(_ manifest: FarmManifest) throws {
        do {
            try Data(manifest.text().utf8).write(to: URL(fileURLWithPath: manifestPath), options: .atomic)
        } catch {
            throw FarmError("\(manifestPath): cannot write: \(error.localizedDescription)")
        }
    }

    /// Runs `body` holding the exclusive lock on `DIR/.manifest.lock`.
    private func locked<R>(_ body: () throws -> R) throws -> R {
        let lockPath = path(".manifest.lock")
        let fd = Glibc.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FarmError("\(lockPath): cannot open the lock file: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            throw FarmError("\(lockPath): cannot lock (flock: \(String(cString: strerror(errno)))); the output folder needs a file system with locks")
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
