import AUCore
import Foundation
import Testing
@testable import AULV2

@Suite struct StateAndPresetTests {
    static let piano = "http://drobilla.net/plugins/mda/Piano"

    /// ClassInfo saved from one unit restores into a fresh one: same parameters, and the
    /// two render the same notes identically.
    @Test func classInfoRoundTrips() throws {
        let first = try LV2TestSupport.unit(Self.piano)
        first.renderMode = .offline
        let muffle = try #require(first.parameters.infos.first { $0.identifier == "muffling_filter" })
        let decay = try #require(first.parameters.infos.first { $0.identifier == "env_decay" })
        try first.setParameter(muffle.id, value: 0.2)
        try first.setParameter(decay.id, value: 0.9)
        try first.initialize()
        let saved = try first.value(of: .classInfo)
        #expect(String(decoding: saved, as: UTF8.self).contains("muffling_filter"))

        let second = try LV2TestSupport.unit(Self.piano)
        second.renderMode = .offline
        try second.setValue(saved, for: .classInfo)
        #expect(try second.parameterValue(muffle.id) == 0.2)
        #expect(try second.parameterValue(decay.id) == 0.9)
        try second.initialize()
        // A restore into an initialized unit works too.
        try second.setValue(saved, for: .classInfo)

        let notes: [MIDIEvent] = [.noteOn(60, velocity: 90), .noteOn(64, velocity: 70, offset: 300)]
        var a = OfflineUnitRenderer(unit: first, blockSize: 256)
        var b = OfflineUnitRenderer(unit: second, blockSize: 256)
        let outA = try a.render(frameCount: 4_800, midi: notes)
        let outB = try b.render(frameCount: 4_800, midi: notes)
        #expect(outA == outB)
    }

    /// The plugin's LV2 presets are its factory presets; loading one sets its port values.
    @Test func presetLoadsAndChangesParameters() throws {
        let unit = try LV2TestSupport.unit(Self.piano)
        let presets = try unit.value(of: .factoryPresets)
        let labels = presets.map(\.name)
        #expect(labels.contains("MDA Piano") && labels.contains("Plain Piano"))
        let plain = try #require(presets.first { $0.name == "Plain Piano" })
        let muffle = try #require(unit.parameters.infos.first { $0.identifier == "muffling_filter" })
        try unit.setValue(plain, for: .presentPreset)
        #expect(try unit.parameterValue(muffle.id) == 0.751)  // Piano-presets.ttl: Plain Piano
        let compressed = try #require(presets.first { $0.name == "Compressed Piano" })
        try unit.setValue(compressed, for: .presentPreset)
        #expect(try unit.parameterValue(muffle.id) == 1.0)
        #expect(try unit.value(of: .presentPreset).name == "Compressed Piano")
    }

    /// The current state saved as a preset bundle loads in a new world (as lilv and jalv
    /// would load it) and brings back the values.
    @Test func savedPresetBundleLoads() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-presets-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let unit = try LV2TestSupport.unit(Self.piano)
        unit.renderMode = .offline
        let muffle = try #require(unit.parameters.infos.first { $0.identifier == "muffling_filter" })
        try unit.setParameter(muffle.id, value: 0.123)
        try unit.initialize()
        let uri = try unit.savePreset(label: "Soft Test", bundle: root.appendingPathComponent("soft-test.lv2"))
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("soft-test.lv2/manifest.ttl").path))

        let reloaded = try LV2TestSupport.unit(Self.piano, path: root.path + ":/usr/lib/lv2")
        let preset = try #require(try reloaded.value(of: .factoryPresets).first { $0.name == "Soft Test" })
        #expect(reloaded.presetURIs[preset.number] == uri)
        try reloaded.setValue(preset, for: .presentPreset)
        #expect(try reloaded.parameterValue(muffle.id) == 0.123)
    }
}
