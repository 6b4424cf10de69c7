import AUCore
import AUEngine
import AUSampler

// Apple's units by Apple's descriptions (manufacturer `appl`), each made by a real AUHost
// unit: the built-in units AUEngine has under Apple's codes (GenericOutput, the mixer, the
// iPod EQ, the converter, the splitter), Apple's effects of this module (the filters,
// AUPeakLimiter, AUDelay, AUReverb2, AUDynamicsProcessor, AUNBandEQ), its players
// (AUAudioFilePlayer, AUScheduledSoundPlayer) and Apple's synths (AUHost's sampler with a
// General MIDI bank). The AudioToolbox library registers them for `AudioComponentFindNext`
// and AUGraph; AUHost's registry lists them, so `auhost` names, validates and chains them.
// Apple's device outputs (Remote I/O, the default and system outputs, AUHAL, voice
// processing) come last: all five play on one output device (``OutputDevice``: JACK, a
// file or nothing), each under its own description.

/// Apple-described units as a component provider (format `builtin`).
/// - Thread: [control]
public struct AppleUnits: ComponentProvider {
    /// Apple's manufacturer code.
    public static let manufacturer: FourCharCode = "appl"
    public static let manufacturerName = "Apple"

    /// The Apple descriptions AUEngine's built-in units serve: (type, subtype, Apple's name, the built-in's subtype).
    static let builtinMappings: [(type: FourCharCode, subtype: FourCharCode, name: String, builtin: FourCharCode)] = [
        ("auou", "genr", "AUGenericOutput", "genr"),
        ("aumx", "mcmx", "AUMultiChannelMixer", "mcmx"),
        ("aufx", "ipeq", "AUiPodEQ", "ipeq"),
        ("aufc", "conv", "AUConverter", "conv"),
        ("aufc", "splt", "AUSplitter", "splt"),
    ]

    /// One of this module's units: its type, subtype, Apple's name, category and factory.
    struct Unit {
        let type: FourCharCode, subtype: FourCharCode, name: String, category: String
        let make: @Sendable (ComponentDescription) throws(AudioUnitError) -> AudioUnit
        init(
            _ type: FourCharCode, _ subtype: FourCharCode, _ name: String, _ category: String,
            _ make: @escaping @Sendable (ComponentDescription) throws(AudioUnitError) -> AudioUnit
        ) {
            (self.type, self.subtype, self.name, self.category, self.make) = (type, subtype, name, category, make)
        }
    }

    /// This module's units: Apple's filters, dynamics, delay, reverb, EQ and players.
    static let units: [Unit] = AppleFilterKind.allCases.map { kind in Unit("aufx", kind.subtype, kind.name, "Filter") { AppleFilterUnit(kind: kind, description: $0) } }
        + [
            Unit("aufx", "lmtr", "AUPeakLimiter", "Dynamics") { PeakLimiterUnit(description: $0) },
            Unit("aufx", "dcmp", "AUDynamicsProcessor", "Dynamics") { DynamicsProcessorUnit(description: $0) },
            Unit("aufx", "dely", "AUDelay", "Delay") { DelayUnit(description: $0) },
            Unit("aufx", "rvb2", "AUReverb2", "Reverb") { Reverb2Unit(description: $0) },
            Unit("aufx", "nbeq", "AUNBandEQ", "EQ") { NBandEQUnit(description: $0) },
            Unit("augn", "afpl", "AUAudioFilePlayer", "Generator") { AudioFilePlayerUnit(description: $0) },
            Unit("augn", "sspl", "AUScheduledSoundPlayer", "Generator") { ScheduledSoundPlayerUnit(description: $0) },
            Unit("aumu", "samp", "AUSampler", "Instrument", generalMIDISynth),
            Unit("aumu", "dls ", "DLSMusicDevice", "Instrument", generalMIDISynth),
            Unit("aumu", "msyn", "AUMIDISynth", "Instrument", generalMIDISynth),
        ]

    /// Apple's music devices: AUHost's sampler (FluidSynth) with the system's General MIDI bank
    /// loaded when it is made (Apple's DLSSynth plays its GM bank; its Sampler a sine until an
    /// instrument is loaded, AUHost's the GM bank).
    @Sendable static func generalMIDISynth(_ description: ComponentDescription) throws(AudioUnitError) -> AudioUnit {
        let sampler = SamplerUnit(description: description)
        if let bank = SamplerUnit.defaultGeneralMIDIBank { try sampler.loadSoundBank(path: bank) }
        return sampler
    }

    /// - Thread: [control]
    public init() {}

    /// - Thread: [control]
    public var format: ComponentFormat { .builtin }

    /// One component per Apple description this module serves, the built-ins' first, the device outputs last.
    /// - Thread: [control]
    public func discoverComponents() -> (components: [Component], problems: [DiscoveryProblem]) {
        let builtins = BuiltinUnits().discoverComponents().components
        let mapped = Self.builtinMappings.compactMap { mapping -> Component? in
            guard let builtin = builtins.first(where: { $0.description.subtype == mapping.builtin }) else { return nil }
            return Self.component(mapping.type, mapping.subtype, mapping.name, category: builtin.category) { description throws(AudioUnitError) -> AudioUnit in
                guard let unit = BuiltinUnits.make(mapping.builtin, as: description) else {
                    throw AudioUnitError(.extensionNotFound, "no built-in unit \(mapping.builtin) behind \(description)")
                }
                return unit
            }
        }
        let own = Self.units.map { unit in
            Self.component(unit.type, unit.subtype, unit.name, category: unit.category) { description throws(AudioUnitError) -> AudioUnit in try unit.make(description) }
        }
        let outputs = OutputDevice.units.map { output in
            Self.component(ComponentType.output, output.subtype, output.name, category: "Output") { description throws(AudioUnitError) -> AudioUnit in
                try OutputDevice.makeUnit(description, name: output.name)
            }
        }
        return (mapped + own + outputs, [])
    }

    /// A component under Apple's description `type:subtype:appl`, named `Apple: NAME`, identified `appl:NAME`.
    static func component(
        _ type: FourCharCode, _ subtype: FourCharCode, _ name: String, category: String,
        make: @escaping @Sendable (ComponentDescription) throws(AudioUnitError) -> AudioUnit
    ) -> Component {
        let description = ComponentDescription(type: type, subtype: subtype, manufacturer: manufacturer)
        return Component(
            description: description, name: "Apple: \(name)", manufacturerName: manufacturerName, version: BuiltinUnits.version,
            format: .builtin, identifier: "appl:\(name)", category: category,
            factory: { () throws(AudioUnitError) -> AudioUnit in try make(description) })
    }
}
