import AUCore
import AUEngine
import Foundation
import Synchronization

/// `alloc-check --pull`: Core Audio's pull model (`AudioUnitRender` on a unit outside any
/// graph, as a standalone output unit's device callback and AudioToolbox programs do): a
/// graphic EQ whose input is a render callback (a sine), pulled through `MakeConnection` by a
/// second EQ, rendered by its output bus with a render notification on it, while the control
/// thread moves both units' bands and swaps the callback for another every few cycles.
/// Counts what the render thread allocates, frees, retains and locks; prints one `key=value`
/// line and exits as the main check does.
/// - Thread: [control]
enum PullCheck {
    static func run(shim: Shim, cycles: Int, frames: Int, warmup: Int) -> Never {
        let registry = ComponentRegistry(providers: [BuiltinUnits()])
        let source: AudioUnit, pulled: AudioUnit
        let phase = Atomic<Int>(0)
        let notified = Atomic<Int>(0)
        func sine(_ step: Double) -> RenderCallback {
            RenderCallback { _, timestamp, _, buffers in
                for channel in 0..<buffers.channelCount {
                    let samples = buffers[channel]
                    for frame in 0..<samples.count { samples[frame] = Float(sin((timestamp.sampleTime + Double(frame)) * step)) * 0.25 }
                }
                phase.add(1, ordering: .relaxed)
                return 0
            }
        }
        let callbacks = [sine(0.05), sine(0.07)]
        do {
            source = try registry.instantiate("aufx:ipeq:AUHs")
            pulled = try registry.instantiate("aufx:ipeq:AUHs")
            for unit in [source, pulled] { try unit.setValue(frames, for: .maximumFramesPerSlice) }
            try source.setValue(callbacks[0], for: .setRenderCallback, scope: .input)
            try pulled.setValue(UnitConnection(sourceUnit: source, sourceOutputBus: 0, destinationInputBus: 0), for: .makeConnection, scope: .input)
            _ = try pulled.addRenderNotify(RenderCallback { flags, _, _, _ in
                if flags.contains(.postRender) { notified.add(1, ordering: .relaxed) }
                return 0
            })
            try source.initialize()
            try pulled.initialize()
        } catch {
            fail("cannot build the pulled units: \(error)", status: 1)
        }
        let done = Atomic<Int>(0), failures = Atomic<Int>(0), nonFinite = Atomic<Int>(0)
        let total = warmup + cycles
        let output = OwnedAudioBuffers(channels: 2, capacity: frames)
        let thread = Thread {
            let view = output.buffers(frameCount: frames)
            for cycle in 0..<total {
                if cycle == warmup { shim.reset() }
                if cycle >= warmup { shim.begin() }
                var flags = RenderFlags()
                let status = pulled.render(flags: &flags, timestamp: RenderTimestamp(sampleTime: Double(cycle * frames)), outputBus: 0, buffers: view)
                if cycle >= warmup { shim.end() }
                if status != 0 { failures.add(1, ordering: .relaxed) }
                if !view[0].allSatisfy(\.isFinite) { nonFinite.add(1, ordering: .relaxed) }
                done.store(cycle + 1, ordering: .releasing)
            }
        }
        thread.start()
        var swaps = 0, parameterChanges = 0, lastSwapAt = 0
        do {
            while done.load(ordering: .acquiring) < total {
                let now = done.load(ordering: .acquiring)
                if now - lastSwapAt >= 25 {
                    lastSwapAt = now
                    swaps += 1
                    try source.setValue(callbacks[swaps % 2], for: .setRenderCallback, scope: .input)
                    try source.setParameter(ParameterID(swaps % 10), value: Float(swaps % 13) - 6)
                    try pulled.setParameter(ParameterID((swaps + 3) % 10), value: Float(swaps % 7) - 3)
                    parameterChanges += 2
                }
                Thread.sleep(forTimeInterval: 0.0002)
            }
        } catch {
            fail("the control thread failed: \(error)", status: 1)
        }
        let counts = shim.counts()
        report(counts, "cycles=\(cycles) failures=\(failures.load(ordering: .relaxed)) nonFinite=\(nonFinite.load(ordering: .relaxed)) callbackSwaps=\(swaps) parameterChanges=\(parameterChanges) callbackCalls=\(phase.load(ordering: .relaxed)) notifications=\(notified.load(ordering: .relaxed))")
        let clean = counts.mallocs + counts.callocs + counts.reallocs + counts.frees + counts.locks == 0
        exit(clean && failures.load(ordering: .relaxed) == 0 ? 0 : 1)
    }
}
