import FlybyData
import Foundation

/// Reports images that symbol layers name but neither the sprite nor ``MapRenderer/addImage(name:image:)``
/// provides: MapLibre's `styleimagemissing` event, as a warning once per name (a missing icon is
/// never an error and never silent). The symbol is placed without its icon (its text still shows).
public struct MissingImageReport: Sendable {
    /// Called once per missing name, from the thread that places symbols. The default writes
    /// `flyby: warning: …` to standard error.
    public var handler: @Sendable (String) -> Void = MissingImageReport.warnOnStandardError
    /// The names already reported (at most ``maximumNames`` are remembered and reported).
    public private(set) var reported: Set<String> = []
    /// Most distinct names reported: a style whose `icon-image` reads arbitrary feature
    /// properties could otherwise name one image per feature.
    public static let maximumNames = 1000

    public init() {}

    /// Reports `name` the first time it is seen.
    mutating func report(_ name: String) {
        guard !reported.contains(name), reported.count < MissingImageReport.maximumNames else { return }
        reported.insert(name)
        handler(name)
    }

    /// Writes one warning line naming the image to standard error.
    public static let warnOnStandardError: @Sendable (String) -> Void = { name in
        let line = "flyby: warning: the style names the image '\(InputError.escaped(name))', which the sprite does not have (styleimagemissing); drawn without it\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
