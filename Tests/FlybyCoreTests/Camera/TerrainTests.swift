import FlybyCore
import FlybyTestSupport
import Testing

/// The camera on 3D terrain (issue 19 item 4): the eye never goes below the ground plus the
/// clearance, whatever moves the camera.
@Suite struct TerrainTests {
    /// A ridge 1,500 m high along the latitude 0.05°, 0.04° wide at its foot, on flat ground at 200 m.
    static let ridge = Terrain(clearance: 50) { c in
        let d = abs(c.latitude - 0.05)
        return 200 + max(0, 1 - d / 0.02) * 1300
    }
    static let size = ScreenSize(width: 800, height: 600)

    /// Metres the eye of `state` is above the ground under it, less the clearance (≥ 0: clear).
    static func margin(_ state: CameraState, _ terrain: Terrain = ridge) -> Double {
        let eye = terrain.eye(of: state, size: size)
        return eye.altitude - terrain.height(at: eye.coordinate) - terrain.clearance
    }

    @Test func theEyeOfAStraightDownCameraIsAboveTheCentreAtItsDistance() {
        let flat = Terrain { _ in 100 }
        let state = CameraState(center: .init(latitude: 10, longitude: 20), zoom: 12)
        let eye = flat.eye(of: state, size: Self.size)
        let distance = MapTransform(size: Self.size, state: state).cameraDistance
            * WebMercator.metersPerPoint(latitude: 10, zoom: 12)
        #expect(abs(eye.coordinate.latitude - 10) < 1e-12 && abs(eye.coordinate.longitude - 20) < 1e-12)
        #expect(abs(eye.altitude - (100 + distance)) < 1e-6)
    }

    @Test func aPitchedEyeIsBehindTheCentreOppositeTheBearing() {
        let flat = Terrain { _ in 0 }
        let north = flat.eye(of: CameraState(center: .init(latitude: 0, longitude: 0), zoom: 12, pitch: 60), size: Self.size)
        #expect(north.coordinate.latitude < -0.01 && abs(north.coordinate.longitude) < 1e-9, "looking north, the eye is south")
        let east = flat.eye(of: CameraState(center: .init(latitude: 0, longitude: 0), zoom: 12, bearing: 90, pitch: 60), size: Self.size)
        #expect(east.coordinate.longitude < -0.01 && abs(east.coordinate.latitude) < 1e-9, "looking east, the eye is west")
    }

    @Test func aClearCameraIsLeftBitForBit() {
        let state = CameraState(center: .init(latitude: 0.3, longitude: 0), zoom: 11.37, bearing: 12.5, pitch: 33.3)
        #expect(Self.margin(state) > 0)
        #expect(Self.ridge.constrain(state, size: Self.size) == state)
        #expect(Self.ridge.constrain(state, from: state, size: Self.size) == state)
    }

    @Test func anEyeInsideTheRidgeIsLiftedToTheClearanceLookingAtTheSameCentre() {
        // Looking north at 75° from just north of the ridge: the eye is over the ridge, low.
        let state = CameraState(center: .init(latitude: 0.075, longitude: 0), zoom: 15, bearing: 0, pitch: 75)
        #expect(Self.margin(state) < -300, "the eye starts inside the ridge (\(Self.margin(state)) m)")
        let lifted = Self.ridge.constrain(state, size: Self.size)
        #expect(abs(Self.margin(lifted)) < 1e-6, "the eye sits at the clearance (\(Self.margin(lifted)) m)")
        #expect(lifted.center == state.center && lifted.bearing == state.bearing)
        #expect(lifted.pitch < state.pitch && lifted.zoom < state.zoom)
        let before = Self.ridge.eye(of: state, size: Self.size).coordinate, after = Self.ridge.eye(of: lifted, size: Self.size).coordinate
        #expect(abs(before.latitude - after.latitude) < 1e-9 && abs(before.longitude - after.longitude) < 1e-9,
                "the eye keeps its horizontal place")
    }

    @Test func aPitchGestureTowardsTheRidgeStopsAtTheGround() {
        // Looking north from just north of the ridge: pitching moves the eye south, over the
        // ridge, and lower (it would be inside it from about 67°).
        let (sim, _) = makeSimulation(width: 800, height: 600, center: .init(latitude: 0.075, longitude: 0), zoom: 15, bearing: 0, pitch: 0)
        sim.mapboxMap.terrain = Self.ridge
        let zoom = sim.mapboxMap.cameraState.zoom
        sim.gestures.pitchBegan()
        var pitches: [Double] = []
        for step in 1...40 {
            sim.gestures.pitchChanged(translationY: -Double(step) * 4)   // 2° a step, to 80°
            pitches.append(sim.mapboxMap.cameraState.pitch)
            #expect(Self.margin(sim.mapboxMap.cameraState) > -1e-6)
        }
        sim.gestures.pitchEnded()
        #expect(sim.mapboxMap.cameraState.zoom == zoom, "the gesture did not pull the camera back")
        #expect(pitches.last! < 79, "the pitch stopped before 80° (\(pitches.last!))")
        #expect(pitches.last! > 55, "but not before the ground (\(pitches.last!))")
        #expect(zip(pitches, pitches.dropFirst()).allSatisfy { $0 <= $1 }, "the pitch never went back")
    }

    @Test func aFlightOverTheRidgeKeepsTheEyeAboveItEveryFrame() {
        let (sim, _) = makeSimulation(width: 800, height: 600, center: .init(latitude: -0.05, longitude: 0), zoom: 15, pitch: 70)
        sim.mapboxMap.terrain = Self.ridge
        sim.camera.ease(to: CameraOptions(center: .init(latitude: 0.15, longitude: 0)), duration: 4, curve: .linear)
        var lowest = Double.infinity, lifted = 0
        for _ in 0..<(4 * 60 + 2) {
            sim.tick()
            let state = sim.mapboxMap.cameraState
            lowest = min(lowest, Self.margin(state))
            if state.pitch < 70 - 1e-9 { lifted += 1 }
        }
        #expect(lowest > -1e-6, "the eye was \(-lowest) m too low")
        #expect(lifted > 10, "the camera rose over the ridge (\(lifted) frames lifted)")
        #expect(abs(sim.mapboxMap.cameraState.center.latitude - 0.15) < 1e-9, "the flight arrived where it was going")
    }

    @Test func withoutTerrainNothingChanges() {
        let (sim, _) = makeSimulation(center: .init(latitude: 0.075, longitude: 0), zoom: 15, pitch: 75)
        #expect(sim.mapboxMap.terrain == nil && sim.mapboxMap.eyeAltitude == nil)
        #expect(sim.mapboxMap.elevation(at: .init(latitude: 0, longitude: 0)) == nil)
        #expect(sim.mapboxMap.cameraState.pitch == 75)
    }

    @Test func elevationAtReadsTheTerrain() {
        let (sim, _) = makeSimulation(center: .init(latitude: 0.3, longitude: 0), zoom: 12)
        sim.mapboxMap.terrain = Self.ridge
        #expect(sim.mapboxMap.elevation(at: .init(latitude: 0.05, longitude: 3)) == 1500)
        #expect(sim.mapboxMap.elevation(at: .init(latitude: 1, longitude: 3)) == 200)
    }
}
