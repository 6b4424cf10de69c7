import CAUPluginABI

/// The unit a parameter value is in: Core Audio's `AudioUnitParameterUnit`, with the values
/// `auhost_plugin.h` defines (`AUHOST_PARAMETER_UNIT_*`); the SDK repeats none of them.
/// - Thread: [any] (a plain value).
public struct PluginParameterUnit: RawRepresentable, Hashable, Sendable {
    /// The `AUHOST_PARAMETER_UNIT_*` value.
    public let rawValue: UInt32

    /// The unit with an `AUHOST_PARAMETER_UNIT_*` value.
    /// - Thread: [any]
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `AUHOST_PARAMETER_UNIT_GENERIC`: a plain number.
    public static let generic = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_GENERIC)
    /// `AUHOST_PARAMETER_UNIT_INDEXED`: a whole number naming a choice (value strings).
    public static let indexed = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_INDEXED)
    /// `AUHOST_PARAMETER_UNIT_BOOLEAN`: 0 off, 1 on.
    public static let boolean = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_BOOLEAN)
    /// `AUHOST_PARAMETER_UNIT_PERCENT`: 0 to 100.
    public static let percent = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_PERCENT)
    /// `AUHOST_PARAMETER_UNIT_SECONDS`.
    public static let seconds = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_SECONDS)
    /// `AUHOST_PARAMETER_UNIT_SAMPLE_FRAMES`.
    public static let sampleFrames = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_SAMPLE_FRAMES)
    /// `AUHOST_PARAMETER_UNIT_PHASE`: radians.
    public static let phase = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_PHASE)
    /// `AUHOST_PARAMETER_UNIT_RATE`: a rate multiplier.
    public static let rate = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_RATE)
    /// `AUHOST_PARAMETER_UNIT_HERTZ`.
    public static let hertz = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_HERTZ)
    /// `AUHOST_PARAMETER_UNIT_CENTS`.
    public static let cents = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_CENTS)
    /// `AUHOST_PARAMETER_UNIT_RELATIVE_SEMITONES`.
    public static let relativeSemitones = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_RELATIVE_SEMITONES)
    /// `AUHOST_PARAMETER_UNIT_MIDI_NOTE_NUMBER`: 0 to 127.
    public static let midiNoteNumber = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_MIDI_NOTE_NUMBER)
    /// `AUHOST_PARAMETER_UNIT_MIDI_CONTROLLER`: 0 to 127.
    public static let midiController = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_MIDI_CONTROLLER)
    /// `AUHOST_PARAMETER_UNIT_DECIBELS`.
    public static let decibels = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_DECIBELS)
    /// `AUHOST_PARAMETER_UNIT_LINEAR_GAIN`: 0 to 1.
    public static let linearGain = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_LINEAR_GAIN)
    /// `AUHOST_PARAMETER_UNIT_DEGREES`.
    public static let degrees = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_DEGREES)
    /// `AUHOST_PARAMETER_UNIT_EQUAL_POWER_CROSSFADE`.
    public static let equalPowerCrossfade = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_EQUAL_POWER_CROSSFADE)
    /// `AUHOST_PARAMETER_UNIT_MIXER_FADER_CURVE_1`.
    public static let mixerFaderCurve1 = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_MIXER_FADER_CURVE_1)
    /// `AUHOST_PARAMETER_UNIT_PAN`: -1 left to 1 right.
    public static let pan = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_PAN)
    /// `AUHOST_PARAMETER_UNIT_METERS`.
    public static let meters = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_METERS)
    /// `AUHOST_PARAMETER_UNIT_ABSOLUTE_CENTS`.
    public static let absoluteCents = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_ABSOLUTE_CENTS)
    /// `AUHOST_PARAMETER_UNIT_OCTAVES`.
    public static let octaves = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_OCTAVES)
    /// `AUHOST_PARAMETER_UNIT_BPM`: beats per minute.
    public static let bpm = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_BPM)
    /// `AUHOST_PARAMETER_UNIT_BEATS`.
    public static let beats = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_BEATS)
    /// `AUHOST_PARAMETER_UNIT_MILLISECONDS`.
    public static let milliseconds = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_MILLISECONDS)
    /// `AUHOST_PARAMETER_UNIT_RATIO`.
    public static let ratio = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_RATIO)
    /// `AUHOST_PARAMETER_UNIT_CUSTOM_UNIT`: named by the unit.
    public static let customUnit = PluginParameterUnit(rawValue: AUHOST_PARAMETER_UNIT_CUSTOM_UNIT)
}
