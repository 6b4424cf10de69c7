import AUCore
import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Testing

/// A saved preset keeps no hidden state that repeats its parameters: a native unit whose
/// state is only its parameter values is saved as its parameters, so that deleting one from
/// the file really returns it to its default; and the live `save` writes what `auhost save`
/// writes for the same chain.
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
        var object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var nodes = try #require(object["nodes"] as? [[String: Any]])
        nodes[0]["parameters"] = nil
        object["nodes"] = nodes
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: folder.file("edited.json")))
        let again = try runExecutable(["save", folder.file("edited.json"), folder.file("again.json")])
        #expect(again.status == 0, "\(again.errors)")
        #expect(!(try String(contentsOfFile: folder.file("again.json"), encoding: .utf8)).contains("\"gain\": -3"), "the gain came back from somewhere")
    }

    @Test("the live save and auhost save write the same file for the same chain")
    func liveAndOfflineSaveAgree() throws {
        let chain = #"{"auhost": 1, "name": "Two", "nodes": [{"id": "g", "unit": "aufx:gain:AUHs", "parameters": {"gain": -6}}, {"id": "eq", "unit": "aufx:ipeq:AUHs", "preset": "Bass Booster"}], "chain": ["g", "eq"]}"#
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preset = try folder.preset("two.json", chain)
        #expect(try runExecutable(["save", preset, folder.file("offline.json")]).status == 0)
        let rig = try LiveRig(preset: chain, extraArguments: ["--save-dir", folder.path])
        defer { rig.tearDown() }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        #expect(try rig.send("save live.json").hasPrefix("ok saved"))
        let offline = try String(contentsOfFile: folder.file("offline.json"), encoding: .utf8)
        let live = try String(contentsOfFile: folder.file("live.json"), encoding: .utf8)
        #expect(offline == live, "offline:\n\(offline)\nlive:\n\(live)")
    }
}
