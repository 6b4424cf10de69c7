import AUCore
import AUEngine
import CAUSupport
import Foundation
import Synchronization

/// The render thread of a check: renders a graph for the warm-up and the counted cycles,
/// counting (and, in strict mode, watching) from the first counted cycle on, as a driver
/// would, and records what the control thread reads back.
/// - Thread: [control] starts it and reads the counters; the render thread runs it.
final class RenderLoop: @unchecked Sendable {
    /// Cycles rendered so far.
    let done = Atomic<Int>(0)
    let failures = Atomic<Int>(0)
    /// Cycles whose output held NaN or infinity.
    let nonFinite = Atomic<Int>(0)
    /// Events that reached the graph's MIDI output.
    let midiOutputEvents = Atomic<Int>(0)
    /// MIDI events that reached the graph's output in the warm-up the control thread holds.
    let warmUpMIDIOutputEvents = Atomic<Int>(0)
    /// The errno of a refused seccomp filter (0: installed, or not strict).
    let strictStatus = Atomic<Int32>(0)
    /// The cycle the control thread last saw (``controlSaw(_:)``); -1 until it first looks.
    /// Once it looks, the render thread stays at most ``maximumLead`` counted cycles ahead of
    /// it, so that what the control thread does per so many cycles (seeks, edits, parameter
    /// changes) happens as often on a loaded machine, where it is scheduled seldom, as on an
    /// idle one.
    private let controlCycle = Atomic<Int>(-1)
    static let maximumLead = 64
    /// False while the control thread's warm-up is not over (``finishWarmUp()``): until then
    /// the warm-up goes on, so that what it does (a first plan swap) is never counted.
    private let warmUpFinished: Atomic<Bool>
    let cycles: Int
    private var thread: Thread?

    /// Starts rendering `graph` in cycles of `frames` frames over `input`: `warmup` cycles,
    /// then `cycles` counted ones; `driverMIDI`, when given, is the driver's MIDI of every cycle.
    /// With `holdsWarmUp`, the warm-up lasts until ``finishWarmUp()`` too.
    init(
        graph: AudioGraph, shim: Shim, frames: Int, cycles: Int, warmup: Int, strict: Bool, input: OwnedAudioBuffers, driverMIDI: MIDIEvent?,
        holdsWarmUp: Bool = false
    ) {
        self.cycles = cycles + warmup
        warmUpFinished = Atomic(!holdsWarmUp)
        let output = OwnedAudioBuffers(channels: 2, capacity: frames)
        let total = cycles + warmup
        let thread = Thread { [self] in
            let this = self
            let inputView = input.buffers(frameCount: frames)
            let outputView = output.buffers(frameCount: frames)
            let midi = UnsafeMutablePointer<MIDIEvent>.allocate(capacity: 1)
            if let driverMIDI { midi.initialize(to: driverMIDI) }
            let midiCount = driverMIDI == nil ? 0 : 1
            var extraWarmUp = 0
            var cycle = 0
            while cycle < total {
                let sampleTime = Double((cycle + extraWarmUp) * frames)
                if cycle == warmup && !this.warmUpFinished.load(ordering: .acquiring) {
                    _ = graph.render(
                        frameCount: frames, timestamp: RenderTimestamp(sampleTime: sampleTime), input: inputView, output: outputView,
                        midi: UnsafeBufferPointer(start: midi, count: midiCount))
                    this.warmUpMIDIOutputEvents.add(graph.midiOutputFromRender.count, ordering: .relaxed)
                    extraWarmUp += 1
                    continue
                }
                // RenderThread.run may count on its own (CAUSupport begins counting when the
                // shim is loaded): forget what the warm-up counted.
                if cycle == warmup {
                    shim.reset()
                    if strict {
                        this.strictStatus.store(au_strict_install(), ordering: .relaxed)
                        au_strict_set_recording(true)
                    }
                }
                // Paced by the control thread: a spin on an atomic (no system call, nothing counted).
                while case let seen = this.controlCycle.load(ordering: .acquiring), seen >= 0, cycle - seen > Self.maximumLead { au_cpu_relax() }
                if cycle >= warmup { shim.begin() }
                let status = graph.render(
                    frameCount: frames, timestamp: RenderTimestamp(sampleTime: sampleTime), input: inputView, output: outputView,
                    midi: UnsafeBufferPointer(start: midi, count: midiCount))
                this.midiOutputEvents.add(graph.midiOutputFromRender.count, ordering: .relaxed)
                shim.end()
                if status != 0 { this.failures.add(1, ordering: .relaxed) }
                if outputView.containsNonFinite() { this.nonFinite.add(1, ordering: .relaxed) }
                this.done.store(cycle + 1, ordering: .releasing)
                cycle += 1
            }
            au_strict_set_recording(false)
            midi.deallocate()
            withExtendedLifetime(output) {}
        }
        self.thread = thread
        shim.reset()
        thread.start()
    }

    /// The input every check renders: two channels of a quiet sine, `frames` long.
    static func sineInput(frames: Int) -> OwnedAudioBuffers {
        let input = OwnedAudioBuffers(channels: 2, capacity: frames)
        for channel in 0..<2 {
            for frame in 0..<frames { input.buffers()[channel][frame] = Float(sin(Double(frame) * 0.05 + Double(channel))) * 0.25 }
        }
        return input
    }

    /// Tells the render thread the control thread has seen cycle `cycle` (it paces on it).
    func controlSaw(_ cycle: Int) { controlCycle.store(cycle, ordering: .releasing) }

    /// Ends a warm-up held by the control thread.
    func finishWarmUp() { warmUpFinished.store(true, ordering: .releasing) }

    /// Whether every cycle has rendered.
    var isFinished: Bool { done.load(ordering: .acquiring) >= cycles }

    /// Waits for the render thread to end.
    func join() { while thread?.isFinished == false { usleep(1000) } }
}
