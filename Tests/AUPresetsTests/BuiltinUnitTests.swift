import AUCore
import AUEngine
@testable import AUPresets
import Foundation
import Testing

/// Presets over AUHost's own built-in units (not fixtures): the splitter and, once the graph
/// layer ships it, the multichannel mixer with its per-input parameters.
@Suite struct BuiltinUnitTests {
    static let hasMixer = !ComponentRegistry(providers: [BuiltinUnits()]).components(matching: ComponentDescription(type: "aumx", subtype: "mcmx", manufacturer: "AUHs")).isEmpty

    let registry = ComponentRegistry(providers: [BuiltinUnits()])

    @Test func theSplitterFansOutAndGrowsItsOutputs() throws {
        let json = preset(
            nodes: #"{"id": "split", "unit": "Splitter"}"#,
            routing: #""connections": [["input:0", "split:0"], ["split:2", "output:0"]]"#)
        let loaded = try PresetLoader(registry: registry).load(data: Data(json.utf8), file: "split.json")
        defer { loaded.dispose() }
        #expect(loaded.nodes[0].unit.elementCount(.output) == 3)
        #expect(loaded.connections.last == LoadedConnection(source: .node(0, bus: 2), destination: .graphOutput(bus: 0)))
    }

    @Test func theSplitterHasNoParameters() {
        let found = problems(in: preset(nodes: #"{"id": "split", "unit": "aufx:splt:AUHs", "parameters": {"gain": 1}}"#, routing: #""chain": ["split"]"#), registry: registry)
        #expect(found.map(\.description) == ["Presets/test.json: nodes[0].parameters.gain: unknown parameter; 'Splitter' has no parameters that can be set"])
    }

    @Test(.enabled(if: hasMixer, "the built-in mixer is not in this build"))
    func theMixerTakesPerInputParametersByIdentifier() throws {
        let json = preset(
            nodes: #"""
            {"id": "split", "unit": "aufx:splt:AUHs"},
                {"id": "mix", "unit": "aumx:mcmx:AUHs", "parameters": {"volume1": 0.5, "pan0": -1, "mute9": 1, "volume": 2}}
            """#,
            routing: #""connections": [["input:0", "split:0"], ["split:0", "mix:0"], ["split:1", "mix:9"], ["mix:0", "output:0"]]"#)
        let loaded = try PresetLoader(registry: registry).load(data: Data(json.utf8), file: "mix.json")
        defer { loaded.dispose() }
        let mixer = loaded.nodes[1].unit
        #expect(mixer.elementCount(.input) == 10)
        #expect(try mixer.parameterValue(0, scope: .input, element: 1) == 0.5)
        #expect(try mixer.parameterValue(2, scope: .input, element: 0) == -1)
        #expect(try mixer.parameterValue(3, scope: .input, element: 9) == 1)
        #expect(try mixer.parameterValue(0, scope: .output, element: 0) == 2)
        let again = try loaded.makeUnits()
        defer { again.forEach { $0.dispose() } }
        #expect(again[1].elementCount(.input) == 10)
        #expect(try again[1].parameterValue(0, scope: .input, element: 1) == 0.5)
    }

    @Test(.enabled(if: hasMixer, "the built-in mixer is not in this build"))
    func theMixersMessagesNameTheInput() {
        let found = problems(
            in: preset(nodes: #"{"id": "mix", "unit": "aumx:mcmx:AUHs", "parameters": {"volume0": 5, "peakPower0": 0, "mute0": 0.5}}"#, routing: #""chain": ["mix"]"#),
            registry: registry)
        #expect(found.count == 3)
        guard found.count == 3 else { return }
        #expect(found[0].message == "5 is above the maximum 4 of 'Input 0 Volume'; expected 0...4")
        #expect(found[1].message.hasPrefix("'peakPower0' is a read-only output of 'Multichannel Mixer'; expected one of "))
        let suggested = found[1].message.components(separatedBy: ", such as: ").last ?? ""
        #expect(!suggested.isEmpty && !suggested.contains("peakPower"))  // outputs are never suggested
        #expect(found[2].message == "0.5 is not a whole number; 'Input 0 Mute' expects 0...1")
    }
}
