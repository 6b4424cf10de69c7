import AUMIDI
/// A state of play the control side publishes for the render thread: the compiled
/// sequence, whether it plays, from where, how fast and over what loop. Immutable; a newer
/// one (a higher generation) replaces it at the top of the next cycle.
/// - Thread: [any] (immutable once made on the control thread).
final class PlayerCommand: @unchecked Sendable {
    /// How the render thread takes a new command.
    enum Transition {
        /// Ends the sounding notes and plays from ``PlayerCommand/beat`` (start, seek, new sequence).
        case locate
        /// Ends the sounding notes and stays where the render thread is (stop).
        case stopInPlace
        /// Keeps playing from where it is, at the new rate or over the new loop.
        case continuePlaying
    }

    let generation: Int
    let schedule: PlaybackSchedule
    let transition: Transition
    let isPlaying: Bool
    /// Where a locate starts, in beats.
    let beat: MusicTimeStamp
    /// The play-rate scalar (> 0).
    let rate: Double
    /// The player's loop, in beats (upper > lower), if any.
    let loop: Range<MusicTimeStamp>?
    let sampleRate: Double
    /// What starts, stops and locates the song.
    let sync: MusicPlayerSyncSource

    init(generation: Int, schedule: PlaybackSchedule, transition: Transition, isPlaying: Bool, beat: MusicTimeStamp,
         rate: Double, loop: Range<MusicTimeStamp>?, sampleRate: Double, sync: MusicPlayerSyncSource) {
        self.sync = sync
        self.generation = generation
        self.schedule = schedule
        self.transition = transition
        self.isPlaying = isPlaying
        self.beat = beat
        self.rate = rate
        self.loop = loop
        self.sampleRate = sampleRate
    }
}
