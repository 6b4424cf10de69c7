import AUHostCLI
import Foundation
import Testing
import AUTestSupport

/// `auhost validate`'s command line: usage errors, test selection, reports for CI, the
/// cached verdict in `auhost list`.
@Suite struct ValidateCommandTests {
    @Test func badArgumentsAreOneLineAndStatus64() throws {
        for (arguments, message) in [
            (["validate"], "auhost: 'validate' needs a UNIT (or --all)"),
            (["validate", "aufx:gain:AUHs", "--strictness", "11"], "auhost: --strictness takes a whole number from 1 to 10, not '11'"),
            (["validate", "aufx:gain:AUHs", "--only", "["], "auhost: --only takes a regular expression, not '['"),
            (["validate", "aufx:gain:AUHs", "--block-sizes", "0,64"], "auhost: --block-sizes takes block sizes from 1 to 8192, separated by commas, not '0,64'"),
            (["validate", "aufx:gain:AUHs", "--only", "nothing-matches"], "auhost: no test is left at strictness 5 with --only and --skip"),
            (["validate", "aufx:gain:AUHs", "--format", "lv2"], "auhost: --type and --format choose units for --all"),
        ] {
            let run = try ValidateRun.run(arguments, plugins: nil)
            #expect(run.status == 64, "\(arguments): \(run.errors)")
            #expect(run.errors.split(separator: "\n").first.map(String.init) == message, "\(arguments): \(run.errors)")
        }
        let unknown = try ValidateRun.run(["validate", "aufx:nope:None"], plugins: nil)
        #expect(unknown.status == 1 && unknown.errors.hasPrefix("auhost: no unit 'aufx:nope:None'"), "\(unknown.errors)")
    }

    @Test func onlyAndSkipChooseTestsAndTheJUnitReportNamesEachOne() throws {
        let folder = try ValidateFixtures.build("WRONG_LATENCY")
        let report = folder.appendingPathComponent("report.xml")
        let run = try ValidateRun.run(
            ["validate", "aufx:vfix:Test", "--only", "^(latency|tail|info)$", "--skip", "^tail$", "--seed", "9", "--junit", report.path], plugins: folder)
        #expect(run.status == 1)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("  PASS  info ") }, "\(run.output)")
        #expect(lines.contains { $0.hasPrefix("  FAIL  latency ") && $0.hasSuffix("[seed 9]") }, "\(run.output)")
        #expect(!run.output.contains("tail "), "\(run.output)")
        #expect(lines.last?.hasPrefix("  2 tests, 1 passed, 0 warnings, 1 failed, 0 skipped (strictness 5, seed 9, ") == true, "\(run.output)")
        let xml = try String(contentsOf: report, encoding: .utf8)
        #expect(xml.contains(#"<testsuites name="auhost validate" tests="2" failures="1" skipped="0">"#), "\(xml)")
        let latency = try #require(xml.split(separator: "\n").first { $0.contains(#"name="latency""#) }, "\(xml)")
        #expect(latency.hasPrefix(#"    <testcase classname="aufx:vfix:Test" name="latency" time=""#), "\(latency)")
        #expect(latency.hasSuffix(#""><failure message="reports 0 frames of latency, an impulse comes out after 32"/></testcase>"#), "\(latency)")
        let json = try ValidateRun.run(["validate", "aufx:vfix:Test", "--only", "^latency$", "--seed", "9", "--json"], plugins: folder)
        let test = try #require((try json.units().first?["tests"] as? [[String: Any]])?.first)
        #expect((test["seconds"] as? Double).map { $0 > 0 } == true, "\(json.output)")
    }

    @Test func theVerdictIsCachedForListValidatedAndListJSON() throws {
        let folder = try ValidateFixtures.build("LONG_TAIL")
        let cache = try CLibraryFixtures.makeFolder("validate-own-cache")
        func run(_ arguments: [String]) throws -> ValidateRun.Outcome { try ValidateRun.run(arguments, plugins: folder, cache: cache) }
        let before = try run(["list", "Validator Fixture", "--validated"])
        #expect(before.output.hasSuffix("[not validated]\n"), "\(before.output)")
        _ = try run(["validate", "aufx:vfix:Test", "--only", "^tail$", "--strictness", "5"])
        let after = try run(["list", "Validator Fixture", "--validated"])
        #expect(after.output.hasSuffix("[validation failed at strictness 5: tail]\n"), "\(after.output)")
        let json = try run(["list", "Validator Fixture", "--json"])
        let units = try #require(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(units.first?["validation"] as? String == "failed at strictness 5: tail", "\(json.output)")
    }

    @Test func aScaffoldedUnitsPackageRunsAuhostValidateInItsTest() throws {
        let workspace = try CLibraryFixtures.makeFolder("validate-scaffold")
        let output = TextOutput(), errors = TextOutput()
        let status = AUHostCLI.run(
            ["new-unit", "Fuzz", "--type", "aufx", "--subtype", "fuzz", "--manufacturer", "Test", "--sdk", ScaffoldTests.repository.path, "--dir", workspace.path],
            output: output, errors: errors)
        #expect(status == 0, "\(errors.captured)")
        let package = workspace.appendingPathComponent("Fuzz")
        let manifest = try String(contentsOf: package.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains(#".testTarget(name: "FuzzTests", dependencies: ["Fuzz"])"#), "\(manifest)")
        let test = try String(contentsOf: package.appendingPathComponent("Tests/FuzzTests/ValidateTests.swift"), encoding: .utf8)
        #expect(test.contains(#""validate", "aufx:fuzz:Test""#) && test.contains("AUHOST_PLUGIN_PATH"), "\(test)")
        #expect(output.captured.contains("swift test"), "\(output.captured)")
    }
}
