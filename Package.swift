// swift-tools-version:6.0
//
// AUHost: Core Audio's Audio Unit hosting model on Linux.
// No outside packages: the standard library, Foundation, Dispatch, Synchronization,
// Swift Testing, and C libraries from Debian through system-library targets.

import PackageDescription

/// A C library from a Debian package, found through pkg-config.
func systemLibrary(_ name: String, pkgConfig: String, debian: String) -> Target {
    .systemLibrary(
        name: name,
        path: "Sources/\(name)",
        pkgConfig: pkgConfig,
        providers: [.apt([debian])]
    )
}

let package = Package(
    name: "AUHost",
    products: [
        .executable(name: "auhost", targets: ["auhost"]),
        .library(name: "AUCore", targets: ["AUCore"]),
        .library(name: "AUEngine", targets: ["AUEngine"]),
    ],
    targets: [
        // C libraries.
        systemLibrary("CLilv", pkgConfig: "lilv-0", debian: "liblilv-dev"),
        systemLibrary("CJack", pkgConfig: "jack", debian: "libjack-jackd2-dev"),
        systemLibrary("CSndfile", pkgConfig: "sndfile", debian: "libsndfile1-dev"),
        systemLibrary("CSamplerate", pkgConfig: "samplerate", debian: "libsamplerate0-dev"),
        // What Swift cannot do by itself: thread-local render marks, FTZ/DAZ, variadic wrappers.
        .target(name: "CAUSupport", path: "Sources/CAUSupport"),

        // The Audio Unit model and the real-time primitives. Imports no C library but CAUSupport.
        .target(name: "AUCore", dependencies: ["CAUSupport"]),
        // Built-in units and (later) the graph and renderer.
        .target(name: "AUEngine", dependencies: ["AUCore"]),
        // The registry assembled over every backend, and the command implementations.
        .target(name: "AUHostKit", dependencies: ["AUCore", "AUEngine"]),
        .executableTarget(name: "auhost", dependencies: ["AUHostKit"]),

        .testTarget(name: "AUCoreTests", dependencies: ["AUCore", "AUEngine"]),
        .testTarget(name: "AUHostKitTests", dependencies: ["AUHostKit"]),
    ]
)
