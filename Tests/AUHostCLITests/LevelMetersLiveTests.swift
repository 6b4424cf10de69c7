import AUCore
import AUHost
import AUTestSupport
import Foundation
import Testing

/// `meters` and `status` under jackd: input and output peak and RMS per channel, clips
/// since `meters reset`, each node's output level; plugin outputs that are not levels stay out.
@Suite(.serialized) struct LevelMetersLiveTests {
    /// Sends `line` until its reply holds every one of `words` (up to 20 s: the meters read
    /// windows of 1,024 frames); the last reply.
    static func reply(_ rig: LiveRig, _ line: String, containing words: [String]) throws -> String {
        var reply = ""
        for _ in 0..<400 {
            reply = try rig.send(line)
            if words.allSatisfy({ reply.split(separator: " ").contains(Substring($0)) }) { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return reply
    }

    @Test func metersShowInputOutputNodeLevelsAndClips() throws {
        var controller: ControllerClient?
        let rig = try LiveRig(
            preset: MIDIMapLiveTests.chain(midiMap: nil).replacingOccurrences(of: "\"gain\": -96", with: "\"gain\": 0"),
            periodFrames: 256, prepare: { server in controller = try ControllerClient(serverName: server, offset: 0) })
        defer {
            _ = controller.take()  // the controller client goes first
            rig.tearDown()
        }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        let probe = try rig.probeOnceRegistered()
        try probe.connect("controller:out_1", to: "\(rig.clientName):in_1")
        // A steady 0.5 through 0 dB: -6.0 dBFS peak and RMS in and out, nothing on in_2.
        let level = ["in_1.peak=-6.0", "in_1.rms=-6.0", "in_2.peak=-inf", "out_1.peak=-6.0", "out_1.rms=-6.0", "gain.peak=-6.0", "clips_in=0", "clips_out=0"]
        var meters = try Self.reply(rig, "meters", containing: level)
        for word in level { #expect(meters.split(separator: " ").contains(Substring(word)), "\(word): \(meters)") }
        let status = try Self.reply(rig, "status", containing: ["in_peak=-6.0", "out_peak=-6.0"])
        #expect(status.contains("in_peak=-6.0 out_peak=-6.0 clips_in=0 clips_out=0"), "\(status)")
        // +12 dB: 2.0 out, clipping.
        #expect(try rig.send("set gain gain 12") == "ok 12")
        meters = try Self.reply(rig, "meters", containing: ["out_1.peak=6.0", "gain.peak=6.0"])
        #expect(meters.contains("out_1.peak=6.0") && meters.contains("gain.peak=6.0"), "\(meters)")
        let clips = meters.split(separator: " ").first { $0.hasPrefix("clips_out=") }.flatMap { Int($0.dropFirst("clips_out=".count)) }
        #expect((clips ?? 0) > 0, "\(meters)")
        #expect(try rig.send("set gain gain 0") == "ok 0")
        _ = try Self.reply(rig, "meters", containing: ["out_1.peak=-6.0"])
        #expect(try rig.send("meters reset") == "ok clips_in=0 clips_out=0")
        meters = try Self.reply(rig, "meters", containing: ["out_1.peak=-6.0"])
        #expect(meters.contains("clips_in=0 clips_out=0"), "\(meters)")
    }

    static var mdaInstalled: Bool { FileManager.default.fileExists(atPath: "/usr/lib/lv2/mda.lv2/manifest.ttl") }

    /// The shipped guitar-amp preset: its meters are the input, the output and its nodes'
    /// levels, never a plugin's internal output port.
    @Test(.enabled(if: mdaInstalled, "mda-lv2 is not installed (make deps installs it)"))
    func theGuitarAmpsMetersAreItsInputAndOutput() throws {
        let preset = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Presets/guitar-amp.json").path
        let rig = try LiveRig(chain: preset, periodFrames: 256)
        defer { rig.tearDown() }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        let meters = try rig.send("meters")
        let keys = meters.split(separator: " ").dropFirst().map { String($0.prefix { $0 != "=" }) }
        let expected = ["in_1.peak", "in_1.rms", "out_1.peak", "out_1.rms", "clips_in", "clips_out", "drive.peak", "amp.peak", "cabinet.peak", "room.rms"]
        for key in expected { #expect(keys.contains(key), "\(key) missing: \(meters)") }
        let others = keys.filter { !($0.hasSuffix(".peak") || $0.hasSuffix(".rms") || $0.hasPrefix("clips_")) }
        #expect(others.isEmpty, "plugin ports among the meters: \(others)")
    }

    /// Guitarix's amp has internal control outputs (`SCHEDULE`): not meters of the graph.
    @Test(.enabled(if: GuitarixLiveTests.installed, "guitarix-lv2 is not installed (make deps installs it)"))
    func aPluginsInternalOutputPortsAreNotMeters() throws {
        let rig = try LiveRig(preset: GuitarixLiveTests.chain, periodFrames: 256)
        defer { rig.tearDown() }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        let meters = try rig.send("meters")
        #expect(meters.contains(" out_1.peak=") && meters.contains(" amp.peak="), "\(meters)")
        #expect(!meters.contains("SCHEDULE"), "\(meters)")
    }
}
