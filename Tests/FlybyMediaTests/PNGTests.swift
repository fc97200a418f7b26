import Testing
@testable import FlybyMedia
