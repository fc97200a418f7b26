import Testing

@testable import FlybyCore

@Suite struct LocationGeodesyTests {
    @Test func oneDegreeOfLatitudeIsRTimesPiOver180() {
        let d = Geodesy.distance(from: .init(latitude: 0, longitude: 0), to: .init(latitude: 1, longitude: 0))
        #expect(abs(d - Geodesy.earthRadius * Double.pi / 180) < 1e-6)
    }

    @Test func initialBearingCardinalDirections() throws {
        let o = LocationCoordinate2D(latitude: 0, longitude: 0)
        #expect(abs(try #require(Geodesy.initialBearing(from: o, to: .init(latitude: 1, longitude: 0))) - 0) < 1e-9)
        #expect(abs(try #require(Geodesy.initialBearing(from: o, to: .init(latitude: 0, longitude: 1))) - 90) < 1e-9)
        #expect(abs(try #require(Geodesy.initialBearing(from: o, to: .init(latitude: -1, longitude: 0))) - 180) < 1e-9)
        #expect(abs(try #require(Geodesy.initialBearing(from: o, to: .init(latitude: 0, longitude: -1))) - 270) < 1e-9)
        #expect(Geodesy.initialBearing(from: o, to: o) == nil)
    }

    @Test func destinationInvertsDistanceAndBearing() throws {
        let a = LocationCoordinate2D(latitude: 60.17, longitude: 24.94)
        let b = Geodesy.destination(from: a, bearing: 37, distance: 1234)
        #expect(abs(Geodesy.distance(from: a, to: b) - 1234) < 1e-6)
        #expect(abs(try #require(Geodesy.initialBearing(from: a, to: b)) - 37) < 1e-9)
    }

    @Test func lerpTakesTheShortWayAcrossTheAntimeridian() {
        let m = Geodesy.lerp(.init(latitude: 0, longitude: 179), .init(latitude: 2, longitude: -179), 0.5)
        #expect(abs(m.latitude - 1) < 1e-12)
        #expect(m.longitude == -180)
    }
}
