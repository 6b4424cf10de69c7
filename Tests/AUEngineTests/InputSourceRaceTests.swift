import AUCore
import AUEngine
import Foundation
import Synchronization
import Testing

/// `MakeConnection` and `SetRenderCallback` changed while another thread renders the unit:
/// every render pulls one whole source, old or new, and none crashes.
@Suite("Input sources changed while rendering") struct InputSourceRaceTests {
    @Test func changingTheSourceWhileRenderingIsSafe() throws {
        let unit = GainUnit(gain: 1)
        let upstream = GainUnit(gain: 2)
        try upstream.setValue(Self.constant(0.25), for: .setRenderCallback, scope: .input)
        try upstream.initialize()
        try unit.setValue(Self.constant(1), for: .setRenderCallback, scope: .input)
        try unit.initialize()
        defer {
            unit.dispose()
            upstream.dispose()
        }
        let done = Atomic<Bool>(false)
        let strange = Atomic<Int>(0)
        let renders = Atomic<Int>(0)
        let renderer = Thread {
            let output = OwnedAudioBuffers(channels: 2, capacity: 64)
            var time = 0.0
            while !done.load(ordering: .relaxed) {
                var flags = RenderFlags()
                let status = unit.render(flags: &flags, timestamp: RenderTimestamp(sampleTime: time), outputBus: 0, buffers: output.buffers())
                let value = output.buffers()[0][0]
                // A callback of 1 or 0.75, or the connection: 0.25 × 2.
                if status != 0 || ![1, 0.75, 0.5].contains(value) || output.buffers()[1][63] != value { strange.add(1, ordering: .relaxed) }
                renders.add(1, ordering: .relaxed)
                time += 64
            }
        }
        renderer.start()
        for _ in 0..<1_000 where renders.load(ordering: .relaxed) == 0 { Thread.sleep(forTimeInterval: 0.01) }
        for round in 0..<3_000 {
            switch round % 3 {
            case 0: try unit.setValue(Self.constant(0.75), for: .setRenderCallback, scope: .input)
            case 1: try unit.setValue(UnitConnection(sourceUnit: upstream, sourceOutputBus: 0, destinationInputBus: 0), for: .makeConnection, scope: .input)
            default: try unit.setValue(Self.constant(1), for: .setRenderCallback, scope: .input)
            }
        }
        for _ in 0..<1_000 where renders.load(ordering: .relaxed) < 100 { Thread.sleep(forTimeInterval: 0.01) }
        done.store(true, ordering: .relaxed)
        for _ in 0..<1_000 where !renderer.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        #expect(renderer.isFinished)
        #expect(renders.load(ordering: .relaxed) >= 100)
        #expect(strange.load(ordering: .relaxed) == 0)
    }

    /// A render callback that fills every channel with `value`.
    static func constant(_ value: Float) -> RenderCallback {
        RenderCallback { _, _, _, buffers in
            for channel in 0..<buffers.channelCount { buffers[channel].update(repeating: value) }
            return 0
        }
    }
}
