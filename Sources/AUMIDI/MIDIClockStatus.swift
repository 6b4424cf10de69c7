import AUCore

/// The MIDI messages of clock sync (MIDI 1.0's system real-time and song position
/// messages), by status byte.
/// - Thread: [any]
public enum MIDIClockStatus: UInt8, Sendable, Hashable, CaseIterable {
    /// Timing Clock: 24 per quarter note while the transport rolls.
    case timingClock = 0xF8
    /// Start: play from song position 0 at the next clock.
    case start = 0xFA
    /// Continue: play from the present song position at the next clock.
    case `continue` = 0xFB
    /// Stop: stay at the present song position.
    case stop = 0xFC
    /// Song Position Pointer: the position in sixteenth notes (6 clocks each), 14 bits, LSB
    /// then MSB.
    case songPositionPointer = 0xF2

    /// The highest song position a pointer carries: 16383 sixteenths (beat 4095.75).
    /// - Thread: [any]
    public static let maximumSongPosition = 16_383

    /// Clocks per sixteenth note.
    /// - Thread: [any]
    public static let clocksPerSixteenth: Int64 = 6

    /// The message `status` at `offset` (a song position pointer carrying 0).
    /// - Thread: [any]
    public func event(offset: Int32) -> MIDIEvent {
        MIDIEvent(offset: offset, status: rawValue, data1: 0, data2: 0)
    }

    /// A song position pointer at `sixteenths` (clamped to 0-16383) at `offset`.
    /// - Thread: [any]
    public static func songPositionPointer(sixteenths: Int64, offset: Int32) -> MIDIEvent {
        let position = UInt16(min(max(sixteenths, 0), Int64(maximumSongPosition)))
        return MIDIEvent(offset: offset, status: Self.songPositionPointer.rawValue,
                         data1: UInt8(position & 0x7F), data2: UInt8(position >> 7))
    }

    /// The sixteenths a song position pointer's data bytes carry (high bits ignored).
    /// - Thread: [any]
    public static func sixteenths(ofSongPositionPointer event: MIDIEvent) -> Int64 {
        Int64(event.data1 & 0x7F) | Int64(event.data2 & 0x7F) << 7
    }
}
