/// A note: a note-on paired with its note-off, as Core Audio's `MIDINoteMessage`.
/// Reading pairs each note-off (or note-on with velocity 0) with the earliest pending
/// note-on of the same channel and key; a note-on that is never released lasts to the end
/// of its track. Writing gives a note-on at the event's time and a note-off `duration` later.
/// - Thread: [any]
public struct MIDINoteMessage: Sendable, Hashable {
    /// The MIDI channel, 0-15 (written masked to 4 bits).
    public var channel: UInt8
    /// The key, 0-127 (written masked to 7 bits).
    public var note: UInt8
    /// The note-on velocity, 1-127; 0 is written as 1, since a note-on with velocity 0 is a
    /// note-off.
    public var velocity: UInt8
    /// The note-off velocity, 0-127; 0 when the note ended with a note-on of velocity 0.
    public var releaseVelocity: UInt8
    /// How long the note sounds, in beats.
    public var duration: MusicTimeStamp

    /// A note of `duration` beats.
    /// - Thread: [any]
    public init(
        channel: UInt8, note: UInt8, velocity: UInt8, releaseVelocity: UInt8 = 0,
        duration: MusicTimeStamp
    ) {
        self.channel = channel
        self.note = note
        self.velocity = velocity
        self.releaseVelocity = releaseVelocity
        self.duration = duration
    }
}
