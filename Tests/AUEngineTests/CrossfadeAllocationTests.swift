import AUTestSupport
import Foundation
import Testing

/// The live rig's chain switch (issue 34, `open`) under the AllocCounter shim: the rig's
/// graph renders a MIDI-mapped chain while the control thread switches it to freshly built
/// chains again and again, each crossfaded over a few cycles, and disposes the old ones.
@Suite struct CrossfadeAllocationTests {
    @Test("crossfading from one chain to the next on the render thread allocates, frees and locks nothing")
    func crossfadeRenderIsClean() throws {
        let run = try runAllocCheck(["--crossfade", "--cycles", "5000", "--frames", "64"])
        #expect(run.status == 0, "\(run.text)")
        #expect(run.report["switches", default: 0] >= 3 && run.report["chainsDisposed", default: 0] >= 2 && run.report["midiMoves", default: 0] > 0, "\(run.text)")
        for key in ["mallocs", "callocs", "reallocs", "frees", "locks", "renderFailures"] {
            #expect(run.report[key] == 0, "\(key): \(run.text)")
        }
    }
}
