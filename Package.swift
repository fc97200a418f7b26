// swift-tools-version:6.2
// Flyby: a camera animation and viewport simulation engine for maps, with a GPU-less renderer.
// Dependencies run one way: FlybyCore ← FlybyData ← FlybyRender ← FlybyFlight ← FlybyExport ← FlybyCLI ← flyby;
// FlybyExport (video export: flight or trace → frames → encoder) also sits on FlybyMedia;
// FlybyMaps (the Mapbox-shaped API) sits on Core, Data, Render and Media. FlybyMedia (PNG, JPEG,
// WebP, Y4M, ffmpeg) depends only on the C zlib, libwebp and libturbojpeg; the SDL window
// (FlybyWindow) sits on CSDL2, Flight and Media.
// FlybyTiles (vector tiles, PMTiles/MBTiles/folder archives) sits on FlybyData and the C zlib,
// SQLite, brotli and zstd libraries; FlybyRender draws tiled sources through it.
// Each library module is also a product of its own (docs/public-api.md).
import PackageDescription

/// Settings shared by every Swift target.
let swiftSettings: [SwiftSetting] = [
    // Makes imports explicit per file, so a module's dependencies are the ones it names.
    .enableUpcomingFeature("MemberImportVisibility"),
    // Extra invariant checks in debug builds only (compiled out of release builds).
    .define("FLYBY_INTERNAL_CHECKS", .when(configuration: .debug)),
]

/// The engine's release builds skip the run-time exclusivity checks: callgrind showed them at 27 %
/// of the instructions of a follow-puck tick (`swift_beginAccess` + TLS lookups). The compile-time
/// checks stay, and debug builds (the test suite) keep the run-time checks.
let engineSettings = swiftSettings + [
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

/// The Mapbox guide examples (issue 7): `swift run <name>` runs `Tools/Examples/<Folder>/main.swift`;
/// each is a thin command-line wrapper over its `FlybyExamples` enum, which the tests drive.
let examples: [(name: String, folder: String)] = [
    ("chained-camera-animators", "ChainedCameraAnimators"),
    ("annotations", "Annotations"),
    ("symbol-markers", "SymbolMarkers"),
    ("custom-rendered-layer", "CustomRenderedLayer"),
    ("declarative-map", "DeclarativeMap"),
    ("view-annotations", "ViewAnnotations"),
    ("interactive-points", "InteractivePoints"),
    ("featureset-interactions", "FeaturesetInteractions"),
]

let package = Package(
    name: "Flyby",
    products: [
        .library(name: "Flyby", targets: ["FlybyCore", "FlybyData", "FlybyRender", "FlybyFlight", "FlybyMedia", "FlybyMaps", "FlybyTiles",
                                          "FlybyExport"]),
        // One product per module, for a user who wants one alone (FlybyCore without the renderer).
        .library(name: "FlybyCore", targets: ["FlybyCore"]),
        .library(name: "FlybyData", targets: ["FlybyData"]),
        .library(name: "FlybyTiles", targets: ["FlybyTiles"]),
        .library(name: "FlybyRender", targets: ["FlybyRender"]),
        .library(name: "FlybyMedia", targets: ["FlybyMedia"]),
        .library(name: "FlybyFlight", targets: ["FlybyFlight"]),
        .library(name: "FlybyMaps", targets: ["FlybyMaps"]),
        .library(name: "FlybyExport", targets: ["FlybyExport"]),
        .library(name: "FlybyWindow", targets: ["FlybyWindow"]),
        .executable(name: "flyby", targets: ["flyby"]),
    ],
    targets: [
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Vector and raster tiles (issue 16): MBTiles through SQLite, PMTiles brotli and zstd compression.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CBrotli", pkgConfig: "libbrotlidec", providers: [.apt(["libbrotli-dev"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        // Raster tiles (issue 19): WebP through libwebp, JPEG through libturbojpeg.
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .target(name: "FlybyCore", swiftSettings: engineSettings),
        .target(name: "FlybyData", dependencies: ["FlybyCore"],
                resources: [.copy("Resources")], swiftSettings: swiftSettings),
        .target(name: "FlybyRender", dependencies: ["FlybyCore", "FlybyData", "FlybyTiles", "FlybyMedia"], swiftSettings: swiftSettings),
        .target(name: "FlybyMedia", dependencies: ["CZlib", "CWebP", "CTurboJPEG"], swiftSettings: swiftSettings),
        // Tile archives (PMTiles, MBTiles, folders) and the Mapbox Vector Tile decoder (issue 16).
        .target(name: "FlybyTiles", dependencies: ["FlybyCore", "FlybyData", "CZlib", "CSQLite", "CBrotli", "CZstd"],
                swiftSettings: swiftSettings),
        .target(name: "FlybyFlight", dependencies: ["FlybyCore", "FlybyData", "FlybyRender"],
                swiftSettings: engineSettings),
        // Video export (issue 15 item 2): a flight or trace rendered to MP4, GIF, Y4M or PNG frames in one call.
        .target(name: "FlybyExport", dependencies: ["FlybyCore", "FlybyData", "FlybyRender", "FlybyFlight", "FlybyMedia", "FlybyMaps"],
                swiftSettings: swiftSettings),
        // The Mapbox-shaped host API (`MapView`, `mapboxMap`, runtime styling, annotations), headless.
        .target(name: "FlybyMaps", dependencies: ["FlybyCore", "FlybyData", "FlybyRender", "FlybyMedia"],
                swiftSettings: swiftSettings),
        .systemLibrary(name: "CSDL2", pkgConfig: "sdl2", providers: [.apt(["libsdl2-dev"])]),
        .target(name: "FlybyWindow", dependencies: ["CSDL2", "FlybyCore", "FlybyData", "FlybyRender", "FlybyFlight", "FlybyMedia", "FlybyExport"],
                swiftSettings: swiftSettings),
        .target(name: "FlybyCLI", dependencies: ["FlybyCore", "FlybyData", "FlybyRender", "FlybyFlight", "FlybyMedia", "FlybyWindow", "FlybyTiles",
                                                 "FlybyExport"],
                swiftSettings: swiftSettings),
        // Release builds link the Swift runtime and Foundation into the executable (-static-stdlib):
        // resolving their ~7,000 symbols across 70 shared libraries was a third of the instructions
        // of `flyby tiles decode` on a z14 tile, and most of its start-up time (docs/benchmarks.md).
        .executableTarget(name: "flyby", dependencies: ["FlybyCLI"], swiftSettings: swiftSettings,
                          linkerSettings: [.unsafeFlags(["-static-stdlib", "-use-ld=lld", "-lFoundation", "-lCoreFoundation", "-lFoundationEssentials",
                                                          "-lFoundationInternationalization", "-l_FoundationCollections",
                                                          "-l_FoundationCShims", "-l_FoundationICU"],
                                                         .when(configuration: .release))]),

        // Fuzzing (issue 8): the parser entry points, and a runner that replays inputs (normal
        // build) or is driven by libFuzzer (`Tools/fuzz` builds it with -D FLYBY_LIBFUZZER).
        .target(name: "FlybyFuzzTargets", dependencies: ["FlybyCore", "FlybyData", "FlybyRender", "FlybyFlight", "FlybyTiles", "FlybyMedia"],
                path: "Tools/Fuzz/Targets", swiftSettings: swiftSettings),
        .executableTarget(name: "flyby-fuzz", dependencies: ["FlybyFuzzTargets"], path: "Tools/Fuzz/Runner",
                          swiftSettings: swiftSettings),

        .target(name: "FlybyTestSupport", dependencies: ["FlybyCore"], path: "Tests/FlybyTestSupport",
                swiftSettings: swiftSettings),
        .target(name: "FlybyExamples", dependencies: ["FlybyMaps", "FlybyCore", "FlybyData", "FlybyRender", "FlybyMedia"], path: "Tools/Examples/Library",
                swiftSettings: swiftSettings),
        .testTarget(name: "FlybyExamplesTests", dependencies: ["FlybyExamples", "FlybyMaps", "FlybyCore", "FlybyData", "FlybyRender", "FlybyTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "FlybyMapsTests", dependencies: ["FlybyMaps", "FlybyCore", "FlybyData", "FlybyRender", "FlybyTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "FlybyCoreTests", dependencies: ["FlybyCore", "FlybyTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "FlybyDataTests", dependencies: ["FlybyData", "FlybyTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "FlybyRenderTests", dependencies: ["FlybyRender", "FlybyTiles", "FlybyMedia", "FlybyTestSupport"],
                    exclude: ["Fixtures"], swiftSettings: swiftSettings),
        .testTarget(name: "FlybyCLITests", dependencies: ["FlybyCLI", "FlybyCore", "FlybyData", "FlybyFlight", "FlybyRender", "FlybyMedia",
                                                      "FlybyExport", "FlybyTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "FlybyExportTests", dependencies: ["FlybyExport", "FlybyFlight", "FlybyMedia", "FlybyCore", "FlybyData", "FlybyMaps", "FlybyRender", "FlybyTestSupport"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "FlybyMediaTests", dependencies: ["FlybyMedia", "FlybyTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "FlybyWindowTests", dependencies: ["FlybyWindow", "CSDL2", "FlybyCore", "FlybyData", "FlybyRender", "FlybyFlight",
                                                         "FlybyTestSupport"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "FlybyTilesTests", dependencies: ["FlybyTiles", "FlybyCore", "FlybyData", "CSQLite", "CZlib", "FlybyTestSupport"],
                    exclude: ["Fixtures"], swiftSettings: swiftSettings),
        .testTarget(name: "FlybyFlightTests", dependencies: ["FlybyFlight", "FlybyRender", "FlybyMedia", "FlybyCore", "FlybyData", "FlybyTestSupport", "FlybyFuzzTargets"],
                    swiftSettings: swiftSettings),
    ]
)

package.targets += examples.map { example in
    .executableTarget(name: example.name, dependencies: ["FlybyExamples", "FlybyMaps", "FlybyCore", "FlybyRender"], path: "Tools/Examples/\(example.folder)",
                      swiftSettings: swiftSettings)
}
