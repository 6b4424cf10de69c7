import AUCore
import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Testing

/// A preset says what plays: an explicit file or value in a preset wins over its `state`,
/// paths inside a saved state are relative to the preset's folder (so a folder moved or
/// copied as a whole plays its own files), and a file the preset names that is missing is
/// an error naming the node and the file.
@Suite(.serialized) struct PresetStateTests {
    static let convolver = FilePropertyPresetTests.convolver
    static var installed: Bool { FilePropertyPresetTests.installed }

    /// A `ClassInfo` for convoLV2 naming `impulse` (a file named `ir.wav` or `room.wav`) by
    /// its absolute path, base64, as an older auhost's live save wrote it: the plugin's state
    /// saved as an LV2 preset, read back.
    static func convolverState(impulse: String, scratch: TemporaryFolder) throws -> String {
        let unit = try HostRegistry.make().instantiate(convolver)
        defer { unit.dispose() }
        try unit.setPropertyParameter("impulse", to: .path(impulse))
        try unit.initialize()
        let lv2 = try #require(unit as? LV2Unit)
        var renderer = OfflineUnitRenderer(unit: unit, blockSize: 256)
        let deadline = Date().addingTimeInterval(10)
        while lv2.awaitsPropertyReports, Date() < deadline { _ = try renderer.render(frameCount: 256) }
        #expect(!lv2.awaitsPropertyReports, "convoLV2 did not report its impulse within 10 s")
        let bundle = URL(fileURLWithPath: scratch.file("state-\(UUID().uuidString).lv2"))
        let uri = try lv2.savePreset(label: "old", bundle: bundle)
        let turtle = try String(contentsOf: try #require(URL(string: uri)), encoding: .utf8)
        let reader = try HostRegistry.make().instantiate(convolver)
        defer { reader.dispose() }
        // The preset names the file relative to the bundle (lilv linked it there): read it
        // from the file's own folder, so that the state names the file itself.
        reader.stateFolder = URL(fileURLWithPath: impulse).deletingLastPathComponent()
        try reader.restoreCustomState(Data(turtle.utf8))
        reader.stateFolder = nil
        return try reader.saveState(parameterValues: false).base64EncodedString()
    }

    static func writeResponse(_ path: String, _ response: [Float]) throws {
        try writeAudio(path, sampleRate: 48_000, channels: 1, frames: response.count) { _, frame in response[frame] }
    }

    /// Renders a click through `preset` and returns the correlations of the output with `a` and `b`.
    static func correlations(_ preset: String, folder: TemporaryFolder, _ a: [Float], _ b: [Float]) throws -> (Double, Double) {
        try writeAudio(folder.file("click.wav"), sampleRate: 48_000, channels: 1, frames: 9_600) { _, frame in frame == 0 ? 1 : 0 }
        let result = render([preset, folder.file("click.wav"), "-o", folder.file("out.wav"), "--tail", "0", "--bit-depth", "32f", "--force"])
        #expect(result.status == 0, "\(result.errors)")
        let output = Array(try readAudio(folder.file("out.wav")).samples[0].prefix(a.count))
        return (FilePropertyPresetTests.correlation(output, a), FilePropertyPresetTests.correlation(output, b))
    }

    @Test("convoLV2: an explicit impulse wins over a state that names another file", .enabled(if: installed, "x42-plugins (convoLV2) is not installed"))
    func explicitImpulseWinsOverState() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let room = FilePropertyPresetTests.impulseResponse()
        let other = Array(room.reversed())
        try FileManager.default.createDirectory(atPath: folder.file("old"), withIntermediateDirectories: true)
        try Self.writeResponse(folder.file("old/room.wav"), room)
        try Self.writeResponse(folder.file("other.wav"), other)
        let state = try Self.convolverState(impulse: folder.file("old/room.wav"), scratch: folder)
        let preset = try folder.preset("p.json", #"{"auhost": 1, "name": "R", "nodes": [{"id": "ir", "unit": "\#(Self.convolver)", "parameters": {"impulse": "other.wav"}, "state": "\#(state)"}], "chain": ["ir"]}"#)
        let (withRoom, withOther) = try Self.correlations(preset, folder: folder, room, other)
        #expect(withOther > 0.99 && withRoom < 0.5, "correlation with the explicit other.wav \(withOther), with the state's room.wav \(withRoom)")
    }

    @Test("convoLV2: a state saved into a preset folder names its files relative to it; the folder copied with other files plays them; a missing one is an error naming node and file",
          .enabled(if: installed, "x42-plugins (convoLV2) is not installed"))
    func statePathsRelativeToThePresetFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let room = FilePropertyPresetTests.impulseResponse()
        let other = Array(room.reversed())
        for name in ["a", "b"] { try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: true) }
        try Self.writeResponse(folder.file("a/ir.wav"), room)
        let state = try Self.convolverState(impulse: folder.file("a/ir.wav"), scratch: folder)
        let original = try folder.preset("a/p.json", #"{"auhost": 1, "name": "R", "nodes": [{"id": "cab", "unit": "\#(Self.convolver)", "state": "\#(state)"}], "chain": ["cab"]}"#)
        let saved = try runExecutable(["save", original, folder.file("a/saved.json")])
        #expect(saved.status == 0, "\(saved.errors)")
        let plugin = try SavedStateTests.pluginState(savedIn: folder.file("a/saved.json"))
        #expect(!plugin.contains(folder.path) && plugin.contains("<ir.wav>"), "the state holds an absolute path: \(plugin)")
        // The folder copied elsewhere with another ir.wav: the copy plays its own.
        try Self.writeResponse(folder.file("b/ir.wav"), other)
        try FileManager.default.copyItem(atPath: folder.file("a/saved.json"), toPath: folder.file("b/saved.json"))
        let (withRoom, withOther) = try Self.correlations(folder.file("b/saved.json"), folder: folder, room, other)
        #expect(withOther > 0.99 && withRoom < 0.5, "correlation with the copy's ir.wav \(withOther), with the original's \(withRoom)")
        // The copy's file deleted: an error naming the node and the file, not a silent render.
        try FileManager.default.removeItem(atPath: folder.file("b/ir.wav"))
        let refused = render([folder.file("b/saved.json"), folder.file("click.wav"), "-o", folder.file("x.wav")])
        #expect(refused.status != 0 && refused.errors.contains("nodes[0].state") && refused.errors.contains(folder.file("b/ir.wav")), "\(refused.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.wav")))
    }

    @Test("the sampler: an explicit program and bank win over a state that says others")
    func samplerExplicitValuesWinOverState() throws {
        let registry = HostRegistry.make()
        let source = try registry.instantiate("aumu:samp:AUHs")
        defer { source.dispose() }
        try source.setPropertyParameter("program", to: .int(41))
        try source.setPropertyParameter("bank", to: .int(8))
        let state = try source.saveState(parameterValues: false).base64EncodedString()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.preset("s.json", #"{"auhost": 1, "name": "S", "nodes": [{"id": "s", "unit": "aumu:samp:AUHs", "state": "\#(state)", "program": 5, "bank": 0}], "chain": ["s"]}"#)
        let loaded = try PresetLoader(registry: registry).load(file: file)
        defer { loaded.dispose() }
        let unit = try #require(loaded.nodes.first?.unit)
        #expect(unit.propertyParameterValue("program") == .int(5))
        #expect(unit.propertyParameterValue("bank") == .int(0))
    }

    @Test("a fixture that keeps a file in its state: auhost save writes the path relative to the preset; the copied folder's file is the one restored; a missing one is an error")
    func fixtureStatePathFollowsTheFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let plugins = URL(fileURLWithPath: folder.file("lv2"))
        try writeFixtureBundle("path-state", name: "Fixture Path State", into: plugins)
        let environment = ["LV2_PATH": plugins.path, "XDG_CACHE_HOME": folder.file("cache")]
        func auhost(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
            try runProcess(try auhostExecutable(), arguments, environment: environment)
        }
        let info = try auhost(["info", "lv2:urn:auhost:fixture:path-state"])
        let code = try #require(info.output.split(whereSeparator: \.isWhitespace).first { $0.filter { $0 == ":" }.count == 2 }, "\(info.output)\(info.errors)").split(separator: ":")
        for name in ["a", "b"] { try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: true) }
        try Data(count: 3).write(to: URL(fileURLWithPath: folder.file("a/data.bin")))
        try Data(count: 7).write(to: URL(fileURLWithPath: folder.file("b/data.bin")))
        // The state an older auhost saved: the file by its absolute path.
        let turtle = """
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix pset: <http://lv2plug.in/ns/ext/presets#> .
            @prefix state: <http://lv2plug.in/ns/ext/state#> .
            <urn:auhost:state> a pset:Preset ; lv2:appliesTo <urn:auhost:fixture:path-state> ;
                state:state [ <urn:auhost:fixture:path-state#file> <\(URL(fileURLWithPath: folder.file("a/data.bin")).absoluteString)> ] .
            """
        let classInfo: [String: Any] = [
            "version": 1, "type": String(code[0]), "subtype": String(code[1]), "manufacturer": String(code[2]), "name": "Fixture Path State",
            "preset": "", "parameters": [String: Float](), "custom": Data(turtle.utf8).base64EncodedString(),
        ]
        let state = try JSONSerialization.data(withJSONObject: classInfo).base64EncodedString()
        let original = try folder.preset("a/p.json", #"{"auhost": 1, "name": "F", "nodes": [{"id": "f", "unit": "lv2:urn:auhost:fixture:path-state", "state": "\#(state)"}], "chain": ["f"]}"#)
        try writeAudio(folder.file("in.wav"), sampleRate: 48_000, channels: 1, frames: 4_800) { _, _ in 0 }
        func level(_ preset: String) throws -> Float? {
            let result = try auhost(["render", preset, folder.file("in.wav"), "-o", folder.file("out.wav"), "--tail", "0", "--force", "--bit-depth", "32f"])
            #expect(result.status == 0, "\(result.errors)")
            return try readAudio(folder.file("out.wav")).samples[0].last
        }
        #expect(try level(original) == 3)
        let saved = try auhost(["save", original, folder.file("a/saved.json")])
        #expect(saved.status == 0, "\(saved.errors)")
        let plugin = try SavedStateTests.pluginState(savedIn: folder.file("a/saved.json"))
        #expect(plugin.contains("<data.bin>") && !plugin.contains(folder.path), "\(plugin)")
        try FileManager.default.copyItem(atPath: folder.file("a/saved.json"), toPath: folder.file("b/saved.json"))
        #expect(try level(folder.file("b/saved.json")) == 7)
        try FileManager.default.removeItem(atPath: folder.file("b/data.bin"))
        let refused = try auhost(["render", folder.file("b/saved.json"), folder.file("in.wav"), "-o", folder.file("x.wav")])
        #expect(refused.status != 0 && refused.errors.contains("nodes[0].state") && refused.errors.contains(folder.file("b/data.bin")), "\(refused.errors)")
    }
}
