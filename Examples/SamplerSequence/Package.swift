// swift-tools-version:6.0
// Seed 002's iOS Swift code (a MusicSequence played by a MusicPlayer into an AUSampler in an
// AUGraph), built against AUHost's AudioToolbox product (docs/AUDIOTOOLBOX.md).
import PackageDescription

let package = Package(
    name: "SamplerSequence",
    dependencies: [.package(name: "AUHost", path: "../..")],
    targets: [
        .executableTarget(
            name: "SamplerSequence", dependencies: [.product(name: "AudioToolbox", package: "AUHost")],
            swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)
