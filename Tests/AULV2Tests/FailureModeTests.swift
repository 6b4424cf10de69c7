import AUCore
import Foundation
import Testing
@testable import AULV2

/// Each failure-mode fixture gives a clear error naming the plugin, and the host survives.
@Suite struct FailureModeTests {
    static func components(_ fixtures: FixtureBundles) -> (components: [Component], problems: [DiscoveryProblem]) {
        LV2TestSupport.provider(path: fixtures.root.path).discoverComponents()
    }

    static func component(_ uri: String, in found: (components: [Component], problems: [DiscoveryProblem])) throws -> Component {
        try #require(found.components.first { $0.identifier == uri }, "\(uri) was not discovered")
    }

    @Test func fixtureLibraryWasBuilt() {
        #expect(FileManager.default.fileExists(atPath: FixtureBundles.fixtureLibrary.path), "build the LV2Fixtures product first")
    }

    @Test func workingFixtureRuns() throws {
        let fixtures = try FixtureBundles()
        defer { fixtures.remove() }
        let unit = try Self.component("urn:auhost:fixture:passthrough", in: Self.components(fixtures)).instantiate()
        try unit.initialize()
        var renderer = OfflineUnitRenderer(unit: unit, blockSize: 64)
        let output = try renderer.render(frameCount: 200) { _, _, frame in Float(frame) }
        let ramp: [Float] = (0..<200).map(Float.init)
        #expect(output[0][0] == ramp)
    }

    @Test func badTurtleIsADiscoveryProblem() throws {
        let fixtures = try FixtureBundles()
        defer { fixtures.remove() }
        let found = Self.components(fixtures)
        #expect(!found.components.contains { $0.identifier == "urn:auhost:fixture:bad-turtle" })
        let problem = try #require(found.problems.first { $0.message.contains("urn:auhost:fixture:bad-turtle") })
        // What serd printed, taken from standard error: the file, line and column, and why.
        #expect(problem.message.contains("plugin.ttl:4:"), "\(problem.message)")
        #expect(problem.message.contains("bad Turtle (line end in short string)"), "\(problem.message)")
        #expect(problem.location == fixtures.root.appendingPathComponent("bad-turtle.lv2").path)
        #expect(found.problems.filter { $0.location.hasSuffix("/bad-turtle.lv2") }.count == 1, "one problem for the bundle")
        // The other fixtures (all but the bad one) are still there.
        #expect(found.components.count == 11)
    }

    /// A manifest that is not Turtle: lilv skips the bundle, and discovery names the bundle
    /// and the place in its manifest (lilv and serd printed it, on standard error only).
    @Test func aGarbageManifestIsADiscoveryProblemNamingTheBundle() throws {
        let fixtures = try FixtureBundles()
        defer { fixtures.remove() }
        let found = Self.components(fixtures)
        let problems = found.problems.filter { $0.location == fixtures.root.appendingPathComponent("garbage-manifest.lv2").path }
        #expect(problems.count == 1, "\(found.problems)")
        let message = try #require(problems.first?.message)
        #expect(message.hasPrefix("manifest.ttl:4:") && message.contains("bad Turtle (") && message.hasSuffix("its plugins are skipped"), "\(message)")
    }

    @Test func missingBinaryIsNamed() throws {
        let fixtures = try FixtureBundles()
        defer { fixtures.remove() }
        let component = try Self.component("urn:auhost:fixture:missing-binary", in: Self.components(fixtures))
        #expect {
            _ = try component.instantiate()
        } throws: { error in
            let message = (error as? AudioUnitError)?.message ?? ""
            return message.contains("urn:auhost:fixture:missing-binary") && message.contains("missing.so") && message.contains("does not exist")
        }
    }

    @Test func missingRequiredFeatureIsNamed() throws {
        let fixtures = try FixtureBundles()
        defer { fixtures.remove() }
        let component = try Self.component("urn:auhost:fixture:needs-feature", in: Self.components(fixtures))
        #expect(component.requiredFeatures == ["urn:auhost:fixture:unobtainium"])
        #expect {
            _ = try component.instantiate()
        } throws: { error in
            let message = (error as? AudioUnitError)?.message ?? ""
            return message.contains("urn:auhost:fixture:needs-feature") && message.contains("urn:auhost:fixture:unobtainium")
        }
    }

    @Test func nullInstanceFailsInitialization() throws {
        let fixtures = try FixtureBundles()
        defer { fixtures.remove() }
        let unit = try Self.component("urn:auhost:fixture:null-instance", in: Self.components(fixtures)).instantiate()
        #expect {
            try unit.initialize()
        } throws: { error in
            let error = error as? AudioUnitError
            return error?.code == .failedInitialization && error?.message.contains("urn:auhost:fixture:null-instance") == true
                && error?.message.contains("returned NULL") == true
        }
        #expect(unit.state == .uninitialized)
    }

    /// The crashing plugin runs in a child `auhost probe-unit`: the child dies of SIGSEGV,
    /// the verdict says so, the others are probed, and the verdicts are cached.
    @Test func crashInRunIsIsolatedByTheProbe() throws {
        let fixtures = try FixtureBundles()
        defer { fixtures.remove() }
        let auhost = FixtureBundles.productsDirectory.appendingPathComponent("auhost")
        #expect(FileManager.default.fileExists(atPath: auhost.path), "build the auhost product first")
        let provider = LV2TestSupport.provider(path: fixtures.root.path)
        var runner = LV2ProbeRunner(executable: auhost)
        runner.environment = ["LV2_PATH": fixtures.root.path]
        let cacheDirectory = URL(fileURLWithPath: fixtures.root.path + "-cache")
        defer { try? FileManager.default.removeItem(at: cacheDirectory) }
        var cache = LV2ProbeCache(file: cacheDirectory.appendingPathComponent("lv2-probe.json"))
        let uris = ["urn:auhost:fixture:passthrough", "urn:auhost:fixture:crash-in-run", "urn:auhost:fixture:null-instance", "urn:auhost:fixture:needs-feature"]
        let verdicts = runner.probe(uris, binaries: provider.binaryPaths(), cache: &cache)
        #expect(verdicts["urn:auhost:fixture:passthrough"]?.outcome == .works)
        #expect(verdicts["urn:auhost:fixture:crash-in-run"]?.outcome == .crashed)
        #expect(verdicts["urn:auhost:fixture:crash-in-run"]?.reason?.contains("SIGSEGV") == true)
        #expect(verdicts["urn:auhost:fixture:null-instance"]?.outcome == .fails)
        #expect(verdicts["urn:auhost:fixture:needs-feature"]?.reason?.contains("unobtainium") == true)

        // A new provider reading the cache marks the crashing unit as known-broken.
        let marked = LV2Provider(lv2Path: fixtures.root.path, probeCacheFile: cache.file).discoverComponents().components
        let crash = try #require(marked.first { $0.identifier == "urn:auhost:fixture:crash-in-run" })
        #expect(crash.description.componentFlags.contains(.isKnownBroken))
        #expect(crash.brokenReason?.hasPrefix("crashed") == true)
        #expect(marked.first { $0.identifier == "urn:auhost:fixture:passthrough" }?.brokenReason == nil)
    }

    /// A plugin that prints `auhost-probe verdict … works` lines on its standard output and
    /// then crashes is recorded as crashed: the child reports on a channel of its own.
    @Test func aPluginCannotForgeItsProbeVerdict() throws {
        let fixtures = try FixtureBundles()
        defer { fixtures.remove() }
        var runner = LV2ProbeRunner(executable: FixtureBundles.productsDirectory.appendingPathComponent("auhost"))
        runner.environment = ["LV2_PATH": fixtures.root.path]
        var cache = LV2ProbeCache(file: URL(fileURLWithPath: fixtures.root.path + "-cache/lv2-probe.json"))
        defer { try? FileManager.default.removeItem(atPath: fixtures.root.path + "-cache") }
        let uris = ["urn:auhost:fixture:forge-verdict", "urn:auhost:fixture:passthrough"]
        let verdicts = runner.probe(uris, binaries: LV2TestSupport.provider(path: fixtures.root.path).binaryPaths(), cache: &cache)
        #expect(verdicts["urn:auhost:fixture:forge-verdict"]?.outcome == .crashed)
        #expect(verdicts["urn:auhost:fixture:forge-verdict"]?.reason?.contains("SIGSEGV") == true)
        #expect(verdicts["urn:auhost:fixture:passthrough"]?.outcome == .works)
    }
}
