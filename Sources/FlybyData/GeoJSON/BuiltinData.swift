import Foundation

/// The data that ships inside the package (Natural Earth, the Helsinki OpenStreetMap extract, the
/// GPS tracks, the built-in styles), found through the module's resource bundle.
public enum BuiltinData {
    /// The absolute path of a built-in resource, e.g. `world/ne_50m_admin0_countries.geojson` or
    /// `styles/world.json`, or nil when there is no such resource.
    public static func path(_ name: String) -> String? { resource(name, isDirectory: false) }

    /// The resource `name` when it exists as a file (or as a folder when `isDirectory`).
    private static func resource(_ name: String, isDirectory wanted: Bool) -> String? {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else { return nil }
        // `.copy("Resources")` keeps the folder; where the bundle puts it differs by platform.
        let bases = [Bundle.module.resourceURL, Bundle.module.bundleURL].compactMap { $0 }
        for base in bases {
            let url = base.appendingPathComponent("Resources").appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue == wanted {
                return url.path
            }
        }
        return nil
    }

    /// The absolute path of a built-in folder (a folder of tiles), or nil when there is none.
    public static func directoryPath(_ name: String) -> String? { resource(name, isDirectory: true) }

    /// The bytes of a built-in resource.
    /// - Throws: ``InputError`` when there is no such resource.
    public static func bytes(_ name: String) throws(InputError) -> [UInt8] {
        guard let p = path(name) else { throw InputError(file: name, message: "no built-in resource named '\(name)'") }
        return try readFileBytes(p)
    }

    /// Parses a built-in GeoJSON file, e.g. `city/helsinki_roads.geojson`.
    public static func geoJSON(_ name: String) throws(InputError) -> FeatureCollection {
        try GeoJSON.parse(try bytes(name), file: name)
    }
}
