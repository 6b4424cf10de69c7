import AUCore
import AUHost
import AUJACK
import AUTestSupport
import Foundation
import Synchronization
import Testing

/// Notes seen on a JACK MIDI port, from a test client's process callback.
final class MIDIMonitor: @unchecked Sendable {
    private let events = UnsafeMutablePointer<MIDIEvent>.allocate(capacity: 64)
    let noteOns = Atomic<Int>(0)
    let lastNote = Atomic<Int>(-1)
    deinit { events.deallocate() }
    /// Called from the client's process callback only.
    func read(_ port: JACKPort, frames: Int) {
        let count = port.readMIDI(frames: frames, into: events, capacity: 64)
        for index in 0..<count where events[index].status & 0xF0 == 0x90 && events[index].data2 > 0 {
            lastNote.store(Int(events[index].data1), ordering: .relaxed)
            noteOns.add(1, ordering: .relaxed)
        }
    }
}

@Suite(.serialized) struct LiveMIDITests {
    static var installed: Bool { FileManager.default.fileExists(atPath: "/usr/lib/lv2/midifilter.lv2/manifest.ttl") }

    /// Live under jackd: a keyboard that appears after auhost started is connected
    /// (`--midi-connect` follows ports), x42 MIDI transpose (+12) before the Synth plays its
    /// A4 an octave up, and the transposed notes reach a client recording `midi_out`.
    @Test(.enabled(if: installed, "x42-plugins is not installed (make deps installs it)"))
    func aTransposerBeforeTheSynthLiveAndMIDIOutToAnotherClient() throws {
        let chain = """
            {"auhost": 1, "name": "Live transpose",
             "nodes": [{"id": "up", "unit": "lv2:http://gareus.org/oss/lv2/midifilter#miditranspose", "parameters": {"transpose": 12}},
                       {"id": "synth", "unit": "aumu:synt:AUHs", "parameters": {"waveform": "Sine", "attack": 1, "sustain": 100}}],
             "chain": ["up", "synth"], "midi": [["up", "output"]]}
            """
        let rig = try LiveRig(preset: chain, extraArguments: ["--midi-connect", "late-keyboard:midi_out"])
        let sent = NoteSender(.noteOn(69, velocity: 100, offset: 10))
        let recording = Recording(capacity: 48_000 * 60)
        let monitor = MIDIMonitor()
        var keyboard: JACKTestClient?
        defer {
            keyboard?.stop()
            keyboard = nil
            rig.tearDown()
        }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        // The keyboard appears only now; it also records auhost's audio and MIDI output.
        let client = try JACKClient(name: "late-keyboard", serverName: rig.server.name)
        let midiOut = try client.registerPort("midi_out", kind: .midi, direction: .playback)
        let midiIn = try client.registerPort("midi_in", kind: .midi, direction: .capture)
        keyboard = try JACKTestClient(client: client, captureChannels: 1, playbackChannels: 0) { frames, capture, _ in
            midiOut.writeMIDI(sent.eventsThisCycle(frames: frames), frames: frames)
            monitor.read(midiIn, frames: frames)
            recording.append(capture[0])
        }
        try keyboard?.start()
        let probe = try rig.probeOnceRegistered(probeName: "probe-midi-out")
        try probe.connect("\(rig.clientName):out_1", to: try #require(keyboard?.capturePorts.first?.fullName))
        try probe.connect("\(rig.clientName):midi_out", to: midiIn.fullName)
        // auhost connects the new keyboard from its control loop (every 50 ms).
        var connected = false
        for _ in 0..<100 where !connected {
            connected = midiOut.connectionCount > 0
            if !connected { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(connected, "the late keyboard was not connected to midi_in")
        let start = try #require(recording.firstSound(whileSending: sent), "the synth stayed silent after \(sent.sent.load(ordering: .relaxed)) note-ons")
        try #require(recording.wait(forCount: start + 24_000), "recorded \(recording.count - start) of 24000 frames")
        let samples = Array(recording.samples[(start + 4_800)..<(start + 24_000)])
        var periods: [Double] = []
        var last: Double?
        for index in 1..<samples.count where samples[index - 1] < 0 && samples[index] >= 0 {
            let crossing = Double(index - 1) + Double(-samples[index - 1] / (samples[index] - samples[index - 1]))
            if let last { periods.append(crossing - last) }
            last = crossing
        }
        periods.sort()
        let frequency = periods.isEmpty ? 0 : 48_000 / periods[periods.count / 2]
        #expect(abs(frequency - 880) < 2, "measured \(frequency) Hz for A4 transposed an octave up")
        // Every note-on auhost took in left on midi_out once, transposed (a cycle the loaded
        // server skips may lose one on the way in: never more out than were sent).
        let noteOns = monitor.noteOns.load(ordering: .relaxed), sentCount = sent.sent.load(ordering: .relaxed)
        #expect(noteOns >= 1 && noteOns <= sentCount && monitor.lastNote.load(ordering: .relaxed) == 81,
                "midi_out carried \(noteOns) note-ons for \(sentCount) sent, the last \(monitor.lastNote.load(ordering: .relaxed))")
    }
}
