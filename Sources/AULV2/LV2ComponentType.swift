import AUCore

/// How an LV2 plugin becomes an Audio Unit type (the table in docs/LV2.md).
///
/// The plugin's class and its ancestors are tried from the most specific: Instrument →
/// `aumu`; Generator, Oscillator, Constant → `augn`; Mixer → `aumx`; Converter → `aufc`.
/// Any other class (Effect and its children, Analyser, Utility, MIDI, plain Plugin) is typed
/// by its ports: no audio but MIDI → `aumi`; audio out without audio in → `aumu` with a MIDI
/// input, else `augn`; audio in with a MIDI input → `aumf`; anything else → `aufx`.
/// - Thread: [any]
enum LV2ComponentType {
    /// Classes that decide the type by themselves.
    static let byClass: [String: FourCharCode] = [
        LV2URI.coreInstrumentPlugin: ComponentType.musicDevice,
        LV2URI.coreGeneratorPlugin: ComponentType.generator,
        LV2URI.coreOscillatorPlugin: ComponentType.generator,
        LV2URI.coreConstantPlugin: ComponentType.generator,
        LV2URI.coreMixerPlugin: ComponentType.mixer,
        LV2URI.coreConverterPlugin: ComponentType.formatConverter,
    ]

    /// The audio and MIDI ports that decide the type of a plugin whose class does not.
    struct PortSummary: Equatable {
        var audioInputs = 0
        var audioOutputs = 0
        var midiInputs = 0
        var midiOutputs = 0
    }

    /// The class that decides, if any, from the most specific class to the root.
    static func type(forClassChain chain: [String]) -> FourCharCode? {
        for uri in chain { if let type = byClass[uri] { return type } }
        return nil
    }

    /// The type by ports alone.
    static func type(for ports: PortSummary) -> FourCharCode {
        switch (ports.audioInputs > 0, ports.audioOutputs > 0) {
        case (false, false):
            return ports.midiInputs + ports.midiOutputs > 0 ? ComponentType.midiProcessor : ComponentType.effect
        case (false, true):
            return ports.midiInputs > 0 ? ComponentType.musicDevice : ComponentType.generator
        case (true, _):
            return ports.midiInputs > 0 ? ComponentType.musicEffect : ComponentType.effect
        }
    }
}
