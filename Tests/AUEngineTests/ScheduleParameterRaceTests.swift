import AUCore
import AUEngine
import Foundation
import Synchronization
import Testing

/// `scheduleParameter` from another thread while the control thread edits the graph and
/// updates it, and a render thread renders: no crash, and only the documented refusals.
@Suite("Scheduling parameters during updates") struct ScheduleParameterRaceTests {
    @Test func schedulingFromAnotherThreadDuringUpdatesIsSafe() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        let source = try graph.addNode(SignalSource())
        let gain = try graph.addNode(GainUnit(gain: 1))
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.connect(source, to: gain)
        try graph.connect(gain, to: output)
        try graph.initialize()

        let stop = Atomic<Bool>(false)
        let renderer = Thread {
            let buffers = OwnedAudioBuffers(channels: 2, capacity: 64)
            var time = 0.0
            while !stop.load(ordering: .acquiring) {
                _ = graph.render(frameCount: 64, timestamp: RenderTimestamp(sampleTime: time), output: buffers.buffers())
                time += 64
            }
        }
        let scheduled = Atomic<Int>(0)
        let unexpected = Atomic<Int>(0)
        let scheduler = Thread {
            for round in 0..<20_000 {
                do {
                    try graph.scheduleParameter(gain, ParameterAddress(0), value: Float(round % 4), atFrame: round % 64)
                    scheduled.add(1, ordering: .relaxed)
                } catch {
                    // A full queue is the one refusal expected here.
                    if (error as? AudioUnitError)?.code != .cannotDoInCurrentContext { unexpected.add(1, ordering: .relaxed) }
                }
            }
        }
        renderer.start()
        scheduler.start()
        // The control thread: nodes added, connected, removed and updated meanwhile.
        for _ in 0..<200 where !scheduler.isFinished {
            let extra = try graph.addNode(GainUnit(name: "extra"))
            try graph.disconnect(output, input: 0)
            try graph.connect(gain, to: extra)
            try graph.connect(extra, to: output)
            try graph.update()
            try graph.removeNode(extra)
            try graph.connect(gain, to: output)
            try graph.update()
        }
        for _ in 0..<2_000 where !scheduler.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        stop.store(true, ordering: .releasing)
        for _ in 0..<1_000 where !renderer.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        #expect(scheduler.isFinished && renderer.isFinished)
        #expect(unexpected.load(ordering: .relaxed) == 0)
        #expect(scheduled.load(ordering: .relaxed) > 0)
    }
}
