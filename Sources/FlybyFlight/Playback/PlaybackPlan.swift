import FlybyCore
import FlybyRender

/// Every frame of a playback, computed before any pixel is drawn: the camera and puck of frame n
/// at exactly t = n / fps seconds, plus the trace record of that frame.
///
/// The simulation always runs from t = 0 over the whole flight (it is cheap next to rendering),
/// so a range of frames renders exactly as the same frames of a full run.
public struct PlaybackPlan: Sendable {
    /// Output frames per second.
    public var fps: Double
    /// Frame width and height in pixels.
    public var width: Int, height: Int
    /// The style the frames are drawn in (as given by the flight or trace).
    public var style: String
    /// One record per output frame, frame 0 first (the trace of the rendered flight).
    public var records: [FrameRecord]
    /// The puck of each frame (nil where no location track is active).
    public var pucks: [PuckState?]
    /// Draw the puck as this 3D model (the flight's `location.puck3D` or the trace header's
    /// `puck3D`); nil: the 2D puck.
    public var puck3D: Puck3D? = nil

    /// Number of frames of the whole flight.
    public var frameCount: Int { records.count }

    /// Runs a flight at `fps` (the camera path is time-based, so a different rate samples the
    /// same path at different instants) and `size` (viewport fits depend on it).
    /// - Parameters:
    ///   - startCamera: the style's default camera (the flight's `camera` fields are applied over it).
    ///   - fps: output frames per second (> 0); nil keeps the script's.
    ///   - size: frame size in pixels; nil keeps the script's.
    ///   - frameLimit: a flight longer than this many frames is an error (``FlightLimitError``);
    ///     the default, 1 080 000, is ten hours at 30 fps.
    ///   - terrain: the style's terrain (``StyleResolver/terrain(of:)``), nil for a flat map.
    public static func flight(_ script: FlightScript, startCamera: CameraState, fps: Double? = nil,
                              size: (width: Int, height: Int)? = nil, style: String? = nil,
                              frameLimit: Int = 1_080_000, terrain: TerrainElevation? = nil) throws -> PlaybackPlan {
        var s = script
        if let fps { s.fps = fps }
        if let size { s.size = ScreenSize(width: Double(size.width), height: Double(size.height)) }
        let runner = FlightRunner(script: s, startCamera: startCamera, terrain: terrain)
        var records: [FrameRecord] = []
        var pucks: [PuckState?] = []
        try runner.run(frameLimit: frameLimit) { r in
            records.append(r)
            pucks.append(runner.simulation.location?.puck)
        }
        return PlaybackPlan(fps: s.fps, width: Int(s.size.width), height: Int(s.size.height), style: style ?? s.style,
                            records: records, pucks: pucks, puck3D: s.location?.puck3D)
    }

    /// Plays a recorded trace. At the trace's own rate the recorded frames are used as they are.
    /// At another rate, frame n (t = n / fps) is interpolated between the two recorded frames
    /// around t by their `t` values: centre, zoom, pitch, padding and the eye's `altitude` linearly, longitude and
    /// bearing the short way round; the viewport status is the earlier frame's, and each
    /// recorded frame's events go to the first output frame at or after its time. The output
    /// has floor(T · fps) + 1 frames, T the last recorded time.
    public static func trace(_ trace: Trace, fps: Double? = nil, size: (width: Int, height: Int)? = nil,
                             style: String? = nil) -> PlaybackPlan {
        let w = size?.width ?? Int(trace.size.width), h = size?.height ?? Int(trace.size.height)
        let outFPS = fps ?? trace.fps
        let frames = trace.frames
        func puck(_ r: FrameRecord) -> PuckState? { r.puck?.puckState(at: r.t) }
        if outFPS == trace.fps || frames.count < 2 {
            var records = frames
            for i in records.indices { records[i].frame = i; records[i].t = Double(i) / outFPS }
            return PlaybackPlan(fps: outFPS, width: w, height: h, style: style ?? trace.style, records: records,
                                pucks: frames.map(puck), puck3D: trace.puck3D)
        }
        let last = frames[frames.count - 1].t
        let count = Int((last * outFPS + 1e-9).rounded(.down)) + 1
        var records: [FrameRecord] = []
        var pucks: [PuckState?] = []
        records.reserveCapacity(count)
        var j = 0  // frames[j].t <= t < frames[j + 1].t
        var nextEvent = 0  // first recorded frame whose events are not yet placed
        for n in 0..<count {
            let t = Double(n) / outFPS
            while j + 2 < frames.count && frames[j + 1].t <= t { j += 1 }
            let a = frames[j], b = frames[j + 1]
            let f = b.t > a.t ? min(max((t - a.t) / (b.t - a.t), 0), 1) : 0
            var events: [String] = []
            while nextEvent < frames.count && frames[nextEvent].t <= t + 1e-9 {
                events += frames[nextEvent].events
                nextEvent += 1
            }
            if n == count - 1 { while nextEvent < frames.count { events += frames[nextEvent].events; nextEvent += 1 } }
            let camera = interpolate(a.camera, b.camera, f)
            // Both pucks: interpolated; else the nearer frame's puck as it is (its bearing written as 0 when missing).
            var p: TracePuck?, shown: PuckState?
            if let pa = a.puck, let pb = b.puck {
                p = TracePuck(longitude: lerpAngle(pa.longitude, pb.longitude, f, signed: true),
                              latitude: lerp(pa.latitude, pb.latitude, f),
                              bearing: lerpAngle(pa.bearing ?? 0, pb.bearing ?? 0, f, signed: false))
                shown = p?.puckState(at: t)
            } else {
                let nearest = f < 0.5 ? a : b
                shown = puck(nearest)
                p = nearest.puck.map { TracePuck(longitude: $0.longitude, latitude: $0.latitude, bearing: $0.bearing ?? 0) }
            }
            // The eye's altitude over terrain (metres): interpolated when both frames have it, else the nearer frame's.
            let altitude: Double? = if let ha = a.altitude, let hb = b.altitude { lerp(ha, hb, f) } else { (f < 0.5 ? a : b).altitude }
            records.append(FrameRecord(frame: n, t: t, camera: camera, viewport: a.viewport, puck: p, events: events, altitude: altitude))
            pucks.append(shown)
        }
        return PlaybackPlan(fps: outFPS, width: w, height: h, style: style ?? trace.style, records: records, pucks: pucks,
                            puck3D: trace.puck3D)
    }

    /// Linear interpolation of two cameras at fraction `f` ∈ [0, 1]; longitude and bearing
    /// take the shorter way round.
    public static func interpolate(_ a: CameraState, _ b: CameraState, _ f: Double) -> CameraState {
        if f <= 0 { return a }
        if f >= 1 { return b }
        var c = a
        c.center = LocationCoordinate2D(latitude: lerp(a.center.latitude, b.center.latitude, f),
                                        longitude: lerpAngle(a.center.longitude, b.center.longitude, f, signed: true))
        c.zoom = lerp(a.zoom, b.zoom, f)
        c.pitch = lerp(a.pitch, b.pitch, f)
        c.bearing = lerpAngle(a.bearing, b.bearing, f, signed: false)
        c.padding = EdgeInsets(top: lerp(a.padding.top, b.padding.top, f), left: lerp(a.padding.left, b.padding.left, f),
                               bottom: lerp(a.padding.bottom, b.padding.bottom, f), right: lerp(a.padding.right, b.padding.right, f))
        return c
    }
}

@inline(__always) func lerp(_ a: Double, _ b: Double, _ f: Double) -> Double { a + (b - a) * f }

/// Interpolates an angle in degrees the short way round, wrapped to [−180, 180) when
/// `signed` (longitudes) or [0, 360) otherwise (bearings).
func lerpAngle(_ a: Double, _ b: Double, _ f: Double, signed: Bool) -> Double {
    var d = (b - a).truncatingRemainder(dividingBy: 360)
    if d > 180 { d -= 360 } else if d < -180 { d += 360 }
    var v = (a + d * f).truncatingRemainder(dividingBy: 360)
    if v < 0 { v += 360 }
    if signed && v >= 180 { v -= 360 }
    return v
}
