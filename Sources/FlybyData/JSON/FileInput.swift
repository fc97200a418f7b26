import Foundation

/// File reading for inputs (styles, GeoJSON, flights): failures become ``InputError``s that name
/// the path, so modules without Foundation can read files too.
public enum FileInput {
    /// The whole file.
    /// - Throws: ``InputError`` naming `path` when the file is missing or unreadable.
    public static func read(_ path: String) throws(InputError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw InputError(file: path, message: "is a directory, not a file")
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
