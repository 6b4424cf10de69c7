import AUCore
import AUEngine
@testable import AUPresets
import Foundation
import Testing

/// A test fixture: a stereo EQ (`aufx:fxeq:Test`) with a gain in dB, a frequency, an
/// indexed mode, an output meter, two factory presets, and custom state (a curve name).
final class FixtureEQ: AudioUnit, @unchecked Sendable {
    static let description = ComponentDescription(type: "aufx", subtype: "fxeq", manufacturer: "Test")
    var curve = "linear"

    init() {
        super.init(
            description: Self.description, name: "Fixture EQ",
            inputs: [.canonical(channels: 2, name: "In")], outputs: [.canonical(channels: 2, name: "Out")],
            parameters: [
                ParameterInfo(id: 0, identifier: "gain", name: "Gain", unit: .decibels, min: -24, max: 24, default: 0),
                ParameterInfo(id: 1, identifier: "freq", name: "Frequency", unit: .hertz, min: 20, max: 20_000, default: 1000),
                ParameterInfo(id: 2, identifier: "mode", name: "Mode", unit: .indexed, min: 0, max: 2, default: 0, valueStrings: ["Clean", "Warm", "Hot"]),
                ParameterInfo(id: 3, identifier: "level", name: "Level", unit: .decibels, min: -96, max: 0, default: -96, flags: [.isReadable, .isOutput]),
            ])
    }

    override var factoryPresets: [UnitPreset] { [UnitPreset(number: 0, name: "Flat"), UnitPreset(number: 1, name: "Bass Boost")] }

    override func applyFactoryPreset(_ preset: UnitPreset) throws(AudioUnitError) {
        try setParameter(0, value: preset.number == 1 ? 6 : 0)
        try setParameter(1, value: preset.number == 1 ? 120 : 1000)
    }

    override func saveCustomState() throws(AudioUnitError) -> Data? { curve == "linear" ? nil : Data(curve.utf8) }

    override func restoreCustomState(_ data: Data) throws(AudioUnitError) { curve = String(decoding: data, as: UTF8.self) }
}

/// A generator (`augn:fsyn:Test`): no input bus, one stereo output, a volume.
final class FixtureSynth: AudioUnit, @unchecked Sendable {
    static let description = ComponentDescription(type: "augn", subtype: "fsyn", manufacturer: "Test")
    init() {
        super.init(
            description: Self.description, name: "Fixture Synth", inputs: [], outputs: [.canonical(channels: 2, name: "Out")],
            parameters: [ParameterInfo(id: 0, identifier: "volume", name: "Volume", unit: .linearGain, min: 0, max: 1, default: 0.5)])
    }
}

/// A sink (`aufx:fsnk:Test`): one input bus, no output bus and no MIDI output, as an LV2
/// analyser with neither audio nor MIDI out: nothing of it can be rendered.
final class FixtureSink: AudioUnit, @unchecked Sendable {
    static let description = ComponentDescription(type: "aufx", subtype: "fsnk", manufacturer: "Test")
    init() {
        super.init(description: Self.description, name: "Fixture Sink", inputs: [.canonical(channels: 2, name: "In")], outputs: [], parameters: [])
    }
}

/// A mixer (`aumx:fmix:Test`): two inputs by default, as many as asked for, one output.
final class FixtureMixer: AudioUnit, @unchecked Sendable {
    static let description = ComponentDescription(type: "aumx", subtype: "fmix", manufacturer: "Test")
    init() {
        super.init(
            description: Self.description, name: "Fixture Mixer",
            inputs: [.canonical(channels: 2, name: "In 0"), .canonical(channels: 2, name: "In 1")],
            outputs: [.canonical(channels: 2, name: "Out")], parameters: [])
    }
    override func canChangeElementCount(scope: Scope) -> Bool { scope == .input }
}

/// A registry of the built-in units and the fixtures, plus two units both named "Twin".
func makeRegistry() -> ComponentRegistry {
    let registry = ComponentRegistry(providers: [BuiltinUnits()])
    func add(_ description: ComponentDescription, _ name: String, _ make: @escaping @Sendable () -> AudioUnit) {
        registry.register(Component(
            description: description, name: name, manufacturerName: "Test", version: "1.0", format: .builtin,
            identifier: "test:\(description.subtype)", factory: { () throws(AudioUnitError) -> AudioUnit in make() }))
    }
    add(FixtureEQ.description, "Fixture EQ") { FixtureEQ() }
    add(FixtureSynth.description, "Fixture Synth") { FixtureSynth() }
    add(FixtureMixer.description, "Fixture Mixer") { FixtureMixer() }
    add(FixtureSink.description, "Fixture Sink") { FixtureSink() }
    add(ComponentDescription(type: "aufx", subtype: "twn1", manufacturer: "Test"), "Twin") { FixtureEQ() }
    add(ComponentDescription(type: "aufx", subtype: "twn2", manufacturer: "Test"), "Twin") { FixtureEQ() }
    return registry
}

/// Loads JSON text as `file` and returns its problems (none when it loads).
func problems(in json: String, file: String = "Presets/test.json", overrides: [ParameterOverride] = [], registry: ComponentRegistry = makeRegistry()) -> [PresetProblem] {
    do {
        let loaded = try PresetLoader(registry: registry).load(data: Data(json.utf8), file: file, overrides: overrides)
        loaded.dispose()
        return []
    } catch {
        return error.problems
    }
}

/// A valid two-node chain, to break one piece at a time: `nodes` and the routing replace the defaults.
func preset(nodes: String = #"{"id": "eq", "unit": "aufx:fxeq:Test"}"#, routing: String = #""chain": ["eq"]"#, extra: String = "") -> String {
    """
    {
      "auhost": 1,
      "name": "Test chain",\(extra)
      "nodes": [
        \(nodes)
      ],
      \(routing)
    }
    """
}
