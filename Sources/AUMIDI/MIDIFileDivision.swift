/// The time division of a Standard MIDI File's header: how long a tick is.
/// - Thread: [any]
public enum MIDIFileDivision: Sendable, Hashable {
    /// Ticks per quarter note (1-32767): time stamps are `ticks / ticksPerQuarterNote` beats.
    case ticksPerQuarterNote(UInt16)
    /// `framesPerSecond` (24, 25, 29 for 29.97 drop-frame, or 30; written as the negative
    /// byte) times `ticksPerFrame` ticks per second. Time stamps are then beats of the
    /// default 120 BPM tempo (beats = seconds * 2), and tempo meta events stay meta events.
    case smpte(framesPerSecond: UInt8, ticksPerFrame: UInt8)

    /// Ticks per beat (per quarter note): for SMPTE, `framesPerSecond * ticksPerFrame / 2`.
    /// - Thread: [any]
    public var ticksPerBeat: Double {
        switch self {
        case .ticksPerQuarterNote(let ticks):
            Double(ticks)
        case .smpte(let framesPerSecond, let ticksPerFrame):
            Double(framesPerSecond) * Double(ticksPerFrame) / 2
        }
    }
}
