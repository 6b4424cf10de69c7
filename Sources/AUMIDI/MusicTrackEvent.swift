/// An event of a track at its time, as what `MusicEventIteratorGetEventInfo` returns.
/// - Thread: [any]
public struct MusicTrackEvent: Sendable, Hashable {
    /// When the event happens, in beats from the start of the track.
    public var timeStamp: MusicTimeStamp
    /// What happens.
    public var event: MusicEvent

    /// `event` at `timeStamp`.
    /// - Thread: [any]
    public init(timeStamp: MusicTimeStamp, event: MusicEvent) {
        self.timeStamp = timeStamp
        self.event = event
    }

    /// When the event ends: its time stamp plus its duration.
    /// - Thread: [any]
    public var endTimeStamp: MusicTimeStamp { timeStamp + event.duration }
}
