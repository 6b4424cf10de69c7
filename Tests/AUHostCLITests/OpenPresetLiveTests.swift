import AUCore
import AUJACK
import AUTestSupport
import Foundation
import Testing

@testable import AUHostCLI

/// `auhost run` of the quiet preset at 256 frames with the controller (a 1 kHz sine at 0.5
/// into `in_1`, program changes on `midi_out`) and the recorder (`out_1`) wired, and a
/// folder of presets; ``tearDown()`` ends them all.
final class SineRig {
    let rig: LiveRig
    let controller: ControllerClient
    let recorder: MarkedRecorder
    let folder: URL
    var recording: Recording { recorder.output }

    init(files: [String: String], extraArguments: (URL) -> [String] = { _ in [] }) throws {
        let folder = try OpenPresetLiveTests.folder(files)
        var controller: ControllerClient?
        let rig: LiveRig
        do {
            rig = try LiveRig(
                preset: OpenPresetLiveTests.quiet, extraArguments: extraArguments(folder), periodFrames: 256,
                prepare: { server in controller = try ControllerClient(serverName: server, offset: 100, frequency: 1_000) })
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        self.rig = rig
        self.folder = folder
        do {
            self.controller = try #require(controller)
            #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
            _ = try rig.probeOnceRegistered()
            recorder = try MarkedRecorder(serverName: rig.server.name, auhost: rig.clientName)
            try #require(recorder.output.wait(forCount: 9_600), "nothing recorded")
        } catch {
            rig.tearDown()
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// The path of one of the folder's presets.
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func tearDown() {
        recorder.stop()
        controller.client.stop()
        rig.tearDown()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// `open PRESET.json` and `--bank` live under jackd: a controller client plays a 1 kHz sine
/// (amplitude 0.5) into auhost and sends program changes; a recorder records auhost's
/// `out_1`. Preset A plays the sine at -20 dB (0.05), preset B at 0 dB through another
/// chain (an EQ, then the gain): the recording's level says which chain plays.
@Suite(.serialized) struct OpenPresetLiveTests {
    static let quiet = """
        {"auhost": 1, "name": "Quiet", "nodes": [{"id": "gain", "unit": "aufx:gain:AUHs", "parameters": {"gain": -20, "smoothing": 0}}], "chain": ["gain"]}
        """
    static let loud = """
        {"auhost": 1, "name": "Loud",
         "nodes": [{"id": "eq", "unit": "aufx:ipeq:AUHs"}, {"id": "level", "unit": "aufx:gain:AUHs", "parameters": {"gain": 0, "smoothing": 0}}],
         "chain": ["eq", "level"]}
        """
    /// The crossfade's length at 48 kHz (the default 50 ms).
    static let crossfadeFrames = 2_400
    /// Below this a sample counts as near-silence: a fifth of the quiet chain's amplitude.
    static let silence: Float = 0.01

    /// A folder of its own holding `files` (name → text), removed by the caller.
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-open-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return folder
    }

    /// The longest run of consecutive samples quieter than ``silence`` in `range`.
    static func longestSilence(_ samples: UnsafeMutableBufferPointer<Float>, _ range: Range<Int>) -> Int {
        var longest = 0, run = 0
        for frame in range {
            run = abs(samples[frame]) < silence ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    /// The largest magnitude in `range` (a sine's amplitude).
    static func peak(_ samples: UnsafeMutableBufferPointer<Float>, _ range: Range<Int>) -> Float {
        range.map { abs(samples[$0]) }.max() ?? 0
    }

    /// Every connection of auhost's ports, as `port>peer` lines, through the JACK API.
    static func connections(_ probe: JACKClient, client: String) -> [String] {
        let ports = probe.sources(matching: "^\(client):", kind: .audio) + probe.destinations(matching: "^\(client):", kind: .audio)
            + probe.sources(matching: "^\(client):", kind: .midi) + probe.destinations(matching: "^\(client):", kind: .midi)
        return ports.flatMap { port in probe.connections(of: port).map { "\(port)>\($0)" } }.sorted()
    }

    /// `open` switches from the quiet chain to the loud one with no run of near-silence
    /// longer than the crossfade (none at all, in fact: the crossfade is equal-power), the
    /// level goes from A's to B's, and every connection is the same before and after. A
    /// preset that cannot load is refused with one line naming it, and B plays on.
    @Test func openSwitchesPresetsWithoutAGapAndKeepsEveryConnection() throws {
        let sine = try SineRig(
            files: ["loud.json": Self.loud, "bad.json": #"{"auhost": 1, "name": "Bad", "nodes": [{"id": "x", "unit": "lv2:urn:auhost:no-such-plugin"}], "chain": ["x"]}"#],
            extraArguments: { _ in ["--midi-connect", "controller:midi_out"] })
        defer { sine.tearDown() }
        let rig = sine.rig, recording = sine.recorder, folder = sine.folder
        let probe = try rig.probeOnceRegistered()
        let before = Self.connections(probe, client: rig.clientName)
        #expect(before.contains("\(rig.clientName):in_1>controller:out_1") && before.contains("\(rig.clientName):out_1>recorder:in_1")
            && before.contains("\(rig.clientName):midi_in>controller:midi_out"), "\(before)")
        let start = recording.output.count
        let reply = try rig.send("open \(folder.appendingPathComponent("loud.json").path)")
        #expect(reply == "ok opened \(folder.appendingPathComponent("loud.json").path) crossfade_ms=50", "\(reply); stderr: \(rig.standardError)")
        let end = recording.output.count + 9_600
        try #require(recording.output.wait(forCount: end), "the recording stalled")
        let samples = recording.output.samples
        // A's level before, B's after, and no gap anywhere in between.
        let quietPeak = Self.peak(samples, (start - 4_800)..<start), loudPeak = Self.peak(samples, (end - 4_800)..<end)
        #expect(abs(quietPeak - 0.05) < 0.01, "before open: \(quietPeak), expected 0.05 (the sine at -20 dB)")
        #expect(abs(loudPeak - 0.5) < 0.05, "after open: \(loudPeak), expected 0.5 (the sine at 0 dB)")
        let silent = Self.longestSilence(samples, (start - 4_800)..<end)
        #expect(silent <= Self.crossfadeFrames, "\(silent) frames of near-silence (below \(Self.silence)) around the switch; the crossfade is \(Self.crossfadeFrames)")
        #expect(Self.connections(probe, client: rig.clientName) == before, "connections changed: \(Self.connections(probe, client: rig.clientName)) vs \(before)")
        #expect(try rig.send("get level gain") == "ok 0", "the session works on the new chain")

        let bad = folder.appendingPathComponent("bad.json").path
        let refusal = try rig.send("open \(bad)")
        #expect(refusal.hasPrefix("error: \(bad): nodes[0].unit: no unit matches") && !refusal.contains("\n"), "\(refusal)")
        // One that loads but whose chain cannot be completed (built, then refused by the
        // MIDI map: more snapshot values than its table holds) is refused the same way.
        let tooMany = folder.appendingPathComponent("too-many.json").path
        let snapshots = (0..<30).map { index in #"{"name": "s\#(index)", "parameters": {"# + (0..<10).map { #""eq.band\#($0)": 1"# }.joined(separator: ", ") + "}}" }
        try #"{"auhost": 1, "name": "Too many", "nodes": [{"id": "eq", "unit": "aufx:ipeq:AUHs"}], "chain": ["eq"], "snapshots": [\#(snapshots.joined(separator: ", "))]}"#
            .write(toFile: tooMany, atomically: true, encoding: .utf8)
        #expect(try rig.send("open \(tooMany)") == "error: \(tooMany): snapshots hold at most 256 values in all, not 300")
        let afterRefusal = recording.output.count
        try #require(recording.output.wait(forCount: afterRefusal + 9_600), "the recording stalled")
        let stillLoud = Self.peak(samples, afterRefusal..<(afterRefusal + 9_600))
        #expect(abs(stillLoud - 0.5) < 0.05 && Self.longestSilence(samples, afterRefusal..<(afterRefusal + 9_600)) < 64, "after the refusal B plays on: \(stillLoud)")
        #expect(try rig.send("status").contains(" opened=1 "))
    }

    /// A mono preset opened on a stereo rig: the ports stay (the reply says so), the mono
    /// output plays on `out_1` (and `out_2`), and `in_1` feeds its one input.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/lv2/amp-swh.lv2"), "needs swh-lv2 (amp-swh.lv2) installed"))
    func aPresetWithOtherPortCountsPlaysOnTheRigsPorts() throws {
        let mono = #"{"auhost": 1, "name": "Mono", "nodes": [{"id": "amp", "unit": "lv2:http://plugin.org.uk/swh-plugins/amp", "parameters": {"gain": 0}}], "chain": ["amp"]}"#
        let sine = try SineRig(files: ["mono.json": mono])
        defer { sine.tearDown() }
        let rig = sine.rig, recording = sine.recorder, folder = sine.folder
        let probe = try rig.probeOnceRegistered()
        #expect(probe.sources(matching: "^\(rig.clientName):out_", kind: .audio).count == 2, "the rig starts stereo")
        let path = folder.appendingPathComponent("mono.json").path
        let reply = try rig.send("open \(path)")
        #expect(reply == "ok opened \(path) crossfade_ms=50 ports_kept=in:2,out:2 chain=in:1,out:1", "\(reply)")
        let start = recording.output.count + 4_800
        try #require(recording.output.wait(forCount: start + 4_800), "the recording stalled")
        let level = Self.peak(recording.output.samples, start..<(start + 4_800))
        #expect(abs(level - 0.5) < 0.05, "the mono chain's output on out_1: \(level), expected the sine at 0 dB")
        #expect(probe.sources(matching: "^\(rig.clientName):out_", kind: .audio).count == 2, "the ports stay")
    }

    /// `open` over OSC (`--osc`): the reply comes back as `/reply`, the session then works
    /// on the new chain; a bad preset is refused the same way.
    @Test func openWorksOverOSC() throws {
        let folder = try Self.folder(["loud.json": Self.loud])
        let rig = try LiveRig(preset: Self.quiet, extraArguments: ["--osc", "0"])
        defer {
            rig.tearDown()
            try? FileManager.default.removeItem(at: folder)
        }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        let line = try #require(rig.standardError.split(separator: "\n").first { $0.contains("OSC port 127.0.0.1:") }, "\(rig.standardError)")
        let port = try #require(UInt16(line.split(separator: ":").last?.prefix { $0.isNumber } ?? ""))
        let loud = folder.appendingPathComponent("loud.json").path
        let open = OSCMessage(address: "/open", arguments: [.string(loud)])
        #expect(try OSCLiveTests.exchange(open.encoded, port: port) == OSCMessage(address: "/reply", arguments: [.string("ok opened \(loud) crossfade_ms=50")]))
        #expect(try rig.send("get level gain") == "ok 0")
        let missing = OSCMessage(address: "/open", arguments: [.string(folder.appendingPathComponent("none.json").path)])
        let refusal = try OSCLiveTests.exchange(missing.encoded, port: port)?.arguments.first
        #expect(refusal.map { if case .string(let text) = $0 { text.hasPrefix("error: ") && text.contains("none.json") } else { false } } == true, "\(String(describing: refusal))")
    }

    /// `--bank FOLDER`: program change 1 opens the folder's second preset by file name (the
    /// loud one), program change 0 the first; a program past the bank is one notice.
    @Test func aProgramChangeOpensTheBanksPreset() throws {
        let sine = try SineRig(
            files: ["00-quiet.json": Self.quiet, "01-loud.json": Self.loud], extraArguments: { ["--midi-connect", "controller:midi_out", "--bank", $0.path] })
        defer { sine.tearDown() }
        let rig = sine.rig, pedal = sine.controller, recording = sine.recorder, bank = sine.folder
        pedal.arm(status: 0xC0, data1: 1, data2: 0)
        let rise = recording.firstRise(from: recording.output.count, above: 0.3)
        pedal.disarm()
        try #require(rise != nil, "program change 1 never made it loud; stderr: \(rig.standardError)")
        #expect(rig.waitForStandardError("auhost: opened 'Loud' (\(bank.appendingPathComponent("01-loud.json").path))"), "\(rig.standardError)")
        #expect(try rig.send("get level gain") == "ok 0")

        pedal.arm(status: 0xC0, data1: 0, data2: 0)
        #expect(rig.waitForStandardError("auhost: opened 'Quiet'"), "\(rig.standardError)")
        pedal.disarm()
        let settled = recording.output.count + 4_800
        try #require(recording.output.wait(forCount: settled + 4_800))
        let level = Self.peak(recording.output.samples, settled..<(settled + 4_800))
        #expect(abs(level - 0.05) < 0.01, "after program change 0 the quiet chain plays: \(level)")

        pedal.arm(status: 0xC0, data1: 7, data2: 0)
        #expect(rig.waitForStandardError("auhost: program change 7: the bank has 2 presets (0...1)"), "\(rig.standardError)")
        pedal.disarm()
    }

    /// The release auhost under the shim and strict mode, switching between the two chains
    /// 12 times (each crossfade renders both on the process thread): the process thread
    /// allocates, frees, retains, releases, locks and traps nothing.
    @Test(.enabled(if: LiveRunTests.releaseAuhost != nil, "no up-to-date release auhost: make test builds it (swift build -c release --product auhost, AllocCounter, AUHostGain, AUHostArpeggiator)"))
    func theReleaseCrossfadeRetainsNothing() throws {
        let executable = try #require(LiveRunTests.releaseAuhost).appendingPathComponent("auhost")
        let shim = executable.deletingLastPathComponent().appendingPathComponent("libAllocCounter.so")
        let folder = try Self.folder(["quiet.json": Self.quiet, "loud.json": Self.loud])
        let rig = try LiveRig(
            preset: Self.quiet, environment: ["LD_PRELOAD": shim.path, "AUHOST_STRICT_RENDER": "1"], periodFrames: 256, executable: executable)
        defer {
            rig.tearDown()
            try? FileManager.default.removeItem(at: folder)
        }
        try rig.connectTester()
        func counts() throws -> [String: Int] {
            var values: [String: Int] = [:]
            for word in try rig.send("status").split(separator: " ") {
                let parts = word.split(separator: "=")
                if parts.count == 2, parts[0].hasPrefix("render_"), let value = Int(parts[1]) { values[String(parts[0])] = value }
            }
            return values
        }
        // A first switch each way: the first cycles of a code path instantiate metadata.
        for name in ["loud.json", "quiet.json"] { #expect(try rig.send("open \(folder.appendingPathComponent(name).path)").hasPrefix("ok opened")) }
        let before = try counts()
        try #require(before["render_allocations"] != nil, "the shim is not loaded (no render_ counts in status)")
        try #require(before["render_trapped"] != nil, "strict mode is not watching the process thread; stderr: \(rig.standardError)")
        for step in 0..<12 {
            let reply = try rig.send("open \(folder.appendingPathComponent(step % 2 == 0 ? "loud.json" : "quiet.json").path)")
            #expect(reply.hasPrefix("ok opened"), "\(reply)")
        }
        let after = try counts()
        for key in ["render_allocations", "render_frees", "render_locks", "render_trapped", "render_retains", "render_releases"] {
            #expect(after[key] == before[key], "\(key): \(before[key] ?? -1) before, \(after[key] ?? -1) after 12 switches; stderr: \(rig.standardError.suffix(3000))")
        }
        #expect(try rig.send("status").contains(" opened=14 "))
    }
}
