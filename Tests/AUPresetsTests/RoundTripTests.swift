import AUCore
@testable import AUPresets
import AUTestSupport
import Foundation
import Testing

@Suite struct RoundTripTests {
    static let rich = """
        {
          "auhost": 1,
          "name": "Vocal chain \\"deluxe\\" — ü",
          "description": "line one\\nline two\\ttab",
          "sampleRate": 44100,
          "nodes": [
            {"id": "eq", "unit": "aufx:fxeq:Test", "parameters": {"gain": -2.75, "mode": "Warm", "freq": 1234.5}, "preset": "Bass Boost", "bypass": false},
            {"id": "eq-2", "unit": "Fixture EQ", "bypass": true, "state": "\(stateBase64)"},
            {"id": "split", "unit": "aufx:splt:AUHs"},
            {"id": "mix", "unit": "aumx:fmix:Test"}
          ],
          "connections": [
            ["input:0", "eq:0"], ["eq:0", "split:0"], ["split:0", "eq-2:0"], ["split:1", "mix:1"], ["eq-2:0", "mix:0"], ["mix:0", "output:0"]
          ]
        }
        """

    static let stateBase64: String = {
        let unit = FixtureEQ()
        unit.curve = "bell"
        return try! unit.saveState().base64EncodedString()
    }()

    @Test func loadSaveLoadGivesTheSamePreset() throws {
        let first = try PresetLoader.decode(data: Data(Self.rich.utf8), file: "rich.json")
        let saved = PresetWriter.encode(first)
        let second = try PresetLoader.decode(data: saved, file: "saved.json")
        #expect(second == first)
        #expect(PresetWriter.encode(second) == saved)
        // And the checked load agrees with the plain read.
        let loaded = try PresetLoader(registry: makeRegistry()).load(data: saved, file: "saved.json")
        defer { loaded.dispose() }
        #expect(loaded.preset == first)
    }

    @Test func theSavedLayoutIsStable() throws {
        let preset = try PresetLoader.decode(data: Data(Self.rich.utf8), file: "rich.json")
        let text = PresetWriter.encodeString(preset)
        let expected = """
            {
              "auhost": 1,
              "name": "Vocal chain \\"deluxe\\" — ü",
              "description": "line one\\nline two\\ttab",
              "sampleRate": 44100,
              "nodes": [
                {
                  "id": "eq",
                  "unit": "aufx:fxeq:Test",
                  "parameters": {
                    "gain": -2.75,
                    "mode": "Warm",
                    "freq": 1234.5
                  },
                  "preset": "Bass Boost",
                  "bypass": false
                },
                {
                  "id": "eq-2",
                  "unit": "Fixture EQ",
                  "bypass": true,
                  "state": "\(Self.stateBase64)"
                },
                {
                  "id": "split",
                  "unit": "aufx:splt:AUHs"
                },
                {
                  "id": "mix",
                  "unit": "aumx:fmix:Test"
                }
              ],
              "connections": [
                ["input:0", "eq:0"],
                ["eq:0", "split:0"],
                ["split:0", "eq-2:0"],
                ["split:1", "mix:1"],
                ["eq-2:0", "mix:0"],
                ["mix:0", "output:0"]
              ]
            }

            """
        #expect(text == expected)
    }

    @Test(arguments: [0.1, -0.000_012_5, 1e-300, 123_456_789_012.5, 1e21, -0.0, 3])
    func numbersReadBackExactly(value: Double) throws {
        let preset = ChainPreset(
            name: "n", sampleRate: abs(value) + 1, nodes: [PresetNode(id: "a", unit: "x", parameters: [PresetParameter(key: "p", value: .number(value))])],
            routing: .chain(["a"]))
        let decoded = try PresetLoader.decode(data: PresetWriter.encode(preset), file: "n.json")
        #expect(decoded == preset)
        #expect(decoded.nodes[0].value(of: "p") == .number(value))
    }

    @Test func captureSaveLoadCaptureRoundTrips() throws {
        let registry = makeRegistry()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let eq = FixtureEQ()
        try eq.setParameter(0, value: 0.1)
        try eq.setParameter(2, value: 2)
        let tilted = FixtureEQ()
        tilted.curve = "tilt"
        try tilted.setValue(UnitPreset(number: 1, name: "Bass Boost"), for: .presentPreset)
        try tilted.setParameter(1, value: 90)
        try tilted.setValue(true, for: .bypassEffect)
        let split = try registry.instantiate("aufx:splt:AUHs")
        let units = [("eq", eq as AudioUnit, "aufx:fxeq:Test"), ("tilted", tilted, "aufx:fxeq:Test"), ("split", split, "aufx:splt:AUHs")].map {
            PresetCapture.Unit(id: $0.0, unit: $0.1, reference: $0.2)
        }
        let routing = PresetRouting.connections([
            PresetConnection(.input(), PresetEndpoint(node: "eq", bus: 0)),
            PresetConnection(PresetEndpoint(node: "eq", bus: 0), PresetEndpoint(node: "tilted", bus: 0)),
            PresetConnection(PresetEndpoint(node: "tilted", bus: 0), PresetEndpoint(node: "split", bus: 0)),
            PresetConnection(PresetEndpoint(node: "split", bus: 0), .output()),
        ])
        let captured = try PresetCapture().chain(name: "live", units: units, routing: routing)
        #expect(captured.routing == .chain(["eq", "tilted", "split"]))
        #expect(captured.nodes[0] == PresetNode(
            id: "eq", unit: "aufx:fxeq:Test", parameters: [PresetParameter(key: "gain", value: .number(0.1)), PresetParameter(key: "mode", value: .named("Hot"))]))
        #expect(captured.nodes[1].preset == "Bass Boost")
        #expect(captured.nodes[1].bypass == true)
        #expect(captured.nodes[1].state != nil)
        #expect(captured.nodes[1].parameters.map(\.key) == ["gain", "freq", "mode"])
        #expect(captured.nodes[2] == PresetNode(id: "split", unit: "aufx:splt:AUHs"))

        let file = folder.file("live.json")
        try PresetWriter.save(captured, to: file)
        let loaded = try PresetLoader(registry: registry).load(file: file)
        defer { loaded.dispose() }
        #expect(loaded.preset == captured)
        #expect(try loaded.capture() == captured)
        #expect((loaded.nodes[1].unit as? FixtureEQ)?.curve == "tilt")
        #expect(try loaded.nodes[0].unit.parameterValue(0) == 0.1)
    }

    @Test func captureAllRecordsEveryWritableParameter() throws {
        let node = try PresetCapture(parameters: .all).node(PresetCapture.Unit(id: "eq", unit: FixtureEQ(), reference: "aufx:fxeq:Test"))
        #expect(node.parameters == [
            PresetParameter(key: "gain", value: .number(0)), PresetParameter(key: "freq", value: .number(1000)),
            PresetParameter(key: "mode", value: .named("Clean")),
        ])
        #expect(node.state == nil && node.bypass == nil && node.preset == nil)
    }
}
