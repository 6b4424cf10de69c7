import AUTestSupport
import Foundation
import Testing

/// Core Audio's pull model under the AllocCounter shim (`alloc-check --pull`): a unit outside
/// any graph rendered with `AudioUnitRender`'s entry point, pulling its input through a
/// connection from a unit whose input is a render callback, with a render notification,
/// while the control thread swaps the callback and moves parameters.
@Suite struct PullAllocationTests {
    @Test("pulling inputs through render callbacks and connections allocates, frees and locks nothing")
    func pullRenderIsClean() throws {
        let run = try runAllocCheck(["--pull", "--cycles", "5000", "--frames", "64"])
        #expect(run.status == 0, "\(run.text)")
        #expect(run.report["callbackSwaps", default: 0] >= 3 && run.report["callbackCalls", default: 0] >= 5000, "\(run.text)")
        #expect(run.report["notifications", default: 0] >= 5000, "\(run.text)")
        for key in ["mallocs", "callocs", "reallocs", "frees", "locks", "failures", "nonFinite"] {
            #expect(run.report[key] == 0, "\(key): \(run.text)")
        }
    }

    @Test(
        "a release build pulls inputs with no retain or release (a source copied out of the published list was retained per pull)",
        .enabled(if: releaseAllocCheck != nil, "no up-to-date release alloc-check: make test builds it"))
    func releasePullMakesNoRetain() throws {
        let run = try runAllocCheck(["--pull", "--cycles", "5000", "--frames", "64"], in: releaseAllocCheck)
        #expect(run.status == 0, "\(run.text)")
        #expect(run.report["retains"] == 0 && run.report["releases"] == 0, "\(run.text)")
    }
}
