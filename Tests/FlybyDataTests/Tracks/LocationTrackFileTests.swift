import FlybyCore
import Testing

@testable import FlybyData

@Suite struct LocationTrackFileTests {
    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- a comment -->
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
             xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
          <trk><name>first &amp; only</name>
            <trkseg>
              <trkpt lat="60.1700" lon="24.9400"><ele>12.5</ele><time>2024-06-01T09:00:00Z</time></trkpt>
              <trkpt lat='60.1701' lon="24.9401"><time>2024-06-01T09:00:01.500Z</time>
                <extensions><gpxtpx:TrackPointExtension><gpxtpx:course>45</gpxtpx:course><gpxtpx:speed>3.5</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions>
              </trkpt>
            </trkseg>
            <trkseg>
              <trkpt lat="60.1702" lon="24.9402"><time>2024-06-01T12:00:03+03:00</time><![CDATA[ ]]></trkpt>
            </trkseg>
          </trk>
        </gpx>
        """

    @Test func parsesGPX() throws {
        let t = try TrackFile.parseGPX(Array(Self.gpx.utf8), file: "a.gpx")
        #expect(t.name == "first & only")
        #expect(t.fixes.map(\.timestamp) == [0, 1.5, 3])
        #expect(t.fixes[0].coordinate == LocationCoordinate2D(latitude: 60.17, longitude: 24.94))
        #expect(t.fixes[0].altitude == 12.5)
        #expect(t.fixes[1].course == 45 && t.fixes[1].speed == 3.5)
        #expect(t.fixes[2].course != nil, "missing course is derived")
        let named = try TrackFile.parseGPX(Array(Self.gpx.utf8), file: "a.gpx", trackName: "first & only")
        #expect(named.fixes.count == 3)
    }

    static let geojson = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"id": "r", "kind": "route"},
           "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}},
          {"type": "Feature", "properties": {"id": "pt"}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
          {"type": "Feature", "properties": {"id": "drive", "kind": "derived", "t": [0, 1, 2.5],
             "accuracy_m": [5, null, 7], "speed_mps": [0, 1.5, 3], "bearing_deg": [null, 90, 370]},
           "geometry": {"type": "LineString", "coordinates": [[24.94, 60.17], [24.9401, 60.17, 3], [24.9402, 60.17]]}},
          {"type": "Feature", "properties": {"name": "walk",
             "timestamps": ["2016-08-26T13:42:10.903+03:00", "2016-08-26T10:42:20.903Z", "2016-08-26T13:42:31+0300"]},
           "geometry": {"type": "LineString", "coordinates": [[24.94, 60.17], [24.9402, 60.17], [24.9404, 60.17]]}}
        ]}
        """

    @Test func parsesGeoJSONSkippingRoutes() throws {
        let t = try TrackFile.parseGeoJSON(Array(Self.geojson.utf8), file: "a.geojson")
        #expect(t.name == "drive")
        #expect(t.fixes.map(\.timestamp) == [0, 1, 2.5])
        #expect(t.fixes.map(\.horizontalAccuracy) == [5, 0, 7])
        #expect(t.fixes[1].course == 90 && t.fixes[2].course == 10 && t.fixes[1].speed == 1.5)
        #expect(t.fixes[1].altitude == 3)
    }

    @Test func parsesISOTimestampsOfANamedFeature() throws {
        let t = try TrackFile.parseGeoJSON(Array(Self.geojson.utf8), file: "a.geojson", feature: "walk")
        #expect(t.fixes.count == 3)
        #expect(abs(t.fixes[1].timestamp - 10) < 1e-9 && abs(t.fixes[2].timestamp - 20.097) < 1e-9)
        // A route can be named explicitly, but it has no times.
        #expect(throws: InputError.self) {
            try TrackFile.parseGeoJSON(Array(Self.geojson.utf8), file: "a.geojson", feature: "r")
        }
    }

    @Test func iso8601() {
        #expect(
            ISO8601Instant.parse("2016-08-26T13:42:10+03:00") == ISO8601Instant(seconds: 1_472_208_130, fraction: 0))
        #expect(ISO8601Instant.parse("2000-02-29T00:00:00Z")?.seconds == 951_782_400)
        #expect(ISO8601Instant.parse("1969-12-31T23:59:59Z")?.seconds == -1)
        for bad in [
            "2001-02-29T00:00:00Z", "2016-13-01T00:00:00Z", "2016-08-26T24:00:00Z", "2016-08-26", "yesterday",
            "2016-08-26T13:42:10+03:00x", "2016-08-26T13:42:10.",
        ] {
            #expect(ISO8601Instant.parse(bad) == nil, "\(bad)")
        }
    }

    // MARK: Errors: each names the file and the position.

    struct Bad: Sendable, CustomTestStringConvertible {
        var name: String
        var file: String
        var text: String
        /// Expected in the error's description: file:line:column, path and words.
        var expected: [String]
        var testDescription: String { name }
    }

    static func feature(_ coordinates: String, _ properties: String) -> String {
        #"{"type": "Feature", "properties": {\#(properties)}, "geometry": {"type": "LineString", "coordinates": \#(coordinates)}}"#
    }

    static let badCases: [Bad] = [
        Bad(
            name: "geojson empty", file: "e.geojson", text: feature("[]", #""t": []"#),
            expected: ["e.geojson:1:", "geometry.coordinates", "empty"]),
        Bad(
            name: "geojson one point", file: "o.geojson", text: feature("[[24.9, 60.1]]", #""t": [0]"#),
            expected: ["o.geojson:1:", "geometry.coordinates", "only one fix"]),
        Bad(
            name: "geojson unsorted", file: "u.geojson",
            text: feature("[[24.9, 60.1], [24.9, 60.2], [24.9, 60.3]]", #""t": [0, 5, 4]"#),
            expected: ["u.geojson:1:", "properties.t[2]", "not sorted"]),
        Bad(
            name: "geojson duplicate time", file: "d.geojson",
            text: feature(
                "[[24.9, 60.1], [24.9, 60.2]]", #""timestamps": ["2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z"]"#),
            expected: ["d.geojson:1:", "properties.timestamps[1]", "duplicate time"]),
        Bad(
            name: "geojson bad timestamp", file: "b.geojson",
            text: feature("[[24.9, 60.1], [24.9, 60.2]]", #""timestamps": ["2024-01-01T00:00:00Z", "noon"]"#),
            expected: ["b.geojson:1:", "properties.timestamps[1]", "ISO 8601"]),
        Bad(
            name: "geojson latitude", file: "l.geojson", text: feature("[[24.9, 60.1], [24.9, 95]]", #""t": [0, 1]"#),
            expected: ["l.geojson:1:", "geometry.coordinates[1][1]", "latitude 95.0 is out of range"]),
        Bad(
            name: "geojson longitude", file: "l.geojson", text: feature("[[24.9, 60.1], [190, 60]]", #""t": [0, 1]"#),
            expected: ["l.geojson:1:", "geometry.coordinates[1][0]", "longitude"]),
        Bad(
            name: "geojson lengths", file: "m.geojson",
            text: feature("[[24.9, 60.1], [24.9, 60.2]]", #""t": [0, 1], "accuracy_m": [1]"#),
            expected: ["m.geojson:1:", "properties.accuracy_m", "1 values but the LineString has 2"]),
        Bad(
            name: "geojson negative accuracy", file: "a.geojson",
            text: feature("[[24.9, 60.1], [24.9, 60.2]]", #""t": [0, 1], "accuracy_m": [3, -1]"#),
            expected: ["a.geojson:1:", "properties.accuracy_m[1]", "accuracy must not be negative"]),
        Bad(
            name: "geojson no times", file: "n.geojson",
            text: feature("[[24.9, 60.1], [24.9, 60.2]]", #""kind": "real""#),
            expected: ["n.geojson:1:", "properties", "'t'"]),
        Bad(
            name: "geojson malformed", file: "j.geojson", text: "{\"type\": \"Feature\",\n  \"properties\": {,}}",
            expected: ["j.geojson:2:"]),
        Bad(
            name: "geojson no track", file: "r.geojson",
            text:
                #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"kind": "route", "t": [0, 1]}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}}]}"#,
            expected: ["r.geojson:1:1", "no track"]),
        Bad(
            name: "gpx malformed", file: "m.gpx", text: "<gpx>\n  <trk><trkseg>\n  </trk>\n</gpx>",
            expected: ["m.gpx:3:3", "malformed XML", "</trk> does not match"]),
        Bad(name: "gpx not gpx", file: "x.gpx", text: "<kml/>", expected: ["x.gpx:1:1", "<gpx>"]),
        Bad(
            name: "gpx empty", file: "e.gpx", text: "<gpx>\n <trk><trkseg></trkseg></trk></gpx>",
            expected: ["e.gpx:2:2", "gpx.trk[0]", "empty"]),
        Bad(
            name: "gpx one point", file: "o.gpx",
            text:
                "<gpx><trk><trkseg>\n<trkpt lat=\"60\" lon=\"25\"><time>2024-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>",
            expected: ["o.gpx:1:6", "only one fix"]),
        Bad(
            name: "gpx unsorted", file: "u.gpx",
            text: """
                <gpx><trk><trkseg>
                <trkpt lat="60" lon="25"><time>2024-01-01T00:00:05Z</time></trkpt>
                <trkpt lat="60.1" lon="25"><time>2024-01-01T00:00:01Z</time></trkpt>
                </trkseg></trk></gpx>
                """, expected: ["u.gpx:3:28", "gpx.trk[0].trkseg[0].trkpt[1].time", "not sorted"]),
        Bad(
            name: "gpx latitude", file: "l.gpx",
            text: """
                <gpx><trk><trkseg>
                <trkpt lat="60" lon="25"><time>2024-01-01T00:00:05Z</time></trkpt>
                <trkpt lat="-91" lon="25"><time>2024-01-01T00:00:06Z</time></trkpt>
                </trkseg></trk></gpx>
                """, expected: ["l.gpx:3:8", "trkpt[1]", "latitude -91.0 is out of range"]),
        Bad(
            name: "gpx nan", file: "n.gpx",
            text: """
                <gpx><trk><trkseg>
                <trkpt lat="nan" lon="25"><time>2024-01-01T00:00:05Z</time></trkpt>
                </trkseg></trk></gpx>
                """, expected: ["n.gpx:2:8", "not a finite number"]),
        Bad(
            name: "gpx no time", file: "t.gpx",
            text: """
                <gpx><trk><trkseg>
                  <trkpt lat="60" lon="25"></trkpt>
                </trkseg></trk></gpx>
                """, expected: ["t.gpx:2:3", "has no <time>"]),
    ]

    @Test(arguments: badCases)
    func errorsNameTheFileAndPosition(_ c: Bad) {
        do {
            let bytes = Array(c.text.utf8)
            _ =
                c.file.hasSuffix(".gpx")
                ? try TrackFile.parseGPX(bytes, file: c.file) : try TrackFile.parseGeoJSON(bytes, file: c.file)
            Issue.record("expected an error")
        } catch {
            for part in c.expected { #expect(error.description.contains(part), "\(error.description) lacks '\(part)'") }
        }
    }

    @Test func missingFileAndUnknownBuiltInNameAreErrors() {
        #expect(throws: InputError.self) { try TrackFile.load("/nonexistent/track.gpx") }
        do {
            _ = try TrackFile.load("tram7")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("helsinki-drive, tram9, walk-railway-station"))
        }
    }

    // MARK: Built-in tracks

    @Test func builtInTracksLoad() throws {
        let drive = try TrackFile.load("helsinki-drive")
        #expect(drive.fixes.count == 623)
        #expect(abs(drive.duration - 621.958) < 1e-9)
        #expect(abs(drive.length - 4852.6) < 5)
        #expect(drive.typicalInterval == 1)
        let tram = try BuiltInTrack.tram9.load()
        #expect(tram.fixes.count == 41)
        #expect(tram.fixes.contains { $0.horizontalAccuracy == 188 })
        let walk = try BuiltInTrack.walkRailwayStation.load()
        #expect(walk.fixes.count == 93)
        for t in [drive, tram, walk] {
            #expect(t.fixes.allSatisfy { $0.course != nil && $0.speed != nil && $0.coordinate.isFinite })
        }
        #expect(BuiltInTrack.tram9.attribution == ["GPS data: TrafficSense / Aalto University, CC BY 4.0"])
        #expect(TrackAttribution.openStreetMap == "© OpenStreetMap contributors")
    }
}
