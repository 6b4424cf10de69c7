import Synchronization
// What Apple's two players share: a timeline that starts at a sample time
// (`kAudioUnitProperty_ScheduleStartTimeStamp`) and counts the frames played since
// (`kAudioUnitProperty_CurrentPlayTime`).

/// A player of a scheduled timeline: AUAudioFilePlayer, AUScheduledSoundPlayer.
/// - Thread: [control]
public protocol ScheduledPlayer: AnyObject {
    /// Plays the timeline from `sampleTime` (-1: the next render).
    /// - Thread: [control]
    func start(atSampleTime sampleTime: Double)
    /// Frames played since the start.
    /// - Thread: [any]
    var playedFrames: Int { get }
}

extension AudioFilePlayerUnit: ScheduledPlayer {
    /// - Thread: [any]
    public var playedFrames: Int { framesPlayed.load(ordering: .acquiring) }
}

extension ScheduledSoundPlayerUnit: ScheduledPlayer {
    /// - Thread: [any]
    public var playedFrames: Int { framesPlayed.load(ordering: .acquiring) }
}
