import AUCore
import CFluidSynth

/// The sampler's parameters (global scope), by ID. Their ranges and defaults are
/// FluidSynth's own settings (`synth.gain`, `synth.reverb.*`, `synth.chorus.*`), so a
/// sampler left at its defaults sounds as the `fluidsynth` tool does.
/// - Thread: [any]
public enum SamplerParameter: ParameterID, CaseIterable, Sendable {
    /// Output gain, linear (`synth.gain`, FluidSynth's `-g`): 0…10, default 0.2.
    case gain = 0
    /// Tuning of every channel in cents: −1200…1200, default 0.
    case tuning
    /// Voices at most (`synth.polyphony`): 1…1024, default 256. The voices are allocated
    /// when the synthesizer is built, so a change rebuilds it on the control side.
    case polyphony
    /// Sample interpolation: none, linear, 4th order (the default), 7th order.
    case interpolation
    /// FluidSynth's reverb on (1) or off (0).
    case reverb
    case reverbRoomSize
    case reverbDamping
    case reverbWidth
    case reverbLevel
    /// FluidSynth's chorus on (1) or off (0).
    case chorus
    /// Chorus voices (delay lines): 0…99, default 3.
    case chorusVoices
    case chorusLevel
    case chorusSpeed
    case chorusDepth

    /// FluidSynth's interpolation method for a value of ``interpolation`` (a switch, not an
    /// array: the render thread calls it).
    static func interpolationMethod(_ value: Float) -> Int32 {
        switch value {
        case ..<0.5: Int32(FLUID_INTERP_NONE.rawValue)
        case ..<1.5: Int32(FLUID_INTERP_LINEAR.rawValue)
        case ..<2.5: Int32(FLUID_INTERP_4THORDER.rawValue)
        default: Int32(FLUID_INTERP_7THORDER.rawValue)
        }
    }

    /// The parameter's description, as the unit declares it.
    /// - Thread: [any]
    public var info: ParameterInfo {
        switch self {
        case .gain: info("gain", "Gain", .linearGain, 0...10, 0.2)
        case .tuning: info("tuning", "Tuning", .cents, -1200...1200, 0)
        case .polyphony: info("polyphony", "Polyphony", .generic, 1...1024, 256)
        case .interpolation:
            ParameterInfo(
                id: rawValue, identifier: "interpolation", name: "Interpolation", unit: .indexed, min: 0, max: 3, default: 2,
                valueStrings: ["None", "Linear", "4th order", "7th order"])
        case .reverb: info("reverb", "Reverb", .boolean, 0...1, 1)
        case .reverbRoomSize: info("reverb_room_size", "Reverb Room Size", .generic, 0...1, 0.2)
        case .reverbDamping: info("reverb_damping", "Reverb Damping", .generic, 0...1, 0)
        case .reverbWidth: info("reverb_width", "Reverb Width", .generic, 0...100, 0.5)
        case .reverbLevel: info("reverb_level", "Reverb Level", .generic, 0...1, 0.9)
        case .chorus: info("chorus", "Chorus", .boolean, 0...1, 1)
        case .chorusVoices: info("chorus_voices", "Chorus Voices", .generic, 0...99, 3)
        case .chorusLevel: info("chorus_level", "Chorus Level", .generic, 0...10, 2)
        case .chorusSpeed: info("chorus_speed", "Chorus Speed", .hertz, 0.1...5, 0.3)
        case .chorusDepth: info("chorus_depth", "Chorus Depth", .milliseconds, 0...256, 8)
        }
    }

    private func info(_ identifier: String, _ name: String, _ unit: ParameterUnit, _ range: ClosedRange<Float>, _ value: Float) -> ParameterInfo {
        ParameterInfo(id: rawValue, identifier: identifier, name: name, unit: unit, min: range.lowerBound, max: range.upperBound, default: value)
    }

    /// Every parameter's description, in ID order (the parameter table's slots).
    static var infos: [ParameterInfo] { allCases.map(\.info) }
}
