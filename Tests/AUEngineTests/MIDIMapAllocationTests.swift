import AUTestSupport
import Foundation
import Testing

/// A chain's MIDI map (issue 34) under the AllocCounter shim: CCs, notes and pitch bend move
/// parameters along every curve, glides step, and learn edits the render table while the
/// graph renders, and each node's output level is measured by a post-render notification.
@Suite struct MIDIMapAllocationTests {
    @Test("applying a MIDI map, recalling snapshots and measuring node levels on the render thread allocates, frees and locks nothing")
    func midiMapRenderIsClean() throws {
        let run = try runAllocCheck(["--midi-map", "--cycles", "5000", "--frames", "64"])
        #expect(run.status == 0, "\(run.text)")
        #expect(run.report["midiMoves", default: 0] > 1_000 && run.report["learned", default: 0] > 0 && run.report["levelsRead", default: 0] > 0 && run.report["snapshotRecalled"] == 1, "\(run.text)")
        for key in ["mallocs", "callocs", "reallocs", "frees", "locks", "renderFailures"] {
            #expect(run.report[key] == 0, "\(key): \(run.text)")
        }
    }
}
