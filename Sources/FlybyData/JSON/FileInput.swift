import Foundation

/// File reading for inputs (styles, GeoJSON, flights): failures become ``InputError``s that name
/// the path, so modules without Foundation can read files too.
public enum FileInput {
    /// Largest input file accepted by default (512 MiB): larger inputs (a 10 GB GeoJSON) are
    /// refused before anything is read, instead of exhausting memory.
    public static let defaultMaxBytes = 512 << 20

    /// The whole file.
    /// - Throws: ``InputError`` naming `path` when the file is missing, unreadable, a directory,
    ///   or larger than `maxBytes`.
    public static func read(_ path: String, maxBytes: Int = defaultMaxBytes) throws(InputError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(file: path, message: "no such file")
        }
        if isDirectory.boolValue {
            throw InputError(file: path, message: "is a directory, not a file")
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber, size.int64Value > Int64(maxBytes) {
            throw InputError(file: path, message: "file is \(size.int64Value >> 20) MiB, larger than the limit of \(maxBytes >> 20) MiB")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(file: path, message: "cannot read the file (missing or not readable)")
        }
        return [UInt8](data)
    }

    /// True when `path` names an existing regular file (or a link to one).
    public static func isFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}

extension JSONDocument {
    /// Reads and parses a JSON file; errors name `path`.
    public init(contentsOfFile path: String, limits: JSONLimits = JSONLimits()) throws(InputError) {
        try self.init(file: path, bytes: try FileInput.read(path), limits: limits)
    }
}
