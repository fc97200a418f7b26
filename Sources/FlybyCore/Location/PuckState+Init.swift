extension PuckState {
    /// The puck showing one fix as it is, with no interpolation (for renderers, tests and hosts
    /// that draw a puck without a ``PuckInterpolator``): its coordinate, course, heading and
    /// accuracy (metres).
    public init(location: Location) {
        self.init(coordinate: location.coordinate, course: location.course, heading: location.heading,
                  horizontalAccuracy: location.horizontalAccuracy, location: location)
    }
}
