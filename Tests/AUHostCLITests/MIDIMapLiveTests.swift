import AUCore
import AUHost
import AUJACK
import AUTestSupport
import Foundation
import Synchronization
import Testing

/// A footswitch and expression pedal for live tests: a JACK client (`controller`) with
/// `midi_out` sending one armed message at frame `offset` of a period, again every 4,800
/// frames while armed (a cycle the loaded dummy server skips may lose one), with a marker
/// (1.0) at the same frame on `out_2` and a steady 0.5 on `out_1` for auhost to play.
final class ControllerClient: @unchecked Sendable {
    /// What the process callback works on.
    final class Pedal: @unchecked Sendable {
        /// status << 16 | data1 << 8 | data2; -1: nothing armed.
        let armed = Atomic<Int>(-1)
        let sent = Atomic<Int>(0)
        let offset: Int
        /// A sine of this frequency (Hz, at 48 kHz) on `out_1` instead of the steady 0.5.
        let frequency: Double
        private var phase = 0.0
        var midiOut: JACKPort?
        private var framesToNext = 0
        private let event = UnsafeMutablePointer<MIDIEvent>.allocate(capacity: 1)
        init(offset: Int, frequency: Double) {
            self.offset = offset
            self.frequency = frequency
            event.initialize(to: MIDIEvent(offset: 0, status: 0xB0, data1: 0))
        }
        deinit { event.deallocate() }

        /// One period. Called from the client's process callback only.
        func run(frames: Int, playback: AudioBuffers) {
            for frame in 0..<frames {
                playback[0][frame] = frequency > 0 ? Float(0.5 * sin(phase)) : 0.5
                phase += 2 * Double.pi * frequency / 48_000
                playback[1][frame] = 0
            }
            phase = phase.truncatingRemainder(dividingBy: 2 * Double.pi)
            guard let midiOut else { return }
            let packed = armed.load(ordering: .acquiring)
            guard packed >= 0 else {
                framesToNext = 0
                midiOut.writeMIDI(UnsafeBufferPointer(start: event, count: 0), frames: frames)
                return
            }
            let send = framesToNext <= 0 && offset < frames
            if send {
                event.pointee = MIDIEvent(offset: Int32(offset), status: UInt8(packed >> 16), data1: UInt8(packed >> 8 & 0x7F), data2: UInt8(packed & 0x7F))
                playback[1][offset] = 1
                framesToNext = 4_800
                sent.add(1, ordering: .relaxed)
            }
            framesToNext -= frames
            midiOut.writeMIDI(UnsafeBufferPointer(start: event, count: send ? 1 : 0), frames: frames)
        }
    }

    let client: JACKTestClient
    let pedal: Pedal
    var midiOut: JACKPort { pedal.midiOut! }
    var sent: Int { pedal.sent.load(ordering: .relaxed) }

    init(serverName: String, offset: Int, frequency: Double = 0) throws {
        let pedal = Pedal(offset: offset, frequency: frequency)
        let jack = try JACKClient(name: "controller", serverName: serverName)
        pedal.midiOut = try jack.registerPort("midi_out", kind: .midi, direction: .playback)
        client = try JACKTestClient(client: jack, captureChannels: 0, playbackChannels: 2) { frames, _, playback in pedal.run(frames: frames, playback: playback) }
        self.pedal = pedal
        try client.start()
    }
    deinit { client.stop() }

    /// Sends `status data1 data2` until ``disarm()``.
    func arm(status: UInt8, data1: UInt8, data2: UInt8) { pedal.armed.store(Int(status) << 16 | Int(data1) << 8 | Int(data2), ordering: .releasing) }
    func disarm() { pedal.armed.store(-1, ordering: .releasing) }
}

/// Records auhost's `out_1` and the controller's marker in the same period.
final class MarkedRecorder: @unchecked Sendable {
    let output = Recording(capacity: 48_000 * 60)
    let marker = Recording(capacity: 48_000 * 60)
    private(set) var client: JACKTestClient?

    init(serverName: String, auhost: String) throws {
        client = try JACKTestClient(name: "recorder", serverName: serverName, captureChannels: 2, playbackChannels: 0) { [output, marker] _, capture, _ in
            output.append(capture[0])
            marker.append(capture[1])
        }
        try client?.start()
        let jack = try #require(client?.client)
        try jack.connect("\(auhost):out_1", to: "recorder:in_1")
        try jack.connect("controller:out_2", to: "recorder:in_2")
        try jack.connect("controller:out_1", to: "\(auhost):in_1")
    }

    func stop() {
        client?.stop()
        client = nil
    }

    /// The first frame from `start` on where the output rises above `threshold`, within 20 s.
    func firstRise(from start: Int, above threshold: Float) -> Int? { output.firstSound(from: start, above: threshold) }

    /// The marker frames recorded so far from `start` on.
    func markers(from start: Int) -> [Int] {
        let end = marker.count
        return (start..<max(start, end)).filter { marker.samples[$0] > 0.5 }
    }
}

@Suite(.serialized) struct MIDIMapLiveTests {
    static let gainChain = """
        {"auhost": 1, "name": "Pedal gain",
         "nodes": [{"id": "gain", "unit": "aufx:gain:AUHs", "parameters": {"gain": -96, "smoothing": 0}}],
         "chain": ["gain"]%@}
        """

    static func chain(midiMap: String?) -> String {
        gainChain.replacingOccurrences(of: "%@", with: midiMap.map { ", \"midiMap\": \($0)" } ?? "")
    }

    /// Live under jackd: an effects-only chain takes `--midi-connect` (its map gives it a
    /// control `midi_in`), and a CC moves the mapped gain at the CC's own frame: the
    /// recording rises exactly at a frame the controller marked as the one it sent the CC
    /// in (frame 37 of its period, not the period's start).
    @Test func aControlChangeMovesTheMappedParameterAtItsFrame() throws {
        var controller: ControllerClient?
        let rig = try LiveRig(
            preset: Self.chain(midiMap: #"[{"cc": 7, "channel": 1, "parameter": "gain.gain", "min": -96, "max": 0}]"#), extraArguments: ["--midi-connect", "controller:midi_out"],
            periodFrames: 256, prepare: { server in controller = try ControllerClient(serverName: server, offset: 37) })
        var recorder: MarkedRecorder?
        defer {
            recorder?.stop()
            controller = nil
            rig.tearDown()
        }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        _ = try rig.probeOnceRegistered()
        recorder = try MarkedRecorder(serverName: rig.server.name, auhost: rig.clientName)
        let pedal = try #require(controller)
        #expect(pedal.midiOut.connectionCount == 1, "the controller was not connected to midi_in: \(rig.standardError)")
        let recording = try #require(recorder)
        try #require(recording.output.wait(forCount: 4_800), "nothing recorded")
        let start = recording.output.count
        #expect(recording.output.samples[start - 1] < 0.001, "the gain at -96 dB let \(recording.output.samples[start - 1]) through")
        pedal.arm(status: 0xB0, data1: 7, data2: 127)
        let rise = recording.firstRise(from: start, above: 0.25)
        pedal.disarm()
        let frame = try #require(rise, "the output never rose after \(pedal.sent) CCs; stderr: \(rig.standardError)")
        try #require(recording.marker.wait(forCount: frame + 1))
        let marks = recording.markers(from: start)
        #expect(marks.contains(frame), "the gain rose at frame \(frame); the CCs were sent at frames \(marks)")
        #expect(abs(recording.output.samples[frame] - 0.5) < 1e-3 && recording.output.samples[frame - 1] < 0.001,
                "around the CC: \(recording.output.samples[frame - 1]) then \(recording.output.samples[frame])")
        #expect(try rig.send("get gain gain") == "ok 0")
    }

    /// `learn gain.gain`, then a CC that moves: the CC is mapped over the whole range
    /// (-96...24 dB), a later value of it sets the gain, `midimap` lists it, `save` writes
    /// it and `unlearn` removes it.
    @Test func learnMapsTheNextControlChangeAndSaveWritesIt() throws {
        var controller: ControllerClient?
        let folder = try TemporaryFolder(prefix: "auhost-learn")
        defer { folder.remove() }
        let rig = try LiveRig(
            preset: Self.chain(midiMap: nil), extraArguments: ["--midi-connect", "controller:midi_out", "--save-dir", folder.path],
            periodFrames: 256, prepare: { server in controller = try ControllerClient(serverName: server, offset: 5) })
        defer {
            controller = nil
            rig.tearDown()
        }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        let pedal = try #require(controller)
        #expect(try rig.send("midimap") == "ok none")
        #expect(try rig.send("learn gain.gian").hasPrefix("error: "))
        #expect(try rig.send("learn gain.gain") == "ok learning gain.gain")
        pedal.arm(status: 0xB2, data1: 20, data2: 127)
        let learned = rig.waitForStandardError("auhost: learned CC 20 on channel 3 for gain.gain")
        pedal.disarm()
        #expect(learned, "\(rig.standardError)")
        #expect(try rig.send("midimap") == "ok gain.gain=cc20/ch3/linear/-96...24")
        pedal.arm(status: 0xB2, data1: 20, data2: 64)
        // -96 + 120 × 64/127 dB.
        let expected = -96 + 120 * 64.0 / 127
        func gain() throws -> Double? { Double(try rig.send("get gain gain").dropFirst(3)) }
        var value = try gain()
        for _ in 0..<200 where abs((value ?? 0) - expected) > 1e-3 {
            Thread.sleep(forTimeInterval: 0.05)
            value = try gain()
        }
        pedal.disarm()
        #expect(abs((value ?? 0) - expected) < 1e-3, "CC 20 = 64 set the gain to \(String(describing: value)), not \(expected)")
        #expect(try rig.send("save learned.json") == "ok saved learned.json")
        let saved = try PresetLoader.read(file: folder.file("learned.json"))
        #expect(saved.midiMap == [PresetMIDIMapping(source: .controlChange(20), channel: 3, parameter: "gain.gain")], "\(saved.midiMap)")
        #expect(try rig.send("unlearn gain.gain") == "ok unlearned gain.gain mappings=1")
        #expect(try rig.send("midimap") == "ok none")
    }

    /// Program change 1 recalls the second snapshot: a 1 kHz sine at -20 dB goes to 0 dB
    /// over the snapshot's 50 ms ramp, starting at the program change's frame, and no
    /// sample-to-sample step during it is larger than the sine's own largest at 0 dB (an
    /// unramped switch jumps by 0.45). `snapshot quiet` goes back.
    @Test func aProgramChangeRecallsASnapshotWithoutAClick() throws {
        var controller: ControllerClient?
        let snapshots = #"[{"name": "quiet", "parameters": {"gain.gain": -20}}, {"name": "loud", "parameters": {"gain.gain": 0}}]"#
        let rig = try LiveRig(
            preset: Self.chain(midiMap: nil).replacingOccurrences(of: "\"gain\": -96", with: "\"gain\": -20").replacingOccurrences(of: "]}", with: "], \"snapshots\": \(snapshots)}"),
            extraArguments: ["--midi-connect", "controller:midi_out"], periodFrames: 256,
            prepare: { server in controller = try ControllerClient(serverName: server, offset: 100, frequency: 1_000) })
        var recorder: MarkedRecorder?
        defer {
            recorder?.stop()
            controller = nil
            rig.tearDown()
        }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        _ = try rig.probeOnceRegistered()
        recorder = try MarkedRecorder(serverName: rig.server.name, auhost: rig.clientName)
        let pedal = try #require(controller), recording = try #require(recorder)
        try #require(recording.output.wait(forCount: 9_600), "nothing recorded")
        let start = recording.output.count
        pedal.arm(status: 0xC0, data1: 1, data2: 0)
        let rise = recording.firstRise(from: start, above: 0.1)
        pedal.disarm()
        let frame = try #require(rise, "the level never rose after \(pedal.sent) program changes; stderr: \(rig.standardError)")
        try #require(recording.output.wait(forCount: frame + 9_600) && recording.marker.wait(forCount: frame + 9_600))
        let mark = try #require(recording.markers(from: start).last { $0 <= frame }, "no program change was marked before frame \(frame)")
        let samples = recording.output.samples
        func largestStep(_ range: Range<Int>) -> Float { range.dropFirst().map { abs(samples[$0] - samples[$0 - 1]) }.max() ?? 0 }
        let during = largestStep((mark - 256)..<(mark + 2_400 + 256)), own = largestStep((mark + 4_800)..<(mark + 9_600))
        #expect(own > 0.06 && during <= own * 1.01, "largest step during the recall \(during), the sine's own at 0 dB \(own)")
        let before = largestStep((mark - 2_000)..<mark), after = (mark + 2_400)..<(mark + 4_800)
        #expect(before < own * 0.11, "before the program change the sine was at -20 dB: \(before) vs \(own)")
        #expect(after.map { abs(samples[$0]) }.max() ?? 0 > 0.49, "the recall did not reach 0 dB 50 ms after the program change")
        #expect(try rig.send("snapshot quiet") == "ok snapshot quiet")
        #expect(try rig.send("snapshot nope").hasPrefix("error: no snapshot 'nope'; the preset has: quiet, loud"))
        var gain = ""
        for _ in 0..<200 where gain != "ok -20" {
            gain = try rig.send("get gain gain")
            if gain != "ok -20" { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(gain == "ok -20")
    }
}
