import AUCore
import AUMIDI

/// A player's song as a ``TransportTimeline``: bar, beat, tempo and signature at any
/// transport frame (song seconds times the sample rate), from the sequence the player
/// plays. What `auhost play --transport drive` publishes as JACK's timebase master.
/// - Thread: [render] for ``state(atFrame:sampleRate:)``; [control] to make it.
final class PlayerTimeline: TransportTimeline, @unchecked Sendable {
    private let scheduler: Unmanaged<MusicPlayerScheduler>
    private let owner: MusicPlayerScheduler

    init(_ scheduler: MusicPlayerScheduler) {
        owner = scheduler
        self.scheduler = Unmanaged.passUnretained(scheduler)
    }

    override func state(atFrame frame: Int64, sampleRate: Double) -> TransportState {
        guard let schedule = scheduler._withUnsafeGuaranteedRef({ $0.latestSchedule }) else { return TransportState(frame: frame) }
        return schedule._withUnsafeGuaranteedRef { schedule in
            let seconds = Double(frame) / sampleRate
            let beats = schedule.beats(forSeconds: seconds)
            var state = schedule.transport(atBeats: beats, seconds: seconds, sampleRate: sampleRate, rate: 1, isRolling: true)
            state.frame = frame
            return state
        }
    }
}
