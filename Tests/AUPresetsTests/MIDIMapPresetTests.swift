import AUCore
import AUEngine
import AUPresets
import AUTestSupport
import Foundation
import Testing

/// A preset's `midiMap`: read, checked against the units (one problem each, at its place),
/// written back the same.
@Suite struct MIDIMapPresetTests {
    static func preset(_ midiMap: String) -> String {
        """
        {"auhost": 1, "name": "Mapped",
         "nodes": [{"id": "eq", "unit": "aufx:ipeq:AUHs"}], "chain": ["eq"], "midiMap": \(midiMap)}
        """
    }

    static func problems(_ midiMap: String) -> [String] {
        do {
            _ = try PresetLoader(registry: ComponentRegistry(providers: [BuiltinUnits()])).load(data: Data(preset(midiMap).utf8), file: "m.json")
            return []
        } catch {
            return error.problems.map { "\($0.path): \($0.message)" }
        }
    }

    @Test func aMapReadsChecksAndWritesBack() throws {
        let text = Self.preset(#"[{"cc": 7, "channel": 2, "parameter": "eq.band0", "curve": "toggle"}, {"pitchBend": true, "parameter": "eq.band0", "smoothing": 15}]"#)
        let preset = try PresetLoader.decode(data: Data(text.utf8), file: "m.json")
        #expect(preset.midiMap == [
            PresetMIDIMapping(source: .controlChange(7), channel: 2, parameter: "eq.band0", curve: .toggle),
            PresetMIDIMapping(source: .pitchBend, parameter: "eq.band0", smoothing: 15),
        ])
        let again = try PresetLoader.decode(data: PresetWriter.encode(preset), file: "again.json")
        #expect(again == preset)
        #expect(Self.problems(#"[{"cc": 7, "channel": 2, "parameter": "eq.band0", "curve": "toggle"}]"#) == [])
    }

    @Test func eachBadEntryIsOneProblemAtItsPlace() {
        let found = Self.problems("""
            [{"cc": 128, "parameter": "eq.band0"},
             {"cc": 1, "note": 2, "parameter": "eq.band0"},
             {"cc": 1, "parameter": "nowhere.gain"},
             {"cc": 1, "parameter": "eq.nothing"},
             {"cc": 1, "parameter": "eq", "curve": "square"},
             {"note": 60, "channel": 17, "parameter": "eq.band0"}]
            """)
        #expect(found.count == 6, "\(found)")
        #expect(found.contains { $0.hasPrefix("midiMap[0].cc:") && $0.contains("0...127") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("midiMap[1]:") && $0.contains("cc and note") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("midiMap[2].parameter:") && $0.contains("unknown node \"nowhere\"") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("midiMap[3].parameter:") && $0.contains("\"nothing\" is not a parameter of \"eq\"") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("midiMap[4].") && $0.contains("NODE.PARAM") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("midiMap[5].channel:") && $0.contains("1...16") }, "\(found)")
    }

    @Test func snapshotsReadCheckAndWriteBack() throws {
        let text = """
            {"auhost": 1, "name": "Snaps", "nodes": [{"id": "eq", "unit": "aufx:ipeq:AUHs"}], "chain": ["eq"],
             "snapshots": [{"name": "flat", "parameters": {"eq.band0": 0, "eq.band1": 0}}, {"name": "boost", "parameters": {"eq.band0": 6}, "ramp": 80}]}
            """
        let preset = try PresetLoader.decode(data: Data(text.utf8), file: "s.json")
        #expect(preset.snapshots == [
            PresetSnapshot(name: "flat", parameters: [PresetParameter(key: "eq.band0", value: .number(0)), PresetParameter(key: "eq.band1", value: .number(0))]),
            PresetSnapshot(name: "boost", parameters: [PresetParameter(key: "eq.band0", value: .number(6))], ramp: 80),
        ])
        #expect(try PresetLoader.decode(data: PresetWriter.encode(preset), file: "again.json") == preset)
        let loaded = try PresetLoader(registry: ComponentRegistry(providers: [BuiltinUnits()])).load(data: Data(text.utf8), file: "s.json")
        defer { loaded.dispose() }
        #expect(loaded.snapshots.map { $0.values.map(\.parameter.value) } == [[0, 0], [6]])

        let bad = text.replacingOccurrences(of: "\"eq.band0\": 6", with: "\"eq.band0\": 60, \"mix.level\": 1")
        var found: [String] = []
        do {
            _ = try PresetLoader(registry: ComponentRegistry(providers: [BuiltinUnits()])).load(data: Data(bad.utf8), file: "s.json")
        } catch {
            found = error.problems.map { "\($0.path): \($0.message)" }
        }
        #expect(found.count == 2, "\(found)")
        #expect(found.contains { $0.hasPrefix("snapshots[1].parameters[\"eq.band0\"]") && $0.contains("above the maximum") }, "\(found)")
        #expect(found.contains { $0.contains("unknown node \"mix\"") }, "\(found)")
    }
}
