import FlybyCore

/// Reading location tracks from GPX 1.1 and GeoJSON, and the built-in tracks.
///
/// Every problem is an ``InputError`` naming the file and the line and column (plus the JSON
/// path for GeoJSON, or an element path such as `gpx.trk[0].trkseg[1].trkpt[4]` for GPX); no
/// input makes it crash. Track time is seconds since the first fix (or the GeoJSON `t` values
/// as given). See ``Track`` for the checks and completions every track goes through.
///
/// Refused, with the position of the offending value: malformed XML or JSON; no track, no fixes
/// or only one fix; a latitude outside −90…90 or longitude outside −180…180; a missing or
/// unparsable time; **times out of order** (a track is never re-sorted: unsorted data is usually
/// a broken export); the same time twice with different positions (an exact repeat of time and
/// position is dropped); parallel property arrays whose length differs from the coordinates';
/// negative accuracy or speed; non-finite numbers.
public enum TrackFile {
    // MARK: GPX

    /// Reads a GPX 1.1 document: the `trkpt`s of all `trkseg`s of one `trk`, in document order.
    ///
    /// Each `trkpt` needs `lat` and `lon` attributes (degrees) and a `<time>` (ISO 8601; UTC
    /// when no zone is given). Optional: `<ele>` (metres), and anywhere inside the point
    /// (`<extensions>` included, any namespace prefix) `<course>` (degrees), `<speed>` (m/s),
    /// `<heading>` (degrees) and `<accuracy>` (metres). `<hdop>` is unitless and ignored.
    /// - Parameters:
    ///   - trackName: the `<name>` of the `trk` to read; nil reads the first `trk`.
    /// - Throws: ``InputError`` naming `file`, line and column.
    public static func parseGPX(_ bytes: [UInt8], file: String, trackName: String? = nil) throws(InputError) -> Track {
        func error(_ offset: Int, _ path: String?, _ message: String) -> InputError {
            let (line, column) = lineAndColumn(of: offset, in: bytes)
            return InputError(file: file, line: line, column: column, path: path, message: message)
        }
        let root: XMLElement
        do { root = try XMLReader.parse(bytes) } catch {
            throw trackInputError(file, bytes, error.offset, nil, "malformed XML: \(error.message)")
        }
        guard root.localName == "gpx" else {
            throw error(root.offset, nil, "expected a <gpx> root element, found <\(root.name)>")
        }
        let tracks = root.children(named: "trk")
        let chosen: (Int, XMLElement)
        if let trackName {
            guard let k = tracks.firstIndex(where: { $0.child(named: "name")?.text.xmlTrimmed == trackName }) else {
                let names = tracks.compactMap { $0.child(named: "name")?.text.xmlTrimmed }.map { "'\($0)'" }
                throw error(
                    root.offset, "gpx",
                    "no <trk> named '\(trackName)' (found: \(names.isEmpty ? "none" : names.joined(separator: ", ")))")
            }
            chosen = (k, tracks[k])
        } else {
            guard let first = tracks.first else {
                throw error(root.offset, "gpx", "the GPX file has no <trk> track: the track is empty")
            }
            chosen = (0, first)
        }
        let (trkIndex, trk) = chosen
        var fixes: [Location] = []
        var points: [(offset: Int, path: String, time: ISO8601Instant, timeOffset: Int)] = []
        for (s, seg) in trk.children(named: "trkseg").enumerated() {
            for (p, pt) in seg.children(named: "trkpt").enumerated() {
                let path = "gpx.trk[\(trkIndex)].trkseg[\(s)].trkpt[\(p)]"
                func number(_ name: String) throws(InputError) -> Double? {
                    if let a = pt.attribute(name) {
                        guard let v = parseDecimal(a.value) else {
                            throw error(a.offset, path, "\(name)=\"\(a.value)\" is not a finite number")
                        }
                        return v
                    }
                    guard let e = pt.descendant(named: name) else { return nil }
                    guard let v = parseDecimal(e.text.xmlTrimmed) else {
                        throw error(
                            e.offset, path + "." + name, "<\(e.name)> '\(e.text.xmlTrimmed)' is not a finite number")
                    }
                    return v
                }
                guard let latAttr = pt.attribute("lat") else {
                    throw error(pt.offset, path, "<trkpt> has no lat attribute")
                }
                guard let lonAttr = pt.attribute("lon") else {
                    throw error(pt.offset, path, "<trkpt> has no lon attribute")
                }
                guard let lat = parseDecimal(latAttr.value) else {
                    throw error(latAttr.offset, path, "lat=\"\(latAttr.value)\" is not a finite number")
                }
                guard let lon = parseDecimal(lonAttr.value) else {
                    throw error(lonAttr.offset, path, "lon=\"\(lonAttr.value)\" is not a finite number")
                }
                guard (-90...90).contains(lat) else {
                    throw error(latAttr.offset, path, "latitude \(lat) is out of range -90…90")
                }
                guard (-180...180).contains(lon) else {
                    throw error(lonAttr.offset, path, "longitude \(lon) is out of range -180…180")
                }
                guard let timeElement = pt.child(named: "time") else {
                    throw error(pt.offset, path, "<trkpt> has no <time>")
                }
                guard let time = ISO8601Instant.parse(timeElement.text.xmlTrimmed) else {
                    throw error(
                        timeElement.offset, path + ".time",
                        "'\(timeElement.text.xmlTrimmed)' is not an ISO 8601 date-time")
                }
                let accuracy = try number("accuracy") ?? 0
                let speed = try number("speed")
                if accuracy < 0 {
                    throw error(pt.offset, path + ".accuracy", "accuracy \(accuracy) must not be negative")
                }
                if let speed, speed < 0 {
                    throw error(pt.offset, path + ".speed", "speed \(speed) must not be negative")
                }
                let ele = try pt.child(named: "ele").map { (e) throws(InputError) -> Double in
                    guard let v = parseDecimal(e.text.xmlTrimmed) else {
                        throw error(e.offset, path + ".ele", "<ele> '\(e.text.xmlTrimmed)' is not a finite number")
                    }
                    return v
                }
                fixes.append(
                    Location(
                        coordinate: LocationCoordinate2D(latitude: lat, longitude: lon), timestamp: 0,
                        course: try number("course"), speed: speed, horizontalAccuracy: accuracy,
                        heading: try number("heading"), altitude: ele))
                points.append((pt.offset, path, time, timeElement.offset))
            }
        }
        let trkPath = "gpx.trk[\(trkIndex)]"
        guard let t0 = points.first?.time else {
            throw error(trk.offset, trkPath, "the track is empty: it has no <trkpt>")
        }
        for k in fixes.indices { fixes[k].timestamp = points[k].time.seconds(since: t0) }
        try checkOrder(fixes) { k, message in error(points[k].timeOffset, points[k].path + ".time", message) }
        let name = trackName ?? trk.child(named: "name")?.text.xmlTrimmed ?? ""
        return try makeTrack(
            name: name, fixes: fixes,
            whole: { m in error(trk.offset, trkPath, m) },
            at: { k, m in error(points[k].offset, points[k].path, m) })
    }

    // MARK: GeoJSON

    /// Reads a GeoJSON `FeatureCollection` or `Feature` whose geometry is a `LineString` of
    /// `[longitude, latitude(, elevation)]` positions and whose properties carry, parallel to
    /// the coordinates, `t` (seconds) or `timestamps` (ISO 8601 strings), and optionally
    /// `accuracy_m` (metres), `speed_mps` (m/s), `bearing_deg` (course, degrees) and
    /// `heading_deg` (degrees); `null` entries in the optional arrays mean unknown. When both
    /// `t` and `timestamps` are present, `t` is used.
    ///
    /// Which feature: with `feature`, the one whose `properties.id`, `properties.name` or
    /// Feature `id` equals it; without, the first `LineString` feature whose `properties.kind`
    /// is not `"route"` (so the route polyline next to the drive is skipped).
    /// - Throws: ``InputError`` naming `file`, line, column and JSON path.
    public static func parseGeoJSON(_ bytes: [UInt8], file: String, feature name: String? = nil) throws(InputError)
        -> Track
    {
        let root = try JSONDocument(file: file, bytes: bytes).cursor
        guard root.isObject else { throw root.error("expected a GeoJSON object, found \(root.node.typeDescription)") }
        let type = try root.required("type").string()
        var features: [JSONCursor]
        switch type {
        case "FeatureCollection": features = try root.required("features").elements()
        case "Feature": features = [root]
        default:
            throw try root.required("type").error(
                "expected a FeatureCollection or Feature with a LineString track, found \(type)")
        }
        func isLineString(_ f: JSONCursor) throws(InputError) -> Bool {
            guard let g = try f.member("geometry"), g.isObject, let t = try g.member("type") else { return false }
            guard t.isString else { return false }
            return try t.string() == "LineString"
        }
        func identifiers(_ f: JSONCursor) throws(InputError) -> [String] {
            var ids: [String] = []
            if let id = try f.member("id"), id.isString { ids.append(try id.string()) }
            if let p = try f.member("properties"), p.isObject {
                for key in ["id", "name"] { if let v = try p.member(key), v.isString { ids.append(try v.string()) } }
            }
            return ids
        }
        let f: JSONCursor
        var chosen: JSONCursor? = nil
        if let name {
            for f in features where try identifiers(f).contains(name) {
                chosen = f
                break
            }
            guard let found = chosen else {
                var known: [String] = []
                for f in features { if let id = try identifiers(f).first { known.append("'\(id)'") } }
                throw root.error(
                    "no feature named '\(name)' (found: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
            }
            guard try isLineString(found) else { throw found.error("feature '\(name)' is not a LineString") }
            f = found
        } else {
            for f in features where try isLineString(f) {
                if let p = try f.member("properties"), p.isObject, let kind = try p.member("kind"), kind.isString,
                    try kind.string() == "route"
                {
                    continue
                }
                chosen = f
                break
            }
            guard let found = chosen else {
                throw root.error("no track: expected a LineString feature whose properties.kind is not \"route\"")
            }
            f = found
        }
        let geometry = try f.required("geometry")
        let coordinates = try geometry.required("coordinates")
        let positions = try coordinates.elements()
        guard let properties = try f.member("properties"), properties.isObject else {
            throw f.error("the feature has no properties with 't' or 'timestamps'")
        }
        func parallel(_ key: String) throws(InputError) -> [JSONCursor]? {
            guard let a = try properties.member(key) else { return nil }
            let items = try a.elements()
            guard items.count == positions.count else {
                throw a.error(
                    "'\(key)' has \(items.count) values but the LineString has \(positions.count) coordinates")
            }
            return items
        }
        let tValues = try parallel("t")
        let stamps = try parallel("timestamps")
        guard let times = tValues ?? stamps else {
            throw properties.error(
                "the track needs 't' (seconds) or 'timestamps' (ISO 8601) parallel to the coordinates")
        }
        let accuracies = try parallel("accuracy_m")
        let speeds = try parallel("speed_mps")
        let bearings = try parallel("bearing_deg")
        let headings = try parallel("heading_deg")
        func optional(_ items: [JSONCursor]?, _ k: Int, nonNegative what: String? = nil) throws(InputError) -> Double? {
            guard let items, !items[k].node.isNull else { return nil }
            if let what { return try items[k].nonNegative(what: what) }
            return try items[k].double()
        }
        guard !positions.isEmpty else {
            throw coordinates.error("the track is empty: the LineString has no coordinates")
        }
        var fixes: [Location] = []
        fixes.reserveCapacity(positions.count)
        var t0: ISO8601Instant? = nil
        for (k, p) in positions.enumerated() {
            let items = try p.elements()
            guard items.count == 2 || items.count == 3 else {
                throw p.error(
                    "expected a position [longitude, latitude] or [longitude, latitude, elevation], found \(items.count) numbers"
                )
            }
            let lon = try items[0].double(in: -180...180, what: "longitude")
            let lat = try items[1].double(in: -90...90, what: "latitude")
            let ele = items.count == 3 ? try items[2].double() : nil
            let time: Double
            if tValues != nil {
                time = try times[k].double()
            } else {
                let s = try times[k].string()
                guard let instant = ISO8601Instant.parse(s) else {
                    throw times[k].error("'\(s)' is not an ISO 8601 date-time")
                }
                let first = t0 ?? instant
                t0 = first
                time = instant.seconds(since: first)
            }
            let accuracy = try optional(accuracies, k, nonNegative: "accuracy") ?? 0
            let speed = try optional(speeds, k, nonNegative: "speed")
            fixes.append(
                Location(
                    coordinate: LocationCoordinate2D(latitude: lat, longitude: lon), timestamp: time,
                    course: try optional(bearings, k), speed: speed, horizontalAccuracy: accuracy,
                    heading: try optional(headings, k), altitude: ele))
        }
        try checkOrder(fixes) { k, message in times[k].error(message) }
        let name = try identifiers(f).first ?? ""
        return try makeTrack(
            name: name, fixes: fixes, whole: { m in coordinates.error(m) },
            at: { k, m in positions[k].error(m) })
    }

    // MARK: Shared

    /// Refuses times that go backwards, and one time with two positions, at the offending fix.
    private static func checkOrder(_ fixes: [Location], _ error: (Int, String) -> InputError) throws(InputError) {
        for k in fixes.indices.dropFirst() {
            let a = fixes[k - 1]
            let b = fixes[k]
            if b.timestamp < a.timestamp {
                throw error(
                    k,
                    "time \(b.timestamp) s is before the previous fix's \(a.timestamp) s: the track is not "
                        + "sorted by time (fix \(k)); fixes must be in increasing time order")
            }
            if b.timestamp == a.timestamp && b.coordinate != a.coordinate {
                throw error(
                    k, "duplicate time \(b.timestamp) s (fix \(k)) with a different position than the previous fix")
            }
        }
    }

    private static func makeTrack(
        name: String, fixes: [Location], whole: (String) -> InputError,
        at: (Int, String) -> InputError
    ) throws(InputError) -> Track {
        do { return try Track(name: name, fixes: fixes) } catch {
            if let k = error.index { throw at(k, error.message) }
            throw whole(error.message)
        }
    }

    /// A plain decimal number (`-12.5`, `1e-3`); nil for anything else, including `nan`,
    /// `inf`, hexadecimal and values that overflow.
    static func parseDecimal(_ s: String) -> Double? {
        guard !s.isEmpty,
            s.utf8.allSatisfy({
                ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E || $0 == 0x65 || $0 == 0x45
            }),
            s.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }), let v = Double(s), v.isFinite
        else { return nil }
        return v
    }
}

/// An ``InputError`` at a byte offset of `bytes`.
func trackInputError(_ file: String, _ bytes: [UInt8], _ offset: Int, _ path: String?, _ message: String) -> InputError
{
    let (line, column) = lineAndColumn(of: offset, in: bytes)
    return InputError(file: file, line: line, column: column, path: path, message: message)
}

extension String {
    /// Without leading and trailing XML whitespace.
    var xmlTrimmed: String {
        let space: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !space($0) }), let last = lastIndex(where: { !space($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
