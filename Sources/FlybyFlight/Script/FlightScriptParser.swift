import FlybyCore
import FlybyData

/// Reads flight scripts (docs/formats.md §2) strictly: unknown steps and fields, wrong types,
/// non-finite or out-of-range numbers and negative durations are `InputError`s that name the file,
/// the line and column, and the JSON path (`steps[3].fly.to.zoom`).
public enum FlightScriptParser {
    /// Longest duration or wait accepted, seconds (one day).
    public static let maxDuration = 86_400.0
    /// Largest frame side accepted, points.
    public static let maxSide = 16_384
    /// Most steps accepted in one script, counting the steps inside `parallel` (a flight of a
    /// million steps is refused with a clear error instead of running for hours).
    public static let maxSteps = 100_000

    /// Parses a script from its bytes; `file` names it in errors.
    public static func parse(bytes: [UInt8], file: String) throws(InputError) -> FlightScript {
        let doc = try JSONDocument(file: file, bytes: bytes)
        return try parse(doc.cursor, file: file)
    }

    static func parse(_ root: JSONCursor, file: String) throws(InputError) -> FlightScript {
        guard root.isObject else { throw root.error("a flight script must be a JSON object, found \(root.node.typeDescription)") }
        try root.rejectUnknownKeys(["flyby", "size", "fps", "style", "camera", "bounds", "location", "viewportOptions", "steps"])
        var script = FlightScript(file: file, steps: [])
        if let v = try root.member("flyby") {
            guard try v.int() == 1 else { throw v.error("unsupported flight script version (expected 1)") }
        }
        if let v = try root.member("size") { script.size = try size(v) }
        if let v = try root.member("fps") {
            script.fps = try v.double()
            guard script.fps > 0 && script.fps <= 1000 else { throw v.error("fps must be in 0…1000 (exclusive of 0), found \(script.fps)") }
        }
        if let v = try root.member("style") { script.style = try v.string(); script.styleLocation = v.error("") }
        if let v = try root.member("camera") { script.camera = try camera(v) }
        if let v = try root.member("bounds") { script.bounds = try bounds(v) }
        if let v = try root.member("location") { script.location = try location(v, file: file) }
        if let v = try root.member("viewportOptions") {
            try v.rejectUnknownKeys(["transitionsToIdleUponUserInteraction"])
            if let t = try v.member("transitionsToIdleUponUserInteraction") { script.transitionsToIdleUponUserInteraction = try t.bool() }
        }
        let stepsCursor = try root.required("steps")
        let count = countSteps(stepsCursor.node)
        guard count <= maxSteps else { throw stepsCursor.error("\(count) steps is more than the limit of \(maxSteps)") }
        script.steps = try stepsCursor.elements().map { (c: JSONCursor) throws(InputError) in try step(c) }
        script.warnings = warnings(root)
        return script
    }

    /// A time over this many seconds (10 minutes) in a duration, wait, hold, delay or `at` gets
    /// a warning: Mapbox's `duration` options are seconds, but JavaScript's are milliseconds, and
    /// a script converted from one to the other without dividing asks for hours.
    public static let longTime = 600.0
    static let timeKeys: Set<String> = ["duration", "maxDuration", "wait", "hold", "delay", "animationDuration", "at"]

    /// Warnings for a script that parsed: every time over ``longTime`` seconds, and every
    /// `center` that looks like `[latitude, longitude]` (``SwappedCentre``), by JSON path.
    public static func warnings(_ c: JSONCursor) -> [String] {
        var found: [String] = []
        func walk(_ c: JSONCursor) {
            if c.isArray {
                for item in (try? c.elements()) ?? [] { walk(item) }
            } else if c.isObject {
                for (key, value) in (try? c.members()) ?? [] {
                    if timeKeys.contains(key), let t = value.node.doubleValue, t > longTime {
                        found.append(value.error("\(key) \(t) s is over \(Int(longTime / 60)) minutes (times in flight scripts are seconds, not milliseconds)").description)
                    }
                    if key == "center", let pair = value.node.arrayValue, pair.count == 2,
                       let first = pair[0].doubleValue, let second = pair[1].doubleValue,
                       let warning = SwappedCentre.warning(first, second) {
                        found.append(value.error(warning).description)
                    }
                    walk(value)
                }
            }
        }
        walk(c)
        return found
    }

    /// Steps in a `steps` array, nested `parallel` children included.
    static func countSteps(_ node: JSONNode) -> Int {
        guard let items = node.arrayValue else { return 0 }
        var n = 0
        for item in items {
            n += 1
            if let p = item["parallel"] { n += countSteps(p) }
        }
        return n
    }

    static func size(_ c: JSONCursor) throws(InputError) -> ScreenSize {
        let items = try c.elements()
        guard items.count == 2 else { throw c.error("size must be [width, height]") }
        let w = try items[0].int(), h = try items[1].int()
        guard w >= 1 && w <= maxSide else { throw items[0].error("width must be 1…\(maxSide), found \(w)") }
        guard h >= 1 && h <= maxSide else { throw items[1].error("height must be 1…\(maxSide), found \(h)") }
        return ScreenSize(width: Double(w), height: Double(h))
    }

    /// A Camera object: every field optional.
    public static func camera(_ c: JSONCursor) throws(InputError) -> CameraOptions {
        guard c.isObject else { throw c.error("expected a camera object, found \(c.node.typeDescription)") }
        try c.rejectUnknownKeys(["center", "zoom", "bearing", "pitch", "padding", "anchor"], what: "camera field")
        var o = CameraOptions()
        if let v = try c.member("center") {
            let items = try v.elements()
            guard items.count == 2 else { throw v.error("center must be [longitude, latitude]") }
            let lng = try items[0].double(in: -540...540, what: "longitude")
            let lat = try items[1].double(in: -90...90, what: "latitude")
            o.center = LocationCoordinate2D(latitude: lat, longitude: lng)
        }
        if let v = try c.member("zoom") { o.zoom = try v.double(in: -5...30, what: "zoom") }
        if let v = try c.member("bearing") { o.bearing = try v.double(in: -1e6...1e6, what: "bearing") }
        if let v = try c.member("pitch") { o.pitch = try v.double(in: 0...90, what: "pitch") }
        if let v = try c.member("padding") { o.padding = try padding(v) }
        if let v = try c.member("anchor") {
            let (x, y) = try v.pair()
            guard abs(x) < 1e6 && abs(y) < 1e6 else { throw v.error("anchor is too far off screen") }
            o.anchor = ScreenPoint(x: x, y: y)
        }
        return o
    }

    /// Padding: `{"top": t, "left": l, "bottom": b, "right": r}` (absent sides 0) or `[t, l, b, r]`.
    public static func padding(_ c: JSONCursor) throws(InputError) -> EdgeInsets {
        if c.isArray {
            let items = try c.elements()
            guard items.count == 4 else { throw c.error("padding must be [top, left, bottom, right]") }
            var v: [Double] = []
            for i in items { v.append(try i.double(in: 0...100_000, what: "padding")) }
            return EdgeInsets(top: v[0], left: v[1], bottom: v[2], right: v[3])
        }
        guard c.isObject else { throw c.error("padding must be an object {top, left, bottom, right} or an array, found \(c.node.typeDescription)") }
        try c.rejectUnknownKeys(["top", "left", "bottom", "right"], what: "padding side")
        func side(_ k: String) throws(InputError) -> Double { try c.member(k)?.double(in: 0...100_000, what: "padding") ?? 0 }
        return EdgeInsets(top: try side("top"), left: try side("left"), bottom: try side("bottom"), right: try side("right"))
    }

    static func bounds(_ c: JSONCursor) throws(InputError) -> CameraBounds {
        try c.rejectUnknownKeys(["minZoom", "maxZoom", "minPitch", "maxPitch", "bounds"], what: "bounds field")
        var o = CameraBoundsOptions()
        if let v = try c.member("minZoom") { o.minZoom = try v.double() }
        if let v = try c.member("maxZoom") { o.maxZoom = try v.double() }
        if let v = try c.member("minPitch") { o.minPitch = try v.double() }
        if let v = try c.member("maxPitch") { o.maxPitch = try v.double() }
        if let v = try c.member("bounds") {
            let items = try v.elements()
            guard items.count == 4 else { throw v.error("bounds must be [west, south, east, north]") }
            let w = try items[0].double(), s = try items[1].double(), e = try items[2].double(), n = try items[3].double()
            o.bounds = CoordinateBounds(southwest: LocationCoordinate2D(latitude: s, longitude: w),
                                        northeast: LocationCoordinate2D(latitude: n, longitude: e))
        }
        do { return try CameraBounds.default.updated(with: o) } catch { throw c.error(error.description) }
    }

    static func duration(_ c: JSONCursor, what: String = "duration") throws(InputError) -> Double {
        let d = try c.double()
        guard d >= 0 else { throw c.error("\(what) must not be negative, found \(d)") }
        guard d <= maxDuration else { throw c.error("\(what) \(d) s is longer than the limit of \(maxDuration) s") }
        return d
    }

    /// A Curve: a name, `[x1, y1, x2, y2]`, or `{"spring": {"dampingRatio": d}}`.
    public static func curve(_ c: JSONCursor) throws(InputError) -> AnimationCurve {
        if c.isString {
            let name = try c.string()
            guard let named = AnimationCurve(name: name) else {
                let known = AnimationCurve.named.map(\.name).joined(separator: ", ")
                throw c.error("unknown curve '\(name)' (known: \(known), [x1, y1, x2, y2], {\"spring\": {\"dampingRatio\": d}})")
            }
            return named
        }
        if c.isArray {
            let items = try c.elements()
            guard items.count == 4 else { throw c.error("a Bézier curve is [x1, y1, x2, y2]") }
            let x1 = try items[0].double(in: 0...1, what: "x1"), y1 = try items[1].double(in: -10...10, what: "y1")
            let x2 = try items[2].double(in: 0...1, what: "x2"), y2 = try items[3].double(in: -10...10, what: "y2")
            return .bezier(x1, y1, x2, y2)
        }
        guard c.isObject else { throw c.error("expected a curve (name, [x1, y1, x2, y2] or {\"spring\": …}), found \(c.node.typeDescription)") }
        try c.rejectUnknownKeys(["spring"], what: "curve kind")
        let s = try c.required("spring")
        try s.rejectUnknownKeys(["dampingRatio"])
        let d = try s.required("dampingRatio").double(in: 0.01...100, what: "dampingRatio")
        return .spring(dampingRatio: d)
    }

    static let stepNames: Set<String> = ["set", "wait", "ease", "fly", "animate", "parallel", "cancel", "control", "viewport", "gesture", "at", "do"]

    static func step(_ c: JSONCursor) throws(InputError) -> FlightStep {
        guard c.isObject else { throw c.error("a step must be an object such as {\"ease\": {…}}, found \(c.node.typeDescription)") }
        let members = try c.members()
        guard members.count == 1, let (name, body) = members.first else {
            if members.contains(where: { $0.key == "at" }) {
                throw c.error("an {\"at\": s, \"do\": step} step is only allowed inside \"parallel\"")
            }
            throw c.error("a step must have exactly one key (the step name), found \(members.count): \(members.map(\.key).joined(separator: ", "))")
        }
        switch name {
        case "set":
            return .set(try camera(body))
        case "wait":
            return .wait(try duration(body, what: "wait"))
        case "ease":
            try body.rejectUnknownKeys(["to", "duration", "curve"])
            return .ease(to: try camera(try body.required("to")),
                         duration: try body.member("duration").map { (v: JSONCursor) throws(InputError) in try duration(v) } ?? 0.5,
                         curve: try body.member("curve").map { (v: JSONCursor) throws(InputError) in try curve(v) } ?? .easeOut)
        case "fly":
            try body.rejectUnknownKeys(["to", "duration", "curve", "maxDuration", "minZoom"])
            return .fly(to: try camera(try body.required("to")),
                        duration: try body.member("duration").map { (v: JSONCursor) throws(InputError) in try duration(v) },
                        curve: try body.member("curve").map { (v: JSONCursor) throws(InputError) in try curve(v) } ?? .bezier(0, 0, 0.42, 1),
                        maxDuration: try body.member("maxDuration").map { (v: JSONCursor) throws(InputError) in try duration(v, what: "maxDuration") },
                        minZoom: try body.member("minZoom").map { (v: JSONCursor) throws(InputError) in try v.double(in: -5...30, what: "minZoom") })
        case "animate":
            try body.rejectUnknownKeys(["duration", "curve", "from", "to", "delay", "owner", "reversed", "id", "shortestBearing"])
            let owner = try body.member("owner").map { (v: JSONCursor) throws(InputError) in try v.string() } ?? AnimationOwner.unspecified.rawValue
            return .animate(AnimateStep(
                duration: try duration(try body.required("duration")),
                curve: try body.member("curve").map { (v: JSONCursor) throws(InputError) in try curve(v) } ?? .easeInOut,
                from: try body.member("from").map { (v: JSONCursor) throws(InputError) in try camera(v) } ?? CameraOptions(),
                to: try camera(try body.required("to")),
                delay: try body.member("delay").map { (v: JSONCursor) throws(InputError) in try duration(v, what: "delay") } ?? 0,
                owner: AnimationOwner(rawValue: owner),
                reversed: try body.member("reversed")?.bool() ?? false,
                id: try body.member("id")?.string(),
                shortestBearing: try body.member("shortestBearing")?.bool() ?? true))
        case "parallel":
            var children: [(at: Double, step: FlightStep)] = []
            for item in try body.elements() {
                if item.isObject, let at = try item.member("at") {
                    try item.rejectUnknownKeys(["at", "do"])
                    children.append((try duration(at, what: "at"), try step(try item.required("do"))))
                } else {
                    children.append((0, try step(item)))
                }
            }
            return .parallel(children)
        case "cancel":
            try body.rejectUnknownKeys(["owners"])
            let owners = try body.member("owners").map { (v: JSONCursor) throws(InputError) in
                try v.elements().map { (o: JSONCursor) throws(InputError) in AnimationOwner(rawValue: try o.string()) }
            }
            return .cancel(owners: owners)
        case "control":
            try body.rejectUnknownKeys(["id", "do", "fraction"])
            let id = try body.required("id").string()
            let actionCursor = try body.required("do")
            let action: AnimatorControl
            switch try actionCursor.string() {
            case "pause": action = .pause
            case "resume": action = .resume
            case "reverse": action = .reverse
            case "stop": action = .stop
            case "scrub": action = .scrub(try body.required("fraction").double(in: 0...1, what: "fraction"))
            case let other: throw actionCursor.error("unknown control '\(other)' (known: pause, resume, reverse, scrub, stop)")
            }
            return .control(id: id, action: action)
        case "viewport":
            try body.rejectUnknownKeys(["state", "transition", "hold"])
            return .viewport(state: try viewportState(try body.required("state")),
                             transition: try body.member("transition").map { (v: JSONCursor) throws(InputError) in try viewportTransition(v) } ?? .default(maxDuration: 3.5),
                             hold: try body.member("hold").map { (v: JSONCursor) throws(InputError) in try duration(v, what: "hold") } ?? 0)
        case "gesture":
            return .gesture(try gesture(body))
        default:
            throw c.error("unknown step '\(name)' (known: set, wait, ease, fly, animate, parallel, cancel, control, viewport, gesture)")
        }
    }
}

extension FlightScriptParser {
    static func location(_ c: JSONCursor, file: String) throws(InputError) -> LocationSpec {
        try c.rejectUnknownKeys(["track", "speed", "loop", "mode", "puckBearing", "puck3D"])
        let trackCursor = try c.required("track")
        let reference = try trackCursor.string()
        let directory = file.lastIndex(of: "/").map { String(file[..<$0]) }
        let track: Track
        do {
            track = try TrackFile.load(reference, relativeTo: directory)
        } catch {
            throw trackCursor.error("").referring(to: error)
        }
        let speed = try c.member("speed")?.double(in: 0.001...1000, what: "speed") ?? 1
        let loop = try c.member("loop")?.bool() ?? false
        var mode = PuckInterpolationMode.mapboxDefault
        if let m = try c.member("mode") {
            switch try m.string() {
            case "default": mode = .mapboxDefault
            case "predictive": mode = .predictive()
            case let other: throw m.error("unknown puck mode '\(other)' (known: default, predictive)")
            }
        }
        var bearing = PuckBearing.course
        if let b = try c.member("puckBearing") {
            guard let v = PuckBearing(rawValue: try b.string()) else { throw b.error("puckBearing must be \"course\" or \"heading\"") }
            bearing = v
        }
        let puck3D = try c.member("puck3D").map { v throws(InputError) in try Puck3DParser.parse(v, file: file) }
        return LocationSpec(track: track, speed: speed, loop: loop, mode: mode, puckBearing: bearing, puck3D: puck3D)
    }

    /// A point `[x, y]` in screen points.
    static func point(_ c: JSONCursor) throws(InputError) -> ScreenPoint {
        let (x, y) = try c.pair()
        guard abs(x) < 1e6 && abs(y) < 1e6 else { throw c.error("point is too far off screen") }
        return ScreenPoint(x: x, y: y)
    }

    static func viewportState(_ c: JSONCursor) throws(InputError) -> ViewportStateDescriptor {
        if c.isString {
            switch try c.string() {
            case "idle": return .idle
            case "styleDefault": return .styleDefault
            case let other: throw c.error("unknown viewport state '\(other)' (known: idle, styleDefault, {camera}, {overview}, {followPuck})")
            }
        }
        try c.rejectUnknownKeys(["camera", "overview", "followPuck"], what: "viewport state")
        if let v = try c.member("camera") { return .camera(try camera(v)) }
        if let v = try c.member("overview") {
            try v.rejectUnknownKeys(["geometry", "geometryPadding", "bearing", "pitch", "maxZoom", "animationDuration", "padding", "offset"])
            let g = try v.required("geometry")
            var geometry: Geometry?
            if g.isString {
                guard try g.string() == "track" else { throw g.error("geometry must be a GeoJSON geometry or \"track\"") }
            } else {
                let parsed = try GeoJSON.parse(g)
                guard parsed.features.count == 1, let first = parsed.features.first else {
                    throw g.error("geometry must be one GeoJSON geometry or \"track\"")
                }
                geometry = first.geometry
            }
            let options = OverviewViewportStateOptions(
                geometry: geometry ?? .multiPoint([]),
                geometryPadding: try v.member("geometryPadding").map { (p: JSONCursor) throws(InputError) in try padding(p) } ?? .zero,
                bearing: try v.member("bearing")?.double(in: -1e6...1e6, what: "bearing") ?? 0,
                pitch: try v.member("pitch")?.double(in: 0...90, what: "pitch") ?? 0,
                padding: try v.member("padding").map { (p: JSONCursor) throws(InputError) in try padding(p) },
                maxZoom: try v.member("maxZoom")?.double(in: -5...30, what: "maxZoom"),
                offset: try v.member("offset").map { (p: JSONCursor) throws(InputError) in try point(p) },
                animationDuration: try v.member("animationDuration").map { (d: JSONCursor) throws(InputError) in try duration(d, what: "animationDuration") } ?? 1)
            return .overview(options)
        }
        let v = try c.required("followPuck")
        try v.rejectUnknownKeys(["zoom", "bearing", "pitch", "padding"])
        var o = FollowPuckViewportStateOptions()
        // An explicit null leaves that field to the user (Mapbox: a nil option is never written).
        if let z = try v.member("zoom") { o.zoom = z.node.isNull ? nil : try z.double(in: -5...30, what: "zoom") }
        if let p = try v.member("pitch") { o.pitch = p.node.isNull ? nil : try p.double(in: 0...90, what: "pitch") }
        if let p = try v.member("padding") { o.padding = p.node.isNull ? nil : try padding(p) }
        if let b = try v.member("bearing") {
            if b.node.isNull { o.bearing = nil }
            else if b.isNumber { o.bearing = .constant(try b.double(in: -1e6...1e6, what: "bearing")) }
            else {
                switch try b.string() {
                case "heading": o.bearing = .heading
                case "course": o.bearing = .course
                case let other: throw b.error("bearing must be \"heading\", \"course\" or degrees, found '\(other)'")
                }
            }
        }
        return .followPuck(o)
    }

    static func viewportTransition(_ c: JSONCursor) throws(InputError) -> ViewportTransitionDescriptor {
        if c.isString {
            switch try c.string() {
            case "default": return .default(maxDuration: 3.5)
            case "immediate": return .immediate
            case let other: throw c.error("unknown transition '\(other)' (known: default, immediate, {default}, {fly}, {ease})")
            }
        }
        try c.rejectUnknownKeys(["default", "fly", "ease"], what: "transition")
        if let v = try c.member("default") {
            try v.rejectUnknownKeys(["maxDuration"])
            return .default(maxDuration: try v.member("maxDuration").map { (d: JSONCursor) throws(InputError) in try duration(d, what: "maxDuration") } ?? 3.5)
        }
        if let v = try c.member("fly") {
            try v.rejectUnknownKeys(["duration"])
            return .fly(duration: try v.member("duration").map { (d: JSONCursor) throws(InputError) in try duration(d) })
        }
        let v = try c.required("ease")
        try v.rejectUnknownKeys(["duration", "curve"])
        return .ease(duration: try v.member("duration").map { (d: JSONCursor) throws(InputError) in try duration(d) } ?? 1,
                     curve: try v.member("curve").map { (d: JSONCursor) throws(InputError) in try curve(d) } ?? .easeInOut)
    }

    static func gesture(_ c: JSONCursor) throws(InputError) -> GestureSpec {
        guard c.isObject else { throw c.error("a gesture is an object such as {\"pan\": {…}}") }
        let members = try c.members()
        guard members.count == 1, let (name, g) = members.first else { throw c.error("a gesture must have exactly one key (its kind)") }
        func d() throws(InputError) -> Double { try duration(try g.required("duration")) }
        switch name {
        case "pan":
            try g.rejectUnknownKeys(["from", "to", "duration"])
            return .pan(from: try point(try g.required("from")), to: try point(try g.required("to")), duration: try d())
        case "pinch":
            try g.rejectUnknownKeys(["at", "scale", "duration"])
            return .pinch(at: try point(try g.required("at")), scale: try g.required("scale").double(in: 0.001...1000, what: "scale"), duration: try d())
        case "rotate":
            try g.rejectUnknownKeys(["at", "degrees", "duration"])
            return .rotate(at: try point(try g.required("at")), degrees: try g.required("degrees").double(in: -3600...3600, what: "degrees"), duration: try d())
        case "pitch":
            try g.rejectUnknownKeys(["degrees", "duration"])
            return .pitch(degrees: try g.required("degrees").double(in: -90...90, what: "degrees"), duration: try d())
        case "doubleTap":
            try g.rejectUnknownKeys(["at"])
            return .doubleTap(at: try point(try g.required("at")))
        case "twoFingerTap":
            try g.rejectUnknownKeys(["at"])
            return .twoFingerTap(at: try point(try g.required("at")))
        case "quickZoom":
            try g.rejectUnknownKeys(["at", "dy", "duration"])
            return .quickZoom(at: try point(try g.required("at")), dy: try g.required("dy").double(in: -1e5...1e5, what: "dy"), duration: try d())
        default:
            throw c.error("unknown gesture '\(name)' (known: pan, pinch, rotate, pitch, doubleTap, twoFingerTap, quickZoom)")
        }
    }
}
