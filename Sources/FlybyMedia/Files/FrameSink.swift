#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A destination for a sequence of rendered frames: a PNG folder, a Y4M file or an ffmpeg encode.
///
/// Frames are premultiplied ARGB (`0xAARRGGBB`), row-major, top row first, all of the size the sink
/// was created with. Call ``finish()`` after the last frame to make the output visible; call
/// ``cancel()`` (or drop the sink without finishing) to leave nothing behind.
public protocol FrameSink: AnyObject {
    /// Writes one frame. `index` is the absolute frame index (the PNG folder names files after it;
    /// streams ignore it and take frames in call order).
    func write(frame: UnsafeBufferPointer<UInt32>, index: Int) throws(MediaError)
    /// Completes the output (flush, close, rename into place).
    func finish() throws(MediaError)
    /// Abandons the output and removes any temporary file. Safe to call more than once.
    func cancel()
    /// Whether the sink takes each frame as planar Y′CbCr 4:2:0 BT.709 bytes (converted by the
    /// caller, ``Y4MWriter/convert(_:width:height:chroma:matrix:into:)`` with `.c420jpeg`)
    /// through ``write(planes:index:)`` instead of ARGB pixels. False unless a sink says so.
    var takesPlanes: Bool { get }
    /// Writes one frame given as 4:2:0 planes (Y, then Cb, then Cr); only for a sink whose
    /// ``takesPlanes`` is true.
    func write(planes: UnsafeRawBufferPointer, index: Int) throws(MediaError)
}

extension FrameSink {
    public var takesPlanes: Bool { false }

    public func write(planes: UnsafeRawBufferPointer, index: Int) throws(MediaError) {
        throw .invalidArgument("this output takes ARGB frames, not Y′CbCr planes")
    }

    /// Writes one frame given as an array. See ``write(frame:index:)``.
    public func write(frame: [UInt32], index: Int) throws(MediaError) {
        var result: Result<Void, MediaError> = .success(())
        frame.withUnsafeBufferPointer { buffer in
            result = Result { () throws(MediaError) in try write(frame: buffer, index: index) }
        }
        try result.get()
    }
}

/// Checks that a frame has `width × height` pixels.
func checkFrame(_ frame: UnsafeBufferPointer<UInt32>, width: Int, height: Int) throws(MediaError) {
    guard frame.count == width * height else {
        throw .invalidArgument("frame has \(frame.count) pixels, expected \(width)×\(height) = \(width * height)")
    }
}

/// Writes each frame as `frame-NNNNNN.png` in a folder, numbered by absolute frame index
/// (docs/formats.md §1: `flyby play … --out DIR`). Each file is written atomically.
///
/// The writer remembers what it made: the folders it created and the frame files that did not
/// exist before it wrote them. ``cancel()`` removes exactly those (a folder that existed before
/// keeps its earlier files; a frame file it overwrote keeps the new frame), and until ``finish()``
/// they are listed in ``CleanupRegistry`` so a signal removes them too.
public final class PNGFolderWriter: FrameSink {
    /// The output folder (created, with its parents, if missing).
    public let directory: String
    /// Frame size in pixels.
    public let width: Int, height: Int
    /// The encoder used for every frame.
    public var encoder: PNGEncoder
    /// Folders this writer created, outermost first.
    public private(set) var createdFolders: [String]
    /// Frame files this writer created (not those it overwrote).
    public private(set) var createdFiles: [String] = []
    private var closed = false

    /// Creates the folder if needed.
    public init(directory: String, width: Int, height: Int, encoder: PNGEncoder = PNGEncoder()) throws(MediaError) {
        guard width > 0, height > 0 else { throw .invalidArgument("frame size \(width)×\(height) must be positive") }
        self.directory = directory
        self.width = width
        self.height = height
        self.encoder = encoder
        createdFolders = try AtomicFileWriter.makeDirectories(directory)
        for folder in createdFolders { CleanupRegistry.shared.add(folder: folder) }
    }

    /// Whether the folder existed before this writer (so an interrupted run leaves it in place).
    public var folderExisted: Bool { createdFolders.isEmpty }

    /// `frame-000042.png` for index 42: six digits, zero-padded, more digits past 999999.
    public static func fileName(frameIndex: Int) -> String {
        precondition(frameIndex >= 0, "frame index must not be negative")
        let digits = String(frameIndex)
        return "frame-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".png"
    }

    /// The full path of frame `index`.
    public func path(frameIndex: Int) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + PNGFolderWriter.fileName(frameIndex: frameIndex)
    }

    public func write(frame: UnsafeBufferPointer<UInt32>, index: Int) throws(MediaError) {
        guard index >= 0 else { throw .invalidArgument("frame index \(index) is negative") }
        try checkFrame(frame, width: width, height: height)
        let png = try encoder.encode(pixels: frame, width: width, height: height)
        let file = path(frameIndex: index)
        var info = stat()
        let isNew = lstat(file, &info) != 0
        if isNew {
            // Registered before it exists, so a signal between the rename and here still removes it.
            CleanupRegistry.shared.add(path: file)
            createdFiles.append(file)
        }
        try AtomicFileWriter.write(png, to: file)
    }

    /// Keeps every frame: they are complete.
    public func finish() throws(MediaError) {
        guard !closed else { return }
        closed = true
        CleanupRegistry.shared.remove(paths: createdFiles)
        for folder in createdFolders { CleanupRegistry.shared.remove(folder: folder) }
    }

    /// Removes the frames and folders this writer created; what was there before stays.
    public func cancel() {
        guard !closed else { return }
        closed = true
        for file in createdFiles { unlink(file) }
        for folder in createdFolders.reversed() { rmdir(folder) }
        CleanupRegistry.shared.remove(paths: createdFiles)
        for folder in createdFolders { CleanupRegistry.shared.remove(folder: folder) }
    }
}
