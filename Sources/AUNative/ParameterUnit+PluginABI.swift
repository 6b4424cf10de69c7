import AUCore
import CAUPluginABI

extension ParameterUnit {
    /// The host's unit for a parameter unit a native library reports (an
    /// `AUHOST_PARAMETER_UNIT_*` value); `.generic` for a value this host does not know.
    /// - Thread: [any]
    init(pluginABIValue value: UInt32) {
        self = switch value {
        case AUHOST_PARAMETER_UNIT_INDEXED: .indexed
        case AUHOST_PARAMETER_UNIT_BOOLEAN: .boolean
        case AUHOST_PARAMETER_UNIT_PERCENT: .percent
        case AUHOST_PARAMETER_UNIT_SECONDS: .seconds
        case AUHOST_PARAMETER_UNIT_SAMPLE_FRAMES: .sampleFrames
        case AUHOST_PARAMETER_UNIT_PHASE: .phase
        case AUHOST_PARAMETER_UNIT_RATE: .rate
        case AUHOST_PARAMETER_UNIT_HERTZ: .hertz
        case AUHOST_PARAMETER_UNIT_CENTS: .cents
        case AUHOST_PARAMETER_UNIT_RELATIVE_SEMITONES: .relativeSemitones
        case AUHOST_PARAMETER_UNIT_MIDI_NOTE_NUMBER: .midiNoteNumber
        case AUHOST_PARAMETER_UNIT_MIDI_CONTROLLER: .midiController
        case AUHOST_PARAMETER_UNIT_DECIBELS: .decibels
        case AUHOST_PARAMETER_UNIT_LINEAR_GAIN: .linearGain
        case AUHOST_PARAMETER_UNIT_DEGREES: .degrees
        case AUHOST_PARAMETER_UNIT_EQUAL_POWER_CROSSFADE: .equalPowerCrossfade
        case AUHOST_PARAMETER_UNIT_MIXER_FADER_CURVE_1: .mixerFaderCurve1
        case AUHOST_PARAMETER_UNIT_PAN: .pan
        case AUHOST_PARAMETER_UNIT_METERS: .meters
        case AUHOST_PARAMETER_UNIT_ABSOLUTE_CENTS: .absoluteCents
        case AUHOST_PARAMETER_UNIT_OCTAVES: .octaves
        case AUHOST_PARAMETER_UNIT_BPM: .bpm
        case AUHOST_PARAMETER_UNIT_BEATS: .beats
        case AUHOST_PARAMETER_UNIT_MILLISECONDS: .milliseconds
        case AUHOST_PARAMETER_UNIT_RATIO: .ratio
        case AUHOST_PARAMETER_UNIT_CUSTOM_UNIT: .customUnit
        default: .generic
        }
    }
}
