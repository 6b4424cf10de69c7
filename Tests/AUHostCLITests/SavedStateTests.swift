import AUCore
import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Testing

/// A saved preset keeps no hidden state that repeats its parameters: a native unit whose
/// state is only its parameter values, and an LV2 plugin without state of its own, are saved
/// as their parameters; a plugin's own state (Calf Fluidsynth's soundfont) is saved without
/// parameter or port values; so deleting a parameter from the file really returns it to its
/// default. The live `save` writes what `auhost save` writes for the same chain.
@Suite(.serialized) struct SavedStateTests {
    @Test("auhost save of a native Gain writes its parameters and no state; deleting the parameter gives back the default")
    func noStateThatRepeatsTheParameters() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let saved = try runExecutable(["save", "aufx:gain:AUHs", folder.file("gain.json"), "--set", "gain=-3"])
        #expect(saved.status == 0, "\(saved.errors)")
        let text = try String(contentsOfFile: folder.file("gain.json"), encoding: .utf8)
        #expect(text.contains(#""gain": -3"#) && !text.contains("\"state\""), "\(text)")
        // The parameter deleted by hand: the unit is back at 0 dB.
        try folder.deleting(parameter: "gain", from: "gain.json", into: "edited.json")
        let again = try runExecutable(["save", folder.file("edited.json"), folder.file("again.json")])
        #expect(again.status == 0, "\(again.errors)")
        #expect(!(try String(contentsOfFile: folder.file("again.json"), encoding: .utf8)).contains("\"gain\": -3"), "the gain came back from somewhere")
    }

    static let amp = "lv2:http://plugin.org.uk/swh-plugins/amp"
    static let fluidsynth = "lv2:http://calf.sourceforge.net/plugins/Fluidsynth"
    static let bank = "/usr/share/sounds/sf2/FluidR3_GM.sf2"

    @Test("auhost save of an LV2 plugin without state of its own writes its parameters and no state (also from an older state blob); deleting one renders at its default")
    func lv2SaveWritesNoStateThatRepeatsThePorts() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let saved = try runExecutable(["save", Self.amp, folder.file("amp.json"), "--set", "gain=6"])
        #expect(saved.status == 0, "\(saved.errors)")
        let text = try String(contentsOfFile: folder.file("amp.json"), encoding: .utf8)
        #expect(text.contains(#""gain": 6"#) && !text.contains("\"state\""), "\(text)")
        try writeAudio(folder.file("in.wav"), sampleRate: 48_000, channels: 1, frames: 4_800) { _, _ in 0.25 }
        func renderedLevel(_ preset: String) throws -> Float {
            let result = try runExecutable(["render", preset, folder.file("in.wav"), "-o", folder.file("out.wav"), "--tail", "0", "--force"])
            #expect(result.status == 0, "\(result.errors)")
            let samples = try readAudio(folder.file("out.wav")).samples[0]
            return samples[samples.count - 1]
        }
        #expect(abs(try renderedLevel(folder.file("amp.json")) - 0.25 * powf(10, 6.0 / 20)) < 1e-3)
        // The parameter deleted by hand: the plugin is back at its default, 0 dB.
        try folder.deleting(parameter: "gain", from: "amp.json", into: "edited.json")
        #expect(abs(try renderedLevel(folder.file("edited.json")) - 0.25) < 1e-4)

        // A state blob an older auhost saved for it (swh's amp has no state interface: it held
        // only the port values) is saved again as the parameters alone.
        let turtle = """
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix pset: <http://lv2plug.in/ns/ext/presets#> .
            <urn:auhost:state> a pset:Preset ; lv2:appliesTo <http://plugin.org.uk/swh-plugins/amp> ;
                lv2:port [ lv2:symbol "gain" ; pset:value 6.0 ] .
            """
        let classInfo: [String: Any] = [
            "version": 1, "type": "aufx", "subtype": "amp ", "manufacturer": "StHa", "name": "Simple amplifier", "preset": "",
            "parameters": ["gain": 6], "custom": Data(turtle.utf8).base64EncodedString(),
        ]
        let state = try JSONSerialization.data(withJSONObject: classInfo).base64EncodedString()
        let old = try folder.preset("old.json", """
            {"auhost": 1, "name": "Old", "nodes": [{"id": "amp", "unit": "\(Self.amp)", "parameters": {"gain": 6}, "state": "\(state)"}], "chain": ["amp"]}
            """)
        let resaved = try runExecutable(["save", old, folder.file("resaved.json")])
        #expect(resaved.status == 0, "\(resaved.errors)")
        let again = try String(contentsOfFile: folder.file("resaved.json"), encoding: .utf8)
        #expect(again.contains(#""gain": 6"#) && !again.contains("\"state\""), "\(again)")
        try folder.deleting(parameter: "gain", from: "resaved.json", into: "edited-again.json")
        #expect(abs(try renderedLevel(folder.file("edited-again.json")) - 0.25) < 1e-4)
    }

    static let chains = [
        #"{"auhost": 1, "name": "Two", "nodes": [{"id": "g", "unit": "aufx:gain:AUHs", "parameters": {"gain": -6}}, {"id": "eq", "unit": "aufx:ipeq:AUHs", "preset": "Bass Booster"}], "chain": ["g", "eq"]}"#,
        #"{"auhost": 1, "name": "Amps", "nodes": [{"id": "a", "unit": "\#(amp)", "parameters": {"gain": 6}}, {"id": "b", "unit": "\#(amp)", "parameters": {"gain": -3}}], "chain": ["a", "b"]}"#,
    ]

    @Test(
        "an LV2 plugin's own state (Calf Fluidsynth's soundfont) is saved without its port values and round-trips",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/lv2/calf.lv2") && FileManager.default.fileExists(atPath: bank)))
    func lv2StateBeyondThePortsRoundTrips() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let state = try Self.fluidsynthState()
        let preset = try folder.preset("gm.json", """
            {"auhost": 1, "name": "GM", "nodes": [{"id": "gm", "unit": "\(Self.fluidsynth)", "parameters": {"master": 0.25}, "state": "\(state)"}], "chain": ["gm"]}
            """)
        let saved = try runExecutable(["save", preset, folder.file("saved.json")])
        #expect(saved.status == 0, "\(saved.errors)")
        let text = try String(contentsOfFile: folder.file("saved.json"), encoding: .utf8)
        #expect(text.contains(#""master": 0.25"#), "\(text)")
        let plugin = try Self.pluginState(savedIn: folder.file("saved.json"))
        #expect(plugin.contains(Self.bank) && !plugin.contains("master"), "\(plugin)")
        // Deleting the parameter returns it to its default; the soundfont stays.
        try folder.deleting(parameter: "master", from: "saved.json", into: "edited.json")
        #expect(try runExecutable(["save", folder.file("edited.json"), folder.file("again.json")]).status == 0)
        #expect(!(try String(contentsOfFile: folder.file("again.json"), encoding: .utf8)).contains("master"))
        #expect(try Self.pluginState(savedIn: folder.file("again.json")).contains(Self.bank))
    }

    /// Calf Fluidsynth's `ClassInfo` with the GM bank as its soundfont (given through its
    /// state interface, as a user would), base64, without parameter values.
    static func fluidsynthState() throws -> String {
        let unit = try HostRegistry.make().instantiate(fluidsynth)
        defer { unit.dispose() }
        let turtle = """
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix pset: <http://lv2plug.in/ns/ext/presets#> .
            @prefix state: <http://lv2plug.in/ns/ext/state#> .
            <urn:auhost:state> a pset:Preset ; lv2:appliesTo <http://calf.sourceforge.net/plugins/Fluidsynth> ;
                state:state [ <urn:calf:soundfont> "\(bank)" ] .
            """
        try unit.restoreCustomState(Data(turtle.utf8))
        return try unit.saveState(parameterValues: false).base64EncodedString()
    }

    /// The plugin's own state (lilv Turtle) inside the only node's `state` of a saved preset.
    static func pluginState(savedIn file: String) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        let node = try #require((object["nodes"] as? [[String: Any]])?.first)
        let classInfo = try #require((node["state"] as? String).flatMap { Data(base64Encoded: $0) })
        let info = try #require(try JSONSerialization.jsonObject(with: classInfo) as? [String: Any])
        #expect((info["parameters"] as? [String: Any])?.isEmpty == true, "the state repeats parameter values: \(info)")
        let custom = try #require((info["custom"] as? String).flatMap { Data(base64Encoded: $0) })
        return String(decoding: custom, as: UTF8.self)
    }
}

extension TemporaryFolder {
    /// Writes `copy`: the preset `file` with `parameter` deleted from its first node by hand.
    func deleting(parameter: String, from file: String, into copy: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: self.file(file)))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var nodes = try #require(object["nodes"] as? [[String: Any]])
        var parameters = nodes[0]["parameters"] as? [String: Any] ?? [:]
        parameters[parameter] = nil
        nodes[0]["parameters"] = parameters.isEmpty ? nil : parameters
        object["nodes"] = nodes
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: self.file(copy)))
    }
}

/// SavedStateTests's live test: under a jackd of its own, run with the live suites (scripts/test.sh).
@Suite(.serialized) struct SavedStateLiveTests {
    @Test("the live save and auhost save write the same file for the same chain (native units; LV2 plugins)", arguments: SavedStateTests.chains)
    func liveAndOfflineSaveAgree(chain: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preset = try folder.preset("chain.json", chain)
        #expect(try runExecutable(["save", preset, folder.file("offline.json")]).status == 0)
        let rig = try LiveRig(preset: chain, extraArguments: ["--save-dir", folder.path])
        defer { rig.tearDown() }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        #expect(try rig.send("save live.json").hasPrefix("ok saved"))
        let offline = try String(contentsOfFile: folder.file("offline.json"), encoding: .utf8)
        let live = try String(contentsOfFile: folder.file("live.json"), encoding: .utf8)
        #expect(offline == live, "offline:\n\(offline)\nlive:\n\(live)")
    }

    /// Saves `chain` with `auhost save` and live twice (at once, and after a second of
    /// audio through the chain) into `folder`; the three files' texts.
    static func savedThreeWays(_ chain: String, folder: TemporaryFolder) throws -> (offline: String, early: String, late: String) {
        let offline = try runExecutable(["save", chain, folder.file("offline.json")])
        #expect(offline.status == 0, "\(offline.errors)")
        let rig = try LiveRig(chain: chain, extraArguments: ["--save-dir", folder.path])
        defer { rig.tearDown() }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        #expect(try rig.send("save early.json").hasPrefix("ok saved"))
        try rig.connectTester()
        #expect(rig.through.wait(forCount: 48_000), "a second of audio did not come through")
        #expect(try rig.send("save late.json").hasPrefix("ok saved"))
        func text(_ name: String) throws -> String { try String(contentsOfFile: folder.file(name), encoding: .utf8) }
        return (try text("offline.json"), try text("early.json"), try text("late.json"))
    }

    @Test("the live save (at once and after a second of audio) and auhost save write the same bytes for every shipped preset", arguments: ShippedPresets.files)
    func shippedPresetsSaveAlike(name: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let saved = try Self.savedThreeWays(ShippedPresets.folder.appendingPathComponent(name).path, folder: folder)
        #expect(saved.offline == saved.early && saved.early == saved.late, "offline:\n\(saved.offline)\nearly:\n\(saved.early)\nlate:\n\(saved.late)")
    }

    @Test("a chain of stateful LV2 plugins (convoLV2 with a state and its own impulse, Calf Fluidsynth with a soundfont state) saves alike live and offline",
          .enabled(if: FilePropertyPresetTests.installed && FileManager.default.fileExists(atPath: "/usr/lib/lv2/calf.lv2") && FileManager.default.fileExists(atPath: SavedStateTests.bank)))
    func statefulLV2ChainSavesAlike() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let response = FilePropertyPresetTests.impulseResponse()
        try FileManager.default.createDirectory(atPath: folder.file("old"), withIntermediateDirectories: true)
        try PresetStateTests.writeResponse(folder.file("old/ir.wav"), response)
        try PresetStateTests.writeResponse(folder.file("room.wav"), response)
        let convolverState = try PresetStateTests.convolverState(impulse: folder.file("old/ir.wav"), scratch: folder)
        let chain = try folder.preset("chain.json", #"""
            {"auhost": 1, "name": "Stateful", "nodes": [
             {"id": "gm", "unit": "\#(SavedStateTests.fluidsynth)", "state": "\#(try SavedStateTests.fluidsynthState())"},
             {"id": "cab", "unit": "\#(FilePropertyPresetTests.convolver)", "parameters": {"impulse": "room.wav"}, "state": "\#(convolverState)"}],
             "chain": ["gm", "cab"]}
            """#)
        let saved = try Self.savedThreeWays(chain, folder: folder)
        #expect(saved.offline == saved.early && saved.early == saved.late, "offline:\n\(saved.offline)\nearly:\n\(saved.early)\nlate:\n\(saved.late)")
        #expect(saved.offline.contains(#""impulse": "room.wav""#) && !saved.offline.contains(folder.path), "\(saved.offline)")
    }
}
