import Foundation
import Testing
import AUNative
import AUTestSupport

/// `auhost validate` against units that keep every rule and units that break one: the
/// good fixture, the units in Plugins/ and the built-in units pass at strictness 10; each
/// broken fixture fails the test aimed at its rule and no other.
@Suite struct ValidateFixtureTests {
    @Test func theGoodFixturePassesEveryTestAtStrictness10() throws {
        let folder = try ValidateFixtures.build(nil)
        let run = try ValidateRun.run(["validate", "aufx:vfix:Test", "--strictness", "10", "--seed", "5", "--json"], plugins: folder)
        let statuses = try run.statuses()
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        #expect(statuses.count == 22 && !statuses.values.contains("FAIL"), "\(statuses)")
        #expect(statuses["render-allocations"] == "PASS" || statuses["render-allocations"] == "WARN", "the shim beside auhost counted nothing: \(statuses)")
    }

    @Test(arguments: ValidateFixtures.breakages)
    func aBrokenFixtureFailsTheTestAimedAtItAndPassesTheOthers(_ breakage: ValidateFixtures.Breakage) throws {
        let folder = try ValidateFixtures.build(breakage.define)
        // A hang costs the timeout; the other tests take well under a second each (a few
        // seconds when the machine is loaded).
        let timeout = breakage.define == "HANG_IN_RENDER" ? "20" : "120"
        let run = try ValidateRun.run(["validate", "aufx:vfix:Test", "--strictness", "6", "--seed", "11", "--timeout", timeout, "--json"], plugins: folder)
        let statuses = try run.statuses()
        #expect(run.status == 1, "\(run.errors)")
        #expect(statuses.filter { $0.value == "FAIL" }.map(\.key) == [breakage.test], "\(breakage.define): \(run.output)")
    }

    @Test("a MIDI processor that echoes at the events' frames passes at strictness 10; one that answers at the cycle's start fails midi-events alone")
    func aMIDIProcessorAnswersAtTheFrameOfItsInput() throws {
        let good = try ValidateRun.run(
            ["validate", "aumi:vmid:Test", "--strictness", "10", "--seed", "5", "--json"], plugins: try ValidateFixtures.buildMIDI(nil))
        let statuses = try good.statuses()
        #expect(good.status == 0 && statuses["midi-events"] == "PASS" && !statuses.values.contains("FAIL"), "\(good.output)\(good.errors)")
        let early = try ValidateRun.run(
            ["validate", "aumi:vmid:Test", "--strictness", "10", "--seed", "5", "--json"], plugins: try ValidateFixtures.buildMIDI("EARLY_MIDI"))
        #expect(early.status == 1, "\(early.errors)")
        #expect(try early.statuses().filter { $0.value == "FAIL" }.map(\.key) == ["midi-events"], "\(early.output)")
    }

    @Test func everyUnitInPluginsPassesAtStrictness10() throws {
        // The units built beside the tests (the release auhost's own folder has two of them).
        let built = try #require(PluginSearchPath.executableFolder())
        let run = try ValidateRun.run(
            ["validate", "--all", "--format", "native", "--strictness", "10", "--jobs", "2", "--seed", "3", "--timeout", "300"],
            plugins: URL(fileURLWithPath: built))
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        for unit in ["aufx:gain", "aufx:dely", "aufx:peq ", "aufx:comp", "aufx:rvrb", "augn:tone", "aumu:synt", "aumi:arpg"] {
            #expect(run.output.contains("  PASS  \(unit):AUHs"), "\(unit) missing from \(run.output)")
        }
        #expect(run.output.contains("summary: 8 units, 8 passed, 0 failed"), "\(run.output)")
    }

    @Test func everyBuiltInUnitPassesAtStrictness10() throws {
        let run = try ValidateRun.run(["validate", "--all", "--format", "builtin", "--strictness", "10", "--jobs", "2", "--seed", "3", "--timeout", "300"], plugins: nil)
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        // AUHost's 4 (but Generic Output: an I/O unit), the sampler, and the 20 Apple-described units of AUAppleUnits.
        #expect(run.output.contains("summary: 25 units, 25 passed, 0 failed"), "\(run.output)")
    }
}
