// swift-tools-version:6.0
// An outside package that uses AUHost as a library: see main.swift.
import PackageDescription

let package = Package(
    name: "GraphToFile",
    dependencies: [.package(name: "AUHost", path: "../..")],
    targets: [.executableTarget(name: "GraphToFile", dependencies: [.product(name: "AUHost", package: "AUHost")])]
)
