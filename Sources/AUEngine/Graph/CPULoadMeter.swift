import Synchronization

/// The graph's share of real time (`AUGraphGetCPULoad`): the render thread adds each
/// cycle's render time and frame count; the control side reads the time spent rendering
/// over the duration of the audio rendered since its previous reading.
/// - Thread: [render] for ``record(nanoseconds:frames:)``; control for ``load(sampleRate:)``.
final class CPULoadMeter: @unchecked Sendable {
    private let busyNanoseconds = Atomic<UInt64>(0)
    private let framesRendered = Atomic<UInt64>(0)
    /// What the previous reading saw (control side).
    private let previous = Mutex<(busy: UInt64, frames: UInt64)>((0, 0))

    /// Counts one cycle.
    /// - Thread: [render] Two relaxed atomic adds.
    @inline(__always)
    func record(nanoseconds: UInt64, frames: Int) {
        busyNanoseconds.add(nanoseconds, ordering: .relaxed)
        framesRendered.add(UInt64(frames), ordering: .relaxed)
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
