/// The scaffolded package's own test: `auhost validate` on the unit it builds
/// (docs/VALIDATE.md), so that `swift test` in the unit's CI is auval for it.
extension UnitTemplate {
    /// The test file's path in the package.
    var validateTestPath: String { "Tests/\(name)Tests/ValidateTests.swift" }

    /// The test: runs `auhost validate` (the `auhost` on PATH, or AUHOST) over the library
    /// built beside the test bundle, under `timeout` (10 minutes), and fails with its report.
    var validateTestSource: String {
        let paddedSubtype = subtype.padding(toLength: 4, withPad: " ", startingAt: 0)
        return """
            import Foundation
            import Testing

            /// `auhost validate` (auval and pluginval for AUHost units) on this unit, built beside
            /// this test: `swift build && swift test`. AUHOST names the auhost to use (else PATH's);
            /// AUHOST_VALIDATE_STRICTNESS the strictness (default 5; 10 is everything).
            @Test func theUnitPassesAuhostValidate() throws {
                let environment = ProcessInfo.processInfo.environment
                let built = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["timeout", "600", environment["AUHOST"] ?? "auhost", "validate", "\(type):\(paddedSubtype):\(manufacturer)",
                                     "--strictness", environment["AUHOST_VALIDATE_STRICTNESS"] ?? "5", "--seed", "1"]
                process.environment = environment.merging(["AUHOST_PLUGIN_PATH": built.path]) { $1 }
                let output = Pipe()
                process.standardOutput = output
                process.standardError = output
                try process.run()
                let report = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "\\(String(decoding: report, as: UTF8.self))")
            }

            """
    }
}
