import AUCore
@testable import AUPresets
import Foundation
import Testing

/// One preset with exactly one thing wrong, and how the problem must read.
struct ProblemCase: Sendable, CustomTestStringConvertible {
    var name: String
    var json: String
    var kind: PresetProblem.Kind
    var path: String
    /// Text the message must contain: what was expected and what was found.
    var fragments: [String]
    var testDescription: String { name }
}

let eq = #"{"id": "eq", "unit": "aufx:fxeq:Test"}"#

let problemCases: [ProblemCase] = [
    ProblemCase(
        name: "malformed JSON", json: "{\n  \"auhost\": 1,\n  \"nodes\": [}\n}", kind: .malformedJSON, path: "nodes[0]",
        fragments: ["not valid JSON: expected a value", "found '}' at line 3, column 13"]),
    ProblemCase(
        name: "trailing comma", json: preset(nodes: eq + ","), kind: .malformedJSON, path: "nodes[1]",
        fragments: ["expected a value", "found ']' at line 6"]),
    ProblemCase(
        name: "wrong JSON type: 1 for a boolean", json: preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "bypass": 1}"#),
        kind: .wrongType, path: "nodes[0].bypass", fragments: ["expected true or false, found the number 1"]),
    ProblemCase(
        name: "wrong JSON type: true for a parameter", json: preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "parameters": {"gain": true}}"#),
        kind: .wrongType, path: "nodes[0].parameters.gain", fragments: ["expected a number or a value string, found true"]),
    ProblemCase(
        name: "wrong JSON type: nodes", json: preset().replacingOccurrences(of: "\"nodes\": [", with: "\"nodes\": {\"x\": [").replacingOccurrences(of: "\n  ],", with: "\n  ]},"),
        kind: .wrongType, path: "nodes", fragments: ["expected an array of nodes, found an object"]),
    ProblemCase(
        name: "unknown key", json: preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "bypas": true}"#),
        kind: .unknownKey, path: "nodes[0].bypas", fragments: ["unknown key; expected one of: id, unit, parameters, soundbank, bank, program, preset, bypass, isolation, state"]),
    ProblemCase(
        name: "unknown top-level key", json: preset(extra: "\n  \"rate\": 48000,"),
        kind: .unknownKey, path: "rate", fragments: ["expected one of: auhost, name, description, sampleRate, nodes, chain, connections"]),
    ProblemCase(
        name: "duplicate key", json: preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "id": "eq2"}"#),
        kind: .duplicateKey, path: "nodes[0].id", fragments: ["duplicate key; expected each key once"]),
    ProblemCase(
        name: "unsupported version", json: preset().replacingOccurrences(of: "\"auhost\": 1", with: "\"auhost\": 2"),
        kind: .unsupportedVersion, path: "auhost", fragments: ["unsupported schema version 2; expected 1"]),
    ProblemCase(
        name: "missing required key", json: preset(nodes: #"{"id": "eq"}"#),
        kind: .missingKey, path: "nodes[0].unit", fragments: ["missing required key; expected a unit reference"]),
    ProblemCase(
        name: "missing routing", json: preset(routing: #""description": "no routing""#),
        kind: .missingKey, path: "chain", fragments: ["expected \"chain\"", "or \"connections\""]),
    ProblemCase(
        name: "chain and connections", json: preset(routing: #""chain": ["eq"], "connections": [["input:0", "eq:0"], ["eq:0", "output:0"]]"#),
        kind: .invalidValue, path: "connections", fragments: ["a file has chain or connections, not both"]),
    ProblemCase(
        name: "bad sample rate", json: preset(extra: "\n  \"sampleRate\": 0,"),
        kind: .invalidValue, path: "sampleRate", fragments: ["expected a sample rate in 8000...768000 Hz, found 0"]),
    ProblemCase(
        name: "bad node id", json: preset(nodes: #"{"id": "my eq", "unit": "aufx:fxeq:Test"}"#, routing: #""chain": ["my eq"]"#),
        kind: .invalidValue, path: "nodes[0].id", fragments: ["expected a node id of ASCII letters, digits", "found \"my eq\""]),
    ProblemCase(
        name: "duplicate node id", json: preset(nodes: eq + ",\n" + eq),
        kind: .duplicateNodeID, path: "nodes[1].id", fragments: ["duplicate node id \"eq\"; expected a unique id (nodes[0] has it too)"]),
    ProblemCase(
        name: "unknown unit", json: preset(nodes: #"{"id": "eq", "unit": "Fixtur EQQ"}"#),
        kind: .unknownUnit, path: "nodes[0].unit",
        fragments: ["no unit matches \"Fixtur EQQ\"; expected type:subtype:manufacturer, lv2:URI or an exact name", "closest matches: aufx:fxeq:Test Fixture EQ (builtin: test:fxeq)"]),
    ProblemCase(
        name: "ambiguous unit name", json: preset(nodes: #"{"id": "eq", "unit": "Twin"}"#),
        kind: .ambiguousUnit, path: "nodes[0].unit",
        fragments: ["\"Twin\" names 2 units; expected one of: aufx:twn1:Test Twin (builtin: test:twn1); aufx:twn2:Test Twin (builtin: test:twn2)"]),
    ProblemCase(
        name: "unknown parameter", json: preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "parameters": {"gian": 3}}"#),
        kind: .unknownParameter, path: "nodes[0].parameters.gian", fragments: ["unknown parameter of 'Fixture EQ'; expected one of: gain, freq, mode"]),
    ProblemCase(
        name: "read-only parameter", json: preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "parameters": {"level": -6}}"#),
        kind: .readOnlyParameter, path: "nodes[0].parameters.level", fragments: ["'level' is a read-only output of 'Fixture EQ'; expected one of: gain, freq, mode"]),
    ProblemCase(
        name: "value above the maximum", json: preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "parameters": {"gain": 40}}"#),
        kind: .valueOutOfRange, path: "nodes[0].parameters.gain", fragments: ["40 is above the maximum 24 of 'Gain (dB)'; expected -24...24 dB"]),
    ProblemCase(
        name: "value below the minimum", json: preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "parameters": {"freq": 10.5}}"#),
        kind: .valueOutOfRange, path: "nodes[0].parameters.freq", fragments: ["10.5 is below the minimum 20 of 'Frequency (Hz)'; expected 20...20000 Hz"]),
    ProblemCase(
        name: "fraction for an indexed parameter", json: preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "parameters": {"mode": 1.5}}"#),
        kind: .valueOutOfRange, path: "nodes[0].parameters.mode", fragments: ["1.5 is not a whole number; 'Mode' expects 0...2 or one of: Clean, Warm, Hot"]),
    ProblemCase(
        name: "unknown value string", json: preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "parameters": {"mode": "Loud"}}"#),
        kind: .unknownValueString, path: "nodes[0].parameters.mode", fragments: ["\"Loud\" is not a value of 'Mode'; expected one of: Clean, Warm, Hot"]),
    ProblemCase(
        name: "string for a numeric parameter", json: preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "parameters": {"gain": "loud"}}"#),
        kind: .wrongType, path: "nodes[0].parameters.gain", fragments: ["expected a number for 'Gain (dB)', found the string \"loud\""]),
    ProblemCase(
        name: "unknown factory preset", json: preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "preset": "Treble"}"#),
        kind: .unknownFactoryPreset, path: "nodes[0].preset", fragments: ["\"Treble\" is not a factory preset of 'Fixture EQ'; expected one of: Flat, Bass Boost"]),
    ProblemCase(
        name: "state not base64", json: preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "state": "not base64!"}"#),
        kind: .badState, path: "nodes[0].state", fragments: ["expected base64 ClassInfo data, found the string \"not base64!\", which is not base64"]),
    ProblemCase(
        name: "state the unit refuses", json: preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "state": "aGVsbG8="}"#),
        kind: .badState, path: "nodes[0].state", fragments: ["expected the saved state of 'Fixture EQ', found state it refuses", "not a saved AUHost unit state"]),
    ProblemCase(
        name: "connection to an unknown node", json: preset(routing: #""connections": [["input:0", "eq:0"], ["eq:0", "cmp:0"]]"#),
        kind: .badConnection, path: "connections[1][1]", fragments: ["unknown node \"cmp\"; expected input, output or a node id: eq"]),
    ProblemCase(
        name: "chain of an unknown node", json: preset(routing: #""chain": ["eq", "comp"]"#),
        kind: .badConnection, path: "chain[1]", fragments: ["unknown node \"comp\"; expected input, output or a node id: eq"]),
    ProblemCase(
        name: "bus out of range", json: preset(routing: #""connections": [["input:0", "eq:3"], ["eq:0", "output:0"]]"#),
        kind: .badConnection, path: "connections[0][1]", fragments: ["expected an input bus of 'Fixture EQ' in 0...0, found 3 in \"eq:3\""]),
    ProblemCase(
        name: "graph bus out of range", json: preset(routing: #""connections": [["input:1", "eq:0"], ["eq:0", "output:0"]]"#),
        kind: .badConnection, path: "connections[0][0]", fragments: ["expected an input bus of the graph in 0...0, found 1"]),
    ProblemCase(
        name: "malformed node:bus", json: preset(routing: #""connections": [["input:0", "eq"], ["eq:0", "output:0"]]"#),
        kind: .badConnection, path: "connections[0][1]", fragments: ["expected \"node:bus\" (such as \"eq:0\", \"input:0\" or \"output:0\"), found \"eq\""]),
    ProblemCase(
        name: "connection not a pair", json: preset(routing: #""connections": [["input:0", "eq:0", "output:0"]]"#),
        kind: .badConnection, path: "connections[0]", fragments: ["expected a pair [\"source:bus\", \"destination:bus\"], found 3 elements"]),
    ProblemCase(
        name: "output as a source", json: preset(routing: #""connections": [["input:0", "eq:0"], ["output:0", "eq:0"]]"#),
        kind: .badConnection, path: "connections[1][0]", fragments: ["output is where audio leaves the graph; expected a node or input as the source"]),
    ProblemCase(
        name: "an input fed twice", json: preset(routing: #""connections": [["input:0", "eq:0"], ["input:0", "eq:0"], ["eq:0", "output:0"]]"#),
        kind: .badConnection, path: "connections[1]", fragments: ["eq:0 is already fed by connections[0]; expected one source per input bus"]),
    ProblemCase(
        name: "generator in the middle of a chain",
        json: preset(nodes: eq + ",\n" + #"{"id": "syn", "unit": "augn:fsyn:Test"}"#, routing: #""chain": ["eq", "syn"]"#),
        kind: .badConnection, path: "chain[1]", fragments: ["'Fixture Synth' has no input bus, so it cannot follow 'eq'; expected a unit with an input here"]),
    ProblemCase(
        name: "a unit with neither audio nor MIDI output",
        json: preset(nodes: eq + ",\n" + #"{"id": "sink", "unit": "aufx:fsnk:Test"}"#, routing: #""chain": ["eq", "sink"]"#),
        kind: .badConnection, path: "chain[1]",
        fragments: ["'Fixture Sink' has no audio output and sends no MIDI: nothing to render; expected a unit with an audio or MIDI output here"]),
    ProblemCase(
        name: "cycle",
        json: preset(
            nodes: #"{"id": "mix", "unit": "aumx:fmix:Test"}, {"id": "eq", "unit": "aufx:fxeq:Test"}"#,
            routing: #""connections": [["input:0", "mix:0"], ["mix:0", "eq:0"], ["eq:0", "mix:1"], ["mix:0", "output:0"]]"#),
        kind: .cycle, path: "connections[2]", fragments: ["cycle mix -> eq -> mix; expected audio and MIDI to flow one way, without cycles"]),
    ProblemCase(
        name: "node not connected", json: preset(nodes: eq + ",\n" + #"{"id": "eq2", "unit": "aufx:fxeq:Test"}"#),
        kind: .notConnected, path: "nodes[1]", fragments: ["node 'eq2' is not connected; expected it in chain"]),
    ProblemCase(
        name: "node that reaches no output",
        json: preset(nodes: eq + ",\n" + #"{"id": "eq2", "unit": "aufx:fxeq:Test"}"#,
                     routing: #""connections": [["input:0", "eq:0"], ["eq:0", "output:0"], ["eq:0", "eq2:0"]]"#),
        kind: .notConnected, path: "nodes[1]", fragments: ["nothing from node 'eq2' reaches output; expected a path from it to output"]),
    ProblemCase(
        name: "node fed by nothing", json: preset(routing: #""connections": [["eq:0", "output:0"]]"#),
        kind: .notConnected, path: "nodes[0]", fragments: ["nothing feeds node 'eq'; expected a connection into one of its 1 input bus(es)"]),
]

@Suite struct ProblemMessageTests {
    @Test(arguments: problemCases)
    func eachProblemNamesTheFilePathAndExpectedAgainstFound(_ problemCase: ProblemCase) throws {
        let found = problems(in: problemCase.json)
        #expect(found.count == 1, "\(found)")
        let problem = try #require(found.first)
        #expect(problem.kind == problemCase.kind)
        #expect(problem.file == "Presets/test.json")
        #expect(problem.path == problemCase.path)
        for fragment in problemCase.fragments {
            #expect(problem.message.contains(fragment), "\(problem.message) lacks \(fragment)")
        }
        #expect(problem.description == "Presets/test.json: \(problemCase.path): \(problem.message)")
        #expect(!problem.description.contains("\n"))
    }

    @Test func theDesignExampleReadsAsDocumented() throws {
        let json = preset(nodes: eq + ", " + #"{"id": "b", "unit": "aufx:fxeq:Test"}, {"id": "c", "unit": "aufx:fxeq:Test", "parameters": {"gain": 40}}"#,
                          routing: #""chain": ["eq", "b", "c"]"#)
        let found = problems(in: json, file: "Presets/vocal.json")
        #expect(found.map(\.description) == ["Presets/vocal.json: nodes[2].parameters.gain: 40 is above the maximum 24 of 'Gain (dB)'; expected -24...24 dB"])
    }

    @Test func problemsCarryTheLineAndColumnOfTheValue() throws {
        let found = problems(in: preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "parameters": {"gain": 40}}"#))
        let problem = try #require(found.first)
        #expect(problem.line == 5)
        #expect(problem.column == 67)
    }

    @Test func anUnreadableFileIsOneProblem() {
        do {
            _ = try PresetLoader(registry: makeRegistry()).load(file: "/nonexistent/AUPresetsTests/none.json")
            Issue.record("loaded a file that does not exist")
        } catch {
            #expect(error.problems.map(\.kind) == [.unreadableFile])
            #expect(error.description == "/nonexistent/AUPresetsTests/none.json: no such file; expected a chain preset (.json)")
        }
    }
}
