import Synchronization

/// The graph's share of real time (`AUGraphGetCPULoad`): the render thread times one cycle
/// in ``GraphRenderer/timingInterval`` (two clock reads cost about 50 ns, close to 1 % of the
/// reference chain's cycle) and adds its render time and frame count; the control side reads
/// the time spent rendering the timed cycles over their audio's duration since its previous
/// reading: a sampled share, as the dump's render times are. The highest share of one cycle
/// (`AUGraphGetMaxCPULoad`) needs every cycle: once it has been read, every cycle is timed.
/// - Thread: [render] for ``timesThisCycle()`` and ``record(nanoseconds:frames:)``; control for
///   ``load(sampleRate:)`` and ``maxLoad(sampleRate:)``.
final class CPULoadMeter: @unchecked Sendable {
    private let busyNanoseconds = Atomic<UInt64>(0)
    private let framesRendered = Atomic<UInt64>(0)
    /// The highest render time of one timed cycle per 1,024 of its frames, since the last reading.
    private let peakNanosecondsPer1024Frames = Atomic<UInt64>(0)
    /// Set by the first ``maxLoad(sampleRate:)``: from then on every cycle is timed.
    private let timesEveryCycle = Atomic<Bool>(false)
    /// Cycles seen, written by the render thread only: the first and then one in
    /// ``GraphRenderer/timingInterval`` are timed.
    private var cyclesSeen: UInt64 = 0

    /// Whether this cycle is one to time; counts it.
    /// - Thread: [render]
    @inline(__always)
    func timesThisCycle() -> Bool {
        defer { cyclesSeen &+= 1 }
        return cyclesSeen % GraphRenderer.timingInterval == 0 || timesEveryCycle.load(ordering: .relaxed)
    }
    /// What the previous reading saw (control side).
    private let previous = Mutex<(busy: UInt64, frames: UInt64)>((0, 0))

    /// Counts one timed cycle and raises the peak when this cycle's share is the highest.
    /// - Thread: [render] Relaxed atomic adds and a compare-and-exchange; no lock.
    @inline(__always)
    func record(nanoseconds: UInt64, frames: Int) {
        busyNanoseconds.add(nanoseconds, ordering: .relaxed)
        framesRendered.add(UInt64(frames), ordering: .relaxed)
        guard frames > 0 else { return }
        let share = nanoseconds &* 1_024 / UInt64(frames)
        var peak = peakNanosecondsPer1024Frames.load(ordering: .relaxed)
        while share > peak {
            let (exchanged, original) = peakNanosecondsPer1024Frames.compareExchange(expected: peak, desired: share, ordering: .relaxed)
            if exchanged { break }
            peak = original
        }
    }

    /// The highest render time of one cycle over that cycle's duration at `sampleRate` since
    /// the previous call (0 when none was timed since). The first call starts timing every cycle.
    /// - Thread: [control]
    func maxLoad(sampleRate: Double) -> Double {
        timesEveryCycle.store(true, ordering: .relaxed)
        let peak = peakNanosecondsPer1024Frames.exchange(0, ordering: .relaxed)
        guard sampleRate > 0 else { return 0 }
        return Double(peak) / (1_024 / sampleRate * 1e9)
    }

    /// The render time over the cycles' duration at `sampleRate` since the previous call
    /// (0 when no frame was rendered since): 0.25 is a quarter of real time.
    /// - Thread: [control]
    func load(sampleRate: Double) -> Double {
        let busy = busyNanoseconds.load(ordering: .relaxed)
        let frames = framesRendered.load(ordering: .relaxed)
        let (busySince, framesSince) = previous.withLock { last in
            defer { last = (busy, frames) }
            return (busy &- last.busy, frames &- last.frames)
        }
        guard framesSince > 0, sampleRate > 0 else { return 0 }
        return Double(busySince) / (Double(framesSince) / sampleRate * 1e9)
    }
}
