import AUCore
import AUEngine
@testable import AUPresets
import Foundation
import Testing

@Suite struct LoadingTests {
    let registry = makeRegistry()

    func load(_ json: String, overrides: [ParameterOverride] = []) throws -> LoadedPreset {
        try PresetLoader(registry: registry).load(data: Data(json.utf8), file: "test.json", overrides: overrides)
    }

    @Test func aChainLoadsWithConfiguredInstances() throws {
        let loaded = try load(preset(
            nodes: #"""
            {"id": "eq", "unit": "Fixture EQ", "parameters": {"gain": -6.5, "mode": "warm"}, "preset": "Bass Boost", "bypass": true},
                {"id": "split", "unit": "aufx:splt:AUHs"}
            """#,
            routing: #""chain": ["eq", "split"]"#))
        defer { loaded.dispose() }
        #expect(loaded.nodes.map(\.id) == ["eq", "split"])
        #expect(loaded.nodes[1].component.name == "Splitter")
        let eq = loaded.nodes[0].unit
        #expect(try eq.parameterValue(0) == -6.5)   // the parameter wins over the preset's 6
        #expect(try eq.parameterValue(1) == 120)    // the preset's frequency stays
        #expect(try eq.parameterValue(2) == 1)      // "warm" is value 1, case aside
        #expect(try eq.value(of: .bypassEffect))
        #expect(try eq.value(of: .presentPreset).name == "Bass Boost")
        #expect(eq.state == .uninitialized)
        #expect(loaded.connections == [
            LoadedConnection(source: .graphInput(bus: 0), destination: .node(0, bus: 0)),
            LoadedConnection(source: .node(0, bus: 0), destination: .node(1, bus: 0)),
            LoadedConnection(source: .node(1, bus: 0), destination: .graphOutput(bus: 0)),
        ])
    }

    @Test func aGeneratorStartsAChain() throws {
        let loaded = try load(preset(
            nodes: #"{"id": "syn", "unit": "augn:fsyn:Test", "parameters": {"volume": 0.25}}, {"id": "eq", "unit": "aufx:fxeq:Test"}"#,
            routing: #""chain": ["syn", "eq"]"#))
        defer { loaded.dispose() }
        #expect(loaded.connections == [
            LoadedConnection(source: .node(0, bus: 0), destination: .node(1, bus: 0)),
            LoadedConnection(source: .node(1, bus: 0), destination: .graphOutput(bus: 0)),
        ])
    }

    @Test func withoutGraphInputsOnlyAGeneratorCanStartAChain() throws {
        let loader = PresetLoader(registry: registry, graphInputBuses: 0)
        let synth = preset(nodes: #"{"id": "syn", "unit": "augn:fsyn:Test"}, {"id": "eq", "unit": "aufx:fxeq:Test"}"#, routing: #""chain": ["syn", "eq"]"#)
        let loaded = try loader.load(data: Data(synth.utf8), file: "synth.json")
        loaded.dispose()
        do {
            _ = try loader.load(data: Data(preset().utf8), file: "fx.json")
            Issue.record("an effect chain loaded without a graph input")
        } catch {
            #expect(error.description == "fx.json: nodes[0]: nothing feeds node 'eq'; expected a connection into one of its 1 input bus(es)")
        }
    }

    @Test func busCountsGrowWhereTheUnitAllows() throws {
        let loaded = try load(preset(
            nodes: #"""
            {"id": "split", "unit": "aufx:splt:AUHs"}, {"id": "a", "unit": "aufx:fxeq:Test"}, {"id": "b", "unit": "aufx:fxeq:Test"},
                {"id": "mix", "unit": "aumx:fmix:Test"}
            """#,
            routing: #""connections": [["input:0", "split:0"], ["split:0", "a:0"], ["split:3", "b:0"], ["a:0", "mix:0"], ["b:0", "mix:2"], ["mix:0", "output:0"]]"#))
        defer { loaded.dispose() }
        #expect(loaded.nodes[0].unit.elementCount(.output) == 4)
        #expect(loaded.nodes[0].settings.elementCounts == [.output: 4])
        #expect(loaded.nodes[3].unit.elementCount(.input) == 3)
        #expect(loaded.nodes[3].settings.elementCounts == [.input: 3])
        let fresh = try loaded.makeUnits()
        defer { fresh.forEach { $0.dispose() } }
        #expect(fresh[0].elementCount(.output) == 4 && fresh[3].elementCount(.input) == 3)
    }

    @Test func makeUnitsGivesFreshInstancesSetTheSameWay() throws {
        let state = try { () throws -> Data in
            let unit = FixtureEQ()
            unit.curve = "tilt"
            try unit.setParameter(1, value: 440)
            return try unit.saveState()
        }()
        let loaded = try load(preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "state": "\#(state.base64EncodedString())", "parameters": {"gain": 3}}"#))
        defer { loaded.dispose() }
        let units = try loaded.makeUnits()
        defer { units.forEach { $0.dispose() } }
        let copy = try #require(units.first as? FixtureEQ)
        #expect(copy !== loaded.nodes[0].unit)
        #expect(copy.curve == "tilt")
        #expect(try copy.parameterValue(1) == 440)
        #expect(try copy.parameterValue(0) == 3)
    }

    @Test func aFailedLoadDisposesWhatItMade() throws {
        final class Recorder: @unchecked Sendable { var units: [AudioUnit] = [] }
        let recorder = Recorder()
        let registry = makeRegistry()
        registry.register(Component(
            description: ComponentDescription(type: "aufx", subtype: "rcrd", manufacturer: "Test"), name: "Recorded", manufacturerName: "Test",
            version: "1", format: .builtin, identifier: "test:rcrd",
            factory: { () throws(AudioUnitError) -> AudioUnit in
                let unit = FixtureEQ()
                recorder.units.append(unit)
                return unit
            }))
        let found = problems(in: preset(nodes: #"{"id": "eq", "unit": "Recorded", "parameters": {"gain": 100}}"#), registry: registry)
        #expect(found.map(\.kind) == [.valueOutOfRange])
        #expect(recorder.units.count == 1)
        #expect(recorder.units.allSatisfy { $0.state == .disposed })
    }

    @Test func overridesApplyAfterTheFileAndJoinThePreset() throws {
        let overrides = try ParameterOverride.parse(["eq.gain=-3", "eq.mode=Hot"])
        let loaded = try load(preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "parameters": {"gain": 12}}"#), overrides: overrides)
        defer { loaded.dispose() }
        #expect(try loaded.nodes[0].unit.parameterValue(0) == -3)
        #expect(try loaded.nodes[0].unit.parameterValue(2) == 2)
        #expect(loaded.preset.nodes[0].parameters == [
            PresetParameter(key: "gain", value: .number(-3)), PresetParameter(key: "mode", value: .named("Hot")),
        ])
        #expect(loaded.nodes[0].settings.parameters.map(\.value) == [-3, 2])
    }

    @Test func aPresetMadeInCodeIsCheckedTheSameWay() {
        let made = ChainPreset(
            name: "made", nodes: [PresetNode(id: "eq", unit: "aufx:fxeq:Test", parameters: [PresetParameter(key: "gain", value: .number(.infinity))])],
            routing: .connections([PresetConnection(.input(), PresetEndpoint(node: "eq", bus: 0)), PresetConnection(PresetEndpoint(node: "eq", bus: 0), .output())]))
        do {
            _ = try PresetLoader(registry: registry).load(made, file: "(made)")
            Issue.record("loaded an infinite gain")
        } catch {
            #expect(error.description == "(made): nodes[0].parameters.gain: expected a finite number for 'Gain (dB)', found inf")
        }
    }

    @Test func aLongParameterListIsCutToTheClosest() {
        let registry = makeRegistry()
        registry.register(Component(
            description: ComponentDescription(type: "aufx", subtype: "wide", manufacturer: "Test"), name: "Wide", manufacturerName: "Test",
            version: "1", format: .builtin, identifier: "test:wide",
            factory: { () throws(AudioUnitError) -> AudioUnit in
                AudioUnit(
                    description: ComponentDescription(type: "aufx", subtype: "wide", manufacturer: "Test"), name: "Wide",
                    inputs: [.canonical(channels: 2, name: "In")], outputs: [.canonical(channels: 2, name: "Out")],
                    parameters: (0..<40).map { ParameterInfo(id: ParameterID($0), identifier: "p\($0)", name: "P\($0)", min: 0, max: 1, default: 0) })
            }))
        let found = problems(in: preset(nodes: #"{"id": "w", "unit": "Wide", "parameters": {"p3x": 1}}"#, routing: #""chain": ["w"]"#), registry: registry)
        #expect(found.map(\.message) == ["unknown parameter of 'Wide'; expected one of 40, such as: p3, p30, p31, p32, p33, p34"])
    }

    @Test func builtInUnitsResolveByEveryKindOfReference() throws {
        for reference in ["aufx:splt:AUHs", "Splitter", "splitter", "builtin:Splitter"] {
            let loaded = try load(preset(nodes: #"{"id": "s", "unit": "\#(reference)"}"#, routing: #""chain": ["s"]"#))
            #expect(loaded.nodes[0].component.identifier == "builtin:Splitter")
            loaded.dispose()
        }
    }

    /// A bypassed node is bypassed in every instance made from the preset, not only the one
    /// the loader checked.
    @Test func freshInstancesKeepTheBypass() throws {
        let loaded = try load(preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "bypass": true}, {"id": "on", "unit": "aufx:fxeq:Test"}"#, routing: #""chain": ["eq", "on"]"#))
        defer { loaded.dispose() }
        let units = try loaded.makeUnits()
        defer { units.forEach { $0.dispose() } }
        #expect(try units.map { try $0.value(of: .bypassEffect) } == [true, false])
    }
}
