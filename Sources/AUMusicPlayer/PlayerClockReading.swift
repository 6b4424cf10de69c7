import Synchronization
import AUMIDI

/// Where a player was after its last cycle, as the render thread publishes it and the
/// control side reads it: the song position in beats at the cycle's end, that frame's
/// sample time and host time (nanoseconds; when the driver gives one), and how many cycles
/// were rendered. One writer; a reader retries while a write is under way (a sequence lock
/// without a lock: the writer never waits).
/// - Thread: [render] for ``publish(beat:isPlaying:sampleTime:hostTime:hostTimeValid:frames:)``; [any] for ``read()``.
final class PlayerClockReading: @unchecked Sendable {
    struct Reading: Equatable {
        var beat: Double
        /// Whether the song played in that cycle (the host's transport may start and stop it).
        var isPlaying: Bool
        var sampleTime: Double
        /// Nil when the driver gives no host time.
        var hostTime: UInt64?
        var cycles: UInt64
    }

    private let sequence = Atomic<UInt64>(0)
    private let beatBits = Atomic<UInt64>(0)
    private let isPlaying = Atomic<Bool>(false)
    private let sampleTimeBits = Atomic<UInt64>(0)
    private let hostTime = Atomic<UInt64>(0)
    private let hostTimeValid = Atomic<Bool>(false)
    private let frames = Atomic<UInt64>(0)
    private let cycles = Atomic<UInt64>(0)

    /// Publishes the position after a cycle of `frames` frames whose first frame was at `hostTime`.
    /// - Thread: [render] No allocation, no lock.
    func publish(beat: Double, isPlaying: Bool, sampleTime: Double, hostTime: UInt64, hostTimeValid: Bool, frames: Int) {
        sequence.add(1, ordering: .acquiringAndReleasing)
        beatBits.store(beat.bitPattern, ordering: .relaxed)
        self.isPlaying.store(isPlaying, ordering: .relaxed)
        sampleTimeBits.store(sampleTime.bitPattern, ordering: .relaxed)
        self.hostTime.store(hostTime, ordering: .relaxed)
        self.hostTimeValid.store(hostTimeValid, ordering: .relaxed)
        self.frames.store(UInt64(max(0, frames)), ordering: .relaxed)
        cycles.add(1, ordering: .relaxed)
        sequence.add(1, ordering: .releasing)
    }

    /// The last published position, nil before the first cycle. `hostTime` is the end frame's
    /// host time: the cycle's start plus its length at `sampleRate`.
    /// - Thread: [any]
    func read(sampleRate: Double) -> Reading? {
        while true {
            let before = sequence.load(ordering: .acquiring)
            guard before != 0 else { return nil }
            if before & 1 == 1 { continue }
            let beat = Double(bitPattern: beatBits.load(ordering: .relaxed))
            let playing = isPlaying.load(ordering: .relaxed)
            let sampleTime = Double(bitPattern: sampleTimeBits.load(ordering: .relaxed))
            let host = hostTime.load(ordering: .relaxed), valid = hostTimeValid.load(ordering: .relaxed)
            let frames = self.frames.load(ordering: .relaxed), cycles = self.cycles.load(ordering: .relaxed)
            atomicMemoryFence(ordering: .acquiring)
            guard sequence.load(ordering: .relaxed) == before else { continue }
            let end = valid ? host &+ UInt64((Double(frames) / sampleRate * 1e9).rounded()) : nil
            return Reading(beat: beat, isPlaying: playing, sampleTime: sampleTime, hostTime: end, cycles: cycles)
        }
    }
}
