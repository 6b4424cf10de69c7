import AUTestSupport
import Foundation
import Testing

/// `auhost info PRESET.json` lists the preset's nodes and MIDI map; a bad mapping is one
/// error naming its place.
@Suite struct PresetInfoMIDIMapTests {
    @Test func infoListsAPresetsMIDIMap() throws {
        let folder = try TemporaryFolder(prefix: "auhost-info-map")
        defer { folder.remove() }
        let file = folder.file("rig.json")
        try """
            {"auhost": 1, "name": "Rig", "nodes": [{"id": "eq", "unit": "aufx:ipeq:AUHs"}], "chain": ["eq"],
             "midiMap": [{"cc": 11, "channel": 1, "parameter": "eq.band0", "min": -6, "max": 6, "smoothing": 20},
                         {"note": 36, "parameter": "eq.band9", "curve": "toggle"}],
             "snapshots": [{"name": "flat", "parameters": {"eq.band0": 0}}, {"name": "bright", "parameters": {"eq.band9": 6}}]}
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let text = try runProcess(try auhostExecutable(), ["info", file])
        #expect(text.status == 0, "\(text.errors)")
        #expect(text.output.contains("CC 11 (channel 1) → eq.band0  -6...6 linear, 20 ms smoothing"), "\(text.output)")
        #expect(text.output.contains("note 36 (any channel) → eq.band9  -12...12 toggle"), "\(text.output)")
        #expect(text.output.contains("program 0: flat\n  program 1: bright"), "\(text.output)")
        let json = try runProcess(try auhostExecutable(), ["info", file, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any], "\(json.output)")
        let map = try #require(object["midiMap"] as? [[String: Any]])
        #expect(map.count == 2 && map.first?["source"] as? String == "CC 11" && map.first?["parameter"] as? String == "eq.band0", "\(map)")

        try #"{"auhost": 1, "name": "Bad", "nodes": [{"id": "eq", "unit": "aufx:ipeq:AUHs"}], "chain": ["eq"], "midiMap": [{"cc": 1, "parameter": "eq.loud"}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let bad = try runProcess(try auhostExecutable(), ["info", file])
        #expect(bad.status != 0 && bad.errors.contains("midiMap[0].parameter") && bad.errors.contains("\"loud\" is not a parameter"), "\(bad.errors)")
    }
}
