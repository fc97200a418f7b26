import FlybyCore
import FlybyMaps
import Testing

/// `mapboxMap.elevation(at:)` and the camera kept above the terrain of a style with `terrain`.
@Suite struct TerrainCameraTests {
    static let jacksboro = LocationCoordinate2D(latitude: 36.5896, longitude: -84.2458)

    @Test func aTerrainStyleAnswersElevationAndAFlatOneDoesNot() throws {
        let v = try MapView(frame: ScreenSize(width: 640, height: 360),
                            mapInitOptions: MapInitOptions(cameraOptions: CameraOptions(center: Self.jacksboro, zoom: 12), styleURI: .jacksboroTerrain))
        let e = try #require(v.mapboxMap.elevation(at: Self.jacksboro))
        #expect(e > 2 * 236 - 1 && e < 2 * 1076 + 1, "exaggerated twice: \(e) m")
        v.mapboxMap.loadStyle(.world)
        #expect(v.mapboxMap.elevation(at: Self.jacksboro) == nil, "the terrain goes with its style")
    }

    @Test func theEyeStaysAboveTheRidgesWhenTheCameraIsSetLowAndPitched() throws {
        let v = try MapView(frame: ScreenSize(width: 640, height: 360),
                            mapInitOptions: MapInitOptions(cameraOptions: CameraOptions(center: Self.jacksboro, zoom: 12), styleURI: .jacksboroTerrain))
        let terrain = try #require(v.mapboxMap.map.terrain)
        // Zoom 17.5 pitched 85° from twelve bearings at four places along the fault: the eye
        // would be some 15 m above the centre, below the ground behind it on the slopes.
        var moved = 0
        for (k, bearing) in stride(from: 0.0, to: 360, by: 30).enumerated() {
            let centre = LocationCoordinate2D(latitude: Self.jacksboro.latitude + Double(k % 4) * 0.01,
                                              longitude: Self.jacksboro.longitude + Double(k % 4) * 0.015)
            v.mapboxMap.setCamera(to: CameraOptions(center: centre, zoom: 12, bearing: 0, pitch: 0))
            v.mapboxMap.setCamera(to: CameraOptions(zoom: 17.5, bearing: bearing, pitch: 85))
            let camera = v.mapboxMap.cameraState
            let eye = terrain.eye(of: camera, size: v.mapboxMap.size)
            let ground = terrain.height(at: eye.coordinate)
            #expect(eye.altitude >= ground + terrain.clearance - 1e-6, "bearing \(bearing): eye \(eye.altitude) m over ground \(ground) m")
            #expect(camera.center == centre, "it still looks at the same centre")
            if camera.pitch < 85 || camera.zoom < 17.5 { moved += 1 }
        }
        #expect(moved > 0, "some of the cameras were under the ground and were moved")
    }
}
