// swift-tools-version:6.0
// An outside package that uses AUHost as a library: see main.swift.
import PackageDescription

let package = Package(
    name: "PlayLive",
    dependencies: [.package(name: "AUHost", path: "../..")],
    targets: [.executableTarget(name: "PlayLive", dependencies: [.product(name: "AUHost", package: "AUHost")])]
)
