// swift-tools-version:6.0
//
// The AUHost SDK: what a native unit package builds against (docs/WRITING-UNITS.md), the
// AUPluginSDK library over the C ABI header and its vector loops. In the checkout its sources are links to
// Sources/; `make install` copies it, links resolved, to PREFIX/share/auhost/sdk, where
// packages made by `auhost new-unit` find it.

import PackageDescription

let package = Package(
    name: "AUHostSDK",
    products: [.library(name: "AUPluginSDK", targets: ["AUPluginSDK"])],
    targets: [
        // Header only: the versioned C ABI between the host and a native unit library.
        .target(name: "CAUPluginABI"),
        // Vector loops for native units, compiled for AVX2 and the baseline (AUPluginSDK's DSP).
        .target(name: "CAUPluginDSP"),
        // What a unit author imports: a Swift protocol and the export thunks to the C ABI.
        .target(name: "AUPluginSDK", dependencies: ["CAUPluginABI", "CAUPluginDSP"]),
    ]
)
