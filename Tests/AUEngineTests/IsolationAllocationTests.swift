import AUTestSupport
import Foundation
import Testing

/// The release alloc-check and unit host, when no source of the bridge's path (host or
/// child) is newer than them: only optimized code can show no retain.
let releaseIsolationCheck: URL? = ReleaseBuild.upToDate(
    products: ["alloc-check", "libAllocCounter.so", "auhost-unit-host"],
    sources: ["Sources/AUCore", "Sources/AUEngine", "Sources/AULV2", "Sources/AUBridge", "Sources/CAUSupport", "Sources/CAllocCounter", "Sources/alloc-check"])

/// The bridge's render path (docs/ISOLATION.md) under the AllocCounter shim: a chain whose
/// LV2 units run in unit-host children, parameters changing inside the cycles.
@Suite struct IsolationAllocationTests {
    /// Each unit in a child of its own (asleep between cycles: woken each time), and both in
    /// one child whose render thread spins for the next request (mostly posted without a wake),
    /// rendering as a run (one hand-over for both) in the cycles without parameter events;
    /// and the two alone in one child, the run rendering one slice behind (a slice of latency).
    @Test(
        "the host side of an isolated unit's render allocates, frees and locks nothing",
        arguments: [("--isolated", 2), ("--isolated-together", 1), ("--isolated-behind", 1)])
    func isolatedRenderIsClean(option: String, children: Int) throws {
        let run = try runAllocCheck([option, "--cycles", "3000", "--frames", "64"])
        #expect(run.status == 0, "\(run.text)")
        #expect(run.report["isolatedUnits"] == 2 && run.report["roundTrips", default: 0] >= 6000, "\(run.text)")
        #expect(run.report["children"] == children, "\(run.text)")
        #expect(children == 1 ? run.report["runCycles", default: 0] > 0 : run.report["runCycles"] == 0, "\(run.text)")
        #expect(run.report["parameterChanges", default: 0] > 0, "\(run.text)")
        #expect(run.report["latencyFrames"] == (option == "--isolated-behind" ? 64 : 0), "\(run.text)")
        for key in ["mallocs", "callocs", "reallocs", "frees", "locks", "lateCycles", "renderFailures"] {
            #expect(run.report[key] == 0, "\(key): \(run.text)")
        }
    }

    @Test(
        "a release build's isolated render makes no retain or release",
        .enabled(if: releaseIsolationCheck != nil, "no up-to-date release alloc-check and auhost-unit-host: make test builds them"),
        arguments: ["--isolated", "--isolated-together", "--isolated-behind"])
    func releaseIsolatedRenderMakesNoRetain(option: String) throws {
        let run = try runAllocCheck([option, "--cycles", "3000", "--frames", "64"], in: releaseIsolationCheck)
        #expect(run.status == 0, "\(run.text)")
        #expect(run.report["retains"] == 0 && run.report["releases"] == 0, "\(run.text)")
    }
}
