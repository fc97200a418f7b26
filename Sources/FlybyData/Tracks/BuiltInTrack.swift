import FlybyCore
import Foundation
import Synchronization

/// Attribution strings the data licences require; show them with any output that uses the data
/// (README, on-map attribution, video credits).
public enum TrackAttribution {
    /// For the TrafficSense traces (`tram9`, `walk-railway-station`), CC BY 4.0.
    public static let trafficSense = "GPS data: TrafficSense / Aalto University, CC BY 4.0"
    /// For data derived from OpenStreetMap (`helsinki-drive`, the city extract), ODbL.
    public static let openStreetMap = "© OpenStreetMap contributors"
}

/// The tracks shipped inside the package (resources of `FlybyData`, `tracks/`).
public enum BuiltInTrack: String, CaseIterable, Sendable {
    /// A derived, noise-free 1 Hz car drive round central Helsinki: 623 fixes, 621.96 s, with
    /// speed and bearing (OpenStreetMap street graph).
    case helsinkiDrive = "helsinki-drive"
    /// Real phone GPS, tram 9 Kampintori → Kaisaniemenkatu: 41 fixes about 10 s apart, one 107 s
    /// gap, one 188 m accuracy radius (TrafficSense).
    case tram9 = "tram9"
    /// Real phone GPS, a walk from the railway station: 93 fixes about 10 s apart (TrafficSense).
    case walkRailwayStation = "walk-railway-station"

    /// Resource file name (in `Resources/tracks/`) and feature id.
    var resource: (file: String, feature: String) {
        switch self {
        case .helsinkiDrive: return ("helsinki_drive_1hz", "helsinki_drive_1hz")
        case .tram9: return ("helsinki_trafficsense", "tram9_kampintori_kaisaniemenkatu")
        case .walkRailwayStation: return ("helsinki_trafficsense", "walk_railway_station")
        }
    }

    /// The credit lines this track needs.
    public var attribution: [String] {
        switch self {
        case .helsinkiDrive: return [TrackAttribution.openStreetMap]
        case .tram9, .walkRailwayStation: return [TrackAttribution.trafficSense]
        }
    }

    /// Tracks already read, by name: the bundled files never change while the process runs, and
    /// flights, the window's track cycling and fuzzing load the same few tracks again and again.
    private static let loaded = Mutex<[BuiltInTrack: Track]>([:])

    /// Loads the track from the package's resources (read once per process). Its ``Track/name``
    /// is the built-in name.
    /// - Throws: ``InputError`` only if the bundled file is missing or damaged.
    public func load() throws(InputError) -> Track {
        if let track = BuiltInTrack.loaded.withLock({ $0[self] }) { return track }
        let track = try read()
        BuiltInTrack.loaded.withLock { $0[self] = track }
        return track
    }

    private func read() throws(InputError) -> Track {
        let (file, feature) = resource
        guard
            let url = Bundle.module.url(forResource: file, withExtension: "geojson", subdirectory: "Resources/tracks")
                ?? Bundle.module.url(forResource: file, withExtension: "geojson")
        else {
            throw InputError(file: "\(file).geojson", message: "built-in track resource is missing from the bundle")
        }
        var track = try TrackFile.parseGeoJSON(
            try TrackFile.readBytes(url.path), file: "builtin:\(rawValue)", feature: feature)
        track.name = rawValue
        return track
    }
}

extension TrackFile {
    /// Loads a track named in a flight script: a built-in name (``BuiltInTrack``), or a path to a
    /// `.gpx`, `.geojson` or `.json` file, relative paths taken relative to `directory` (the
    /// flight file's folder). A path may end in `#name` to pick a feature (GeoJSON) or `trk`
    /// (GPX) by name; otherwise see ``parseGeoJSON(_:file:feature:)`` and
    /// ``parseGPX(_:file:trackName:)``. The format is chosen by extension, else by the first
    /// non-blank byte (`<` GPX, `{` GeoJSON).
    /// - Throws: ``InputError`` naming the file (or the unknown name) and, for bad content, the
    ///   position.
    public static func load(_ reference: String, relativeTo directory: String? = nil) throws(InputError) -> Track {
        if let builtIn = BuiltInTrack(rawValue: reference) { return try builtIn.load() }
        var path = reference
        var name: String? = nil
        if let hash = reference.lastIndex(of: "#") {
            path = String(reference[..<hash])
            name = String(reference[reference.index(after: hash)...])
        }
        if !path.contains("/") && !path.contains(".") {
            let known = BuiltInTrack.allCases.map(\.rawValue).joined(separator: ", ")
            throw InputError(
                file: reference,
                message:
                    "unknown built-in track '\(reference)' (built-in tracks: \(known); or give a .gpx or .geojson path)"
            )
        }
        if let directory, !path.hasPrefix("/") {
            path = directory.hasSuffix("/") ? directory + path : directory + "/" + path
        }
        return try load(contentsOf: path, name: name)
    }

    /// Loads a GPX or GeoJSON file (see ``load(_:relativeTo:)``); `name` picks the feature or `trk`.
    public static func load(contentsOf path: String, name: String? = nil) throws(InputError) -> Track {
        let bytes = try readBytes(path)
        let lower = path.lowercased()
        let isGPX: Bool
        if lower.hasSuffix(".gpx") {
            isGPX = true
        } else if lower.hasSuffix(".geojson") || lower.hasSuffix(".json") {
            isGPX = false
        } else {
            isGPX =
                bytes.first(where: {
                    !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF)
                }) == UInt8(ascii: "<")
        }
        return isGPX
            ? try parseGPX(bytes, file: path, trackName: name) : try parseGeoJSON(bytes, file: path, feature: name)
    }

    static func readBytes(_ path: String) throws(InputError) -> [UInt8] { try FileInput.read(path) }
}
