import AUCore
@testable import AUPresets
import Foundation
import Testing

@Suite struct SeveralProblemsTests {
    @Test func everyProblemIsReportedAtOnceInFileOrder() throws {
        let json = """
            {
              "auhost": 1,
              "name": "Broken",
              "sampleRate": "48000",
              "nodes": [
                {"id": "eq", "unit": "aufx:fxeq:Test", "parameters": {"gain": 40, "mode": "Loud"}},
                {"id": "eq", "unit": "Fixtur EQQ"},
                {"id": "syn", "unit": "augn:fsyn:Test", "bypass": "yes", "colour": "red"}
              ],
              "connections": [["input:0", "eq:0"], ["eq:0", "output:0"], ["syn:0", "nowhere:0"]]
            }
            """
        let found = problems(in: json, file: "Presets/broken.json")
        #expect(found.map(\.path) == [
            "sampleRate", "nodes[0].parameters.gain", "nodes[0].parameters.mode", "nodes[1].id", "nodes[1].unit",
            "nodes[2].bypass", "nodes[2].colour", "connections[2][1]",
        ])
        #expect(found.map(\.kind) == [
            .wrongType, .valueOutOfRange, .unknownValueString, .duplicateNodeID, .unknownUnit, .wrongType, .unknownKey, .badConnection,
        ])
        #expect(found.allSatisfy { $0.file == "Presets/broken.json" })
        let error = PresetError(found)
        let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == found.count)
        #expect(lines.allSatisfy { $0.hasPrefix("Presets/broken.json: ") })
        #expect(lines[0] == "Presets/broken.json: sampleRate: expected a sample rate in Hz, found the string \"48000\"")
    }

    @Test func aProblemInOneNodeDoesNotHideAnother() {
        let json = preset(
            nodes: #"{"id": "a", "unit": "aufx:fxeq:Test", "parameters": {"gain": 99}}, {"id": "b", "unit": "aufx:fxeq:Test", "parameters": {"freq": 1}}"#,
            routing: #""chain": ["a", "b"]"#)
        let found = problems(in: json)
        #expect(found.map(\.path) == ["nodes[0].parameters.gain", "nodes[1].parameters.freq"])
    }

    @Test func whatCannotBeReadIsNotReportedTwice() {
        // The unit is unknown: its parameters, preset and buses cannot be checked, and are not.
        let json = preset(nodes: #"{"id": "eq", "unit": "nothing:like:this", "parameters": {"whatever": 1}, "preset": "x"}"#,
                          routing: #""connections": [["input:0", "eq:7"], ["eq:0", "output:0"]]"#)
        let found = problems(in: json)
        #expect(found.map(\.kind) == [.unknownUnit])
    }

    @Test func anUnsupportedVersionStopsBeforeTheRest() {
        let json = preset(nodes: #"{"id": "eq", "unit": "Fixtur EQQ"}"#, extra: "\n  \"routes\": {},").replacingOccurrences(of: "\"auhost\": 1", with: "\"auhost\": 3")
        #expect(problems(in: json).map(\.kind) == [.unsupportedVersion])
    }

    @Test func overrideProblemsFollowTheFileProblems() throws {
        let overrides = try ParameterOverride.parse(["eq.gain=30", "comp.ratio=2"])
        let found = problems(in: preset(nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test", "parameters": {"freq": 5}}"#), overrides: overrides)
        #expect(found.map(\.description) == [
            "Presets/test.json: nodes[0].parameters.freq: 5 is below the minimum 20 of 'Frequency (Hz)'; expected 20...20000 Hz",
            "--set: eq.gain: 30 is above the maximum 24 of 'Gain (dB)'; expected -24...24 dB",
            "--set: comp.ratio: unknown node \"comp\"; expected one of: eq",
        ])
    }
}
