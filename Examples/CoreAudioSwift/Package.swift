// swift-tools-version:6.0
// Swift code written for Apple's SDK (AudioToolbox), built against AUHost's AudioToolbox product.
import PackageDescription

let package = Package(
    name: "CoreAudioSwift",
    dependencies: [.package(name: "AUHost", path: "../..")],
    targets: [
        .executableTarget(name: "CoreAudioSwift", dependencies: [.product(name: "AudioToolbox", package: "AUHost")]),
    ]
)
