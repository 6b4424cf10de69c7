/// How a track loops, as Core Audio's `MusicTrackLoopInfo` (`kSequenceTrackProperty_LoopInfo`).
/// Kept with the track; not written to files.
/// - Thread: [any]
public struct MusicTrackLoopInfo: Sendable, Hashable {
    /// The length of the looped part, in beats from the start of the track; 0: no looping.
    public var loopDuration: MusicTimeStamp
    /// How many times the part plays; 0: forever.
    public var numberOfLoops: Int32

    /// Loops the first `loopDuration` beats `numberOfLoops` times (0: forever).
    /// - Thread: [any]
    public init(loopDuration: MusicTimeStamp = 0, numberOfLoops: Int32 = 0) {
        self.loopDuration = loopDuration
        self.numberOfLoops = numberOfLoops
    }
}
