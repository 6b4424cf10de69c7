/// The data of a time-signature meta event (`FF 58 04 nn dd cc bb`).
/// - Thread: [any]
public struct MIDITimeSignature: Sendable, Hashable {
    /// Beats per bar, counting `denominator` notes.
    public var numerator: UInt8
    /// The denominator as a power of two: 2 for quarter notes, 3 for eighths.
    public var denominatorPower: UInt8
    /// MIDI clocks (24 per quarter note) per metronome click.
    public var clocksPerClick: UInt8
    /// Notated 32nd notes per MIDI quarter note (24 MIDI clocks), normally 8.
    public var thirtySecondNotesPerQuarter: UInt8

    /// A signature of `numerator` over `2^denominatorPower`.
    /// - Thread: [any]
    public init(
        numerator: UInt8, denominatorPower: UInt8, clocksPerClick: UInt8 = 24,
        thirtySecondNotesPerQuarter: UInt8 = 8
    ) {
        self.numerator = numerator
        self.denominatorPower = denominatorPower
        self.clocksPerClick = clocksPerClick
        self.thirtySecondNotesPerQuarter = thirtySecondNotesPerQuarter
    }

    /// The note value of a beat: `2^denominatorPower` (4 for quarters, 8 for eighths); 0 when
    /// the power is above 62.
    /// - Thread: [any]
    public var denominator: Int { denominatorPower <= 62 ? 1 << Int(denominatorPower) : 0 }
}
