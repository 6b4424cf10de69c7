import AUCore
import AUMIDI
import AUTestSupport
import Foundation
import Testing

/// Issue 35's paths: a FIFO is never opened as a sound bank, an input or a log (each is
/// refused at once with one line naming it, where it used to block forever); the plugin log
/// is never a file the command reads or writes; every `--midi-out` mistake is found before
/// anything renders, and no WAV is left behind.
@Suite struct HostilePathTests {
    /// `auhost ARGUMENTS` with a deadline: a run that blocks on a FIFO is killed and fails.
    static func auhost(_ arguments: [String]) throws -> ChildProcess.Outcome {
        try ChildProcess.run(try auhostExecutable(), arguments, timeout: 60)
    }

    static let gain = #"{"auhost": 1, "name": "G", "nodes": [{"id": "g", "unit": "aufx:gain:AUHs"}], "chain": ["g"]}"#

    /// A held C for two seconds.
    static func song(_ path: String) throws {
        var sequence = MusicSequence()
        var track = MusicTrack()
        track.addMIDINoteEvent(at: 0, MIDINoteMessage(channel: 0, note: 60, velocity: 100, duration: 4))
        sequence.tracks = [track]
        try sequence.write(to: path, overwrite: true)
    }

    @Test("a FIFO as a sound bank, an input or a plugin log is refused at once, naming it")
    func fifosAreNeverOpened() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fifo = folder.file("f.sf2")
        try #require(mkfifo(fifo, 0o600) == 0)
        let sampler = try folder.preset("s.json", #"{"auhost": 1, "name": "S", "nodes": [{"id": "s", "unit": "aumu:samp:AUHs", "soundbank": "f.sf2"}], "chain": ["s"]}"#)
        let graph = try Self.auhost(["graph", sampler])
        #expect(!graph.timedOut && graph.status == 1, "\(graph.errors)")
        #expect(graph.errors.contains("'\(fifo)' is a FIFO, not a file"), "\(graph.errors)")

        let gain = try folder.preset("g.json", Self.gain)
        let midi = folder.file("fifo.mid")
        try #require(mkfifo(midi, 0o600) == 0)
        let render = try Self.auhost(["render", gain, midi, "-o", folder.file("x.wav")])
        #expect(!render.timedOut && render.status == 1, "\(render.errors)")
        #expect(render.errors.contains("\(midi): is a FIFO, not a file"), "\(render.errors)")

        let log = try Self.auhost(["list", "--plugin-log", fifo])
        #expect(!log.timedOut && log.status == 1, "\(log.errors)")
        #expect(log.errors == "auhost: --plugin-log: '\(fifo)' is a FIFO, not a file; expected a regular file to append to\n", "\(log.errors)")
        #expect(folder.contents() == ["f.sf2", "fifo.mid", "g.json", "s.json"])
    }

    @Test("--plugin-log is never the preset, an input or an output; an empty log the failing command made is removed")
    func pluginLogIsNeverAFileOfTheCommand() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let gain = try folder.preset("g.json", Self.gain)
        try writeAudio(folder.file("in.wav"), sampleRate: 48_000, channels: 1, frames: 480) { _, _ in 0 }
        let wave = try #require(FileManager.default.contents(atPath: folder.file("in.wav")))
        for log in [gain, folder.file("in.wav"), "\(folder.path)/./in.wav", folder.file("o.wav")] {
            let result = try Self.auhost(["render", gain, folder.file("in.wav"), "-o", folder.file("o.wav"), "--plugin-log", log])
            #expect(result.status == 1, "\(result.errors)")
            #expect(result.errors.contains("--plugin-log: '\(log)' is also the command's argument"), "\(result.errors)")
            #expect(folder.contents() == ["g.json", "in.wav"], "\(log)")
        }
        #expect(FileManager.default.contents(atPath: gain) == Data(Self.gain.utf8))
        #expect(FileManager.default.contents(atPath: folder.file("in.wav")) == wave)
        // A failure (the output exists) does not leave the log it made, empty.
        try Data().write(to: URL(fileURLWithPath: folder.file("o.wav")))
        let exists = try Self.auhost(["render", gain, folder.file("in.wav"), "-o", folder.file("o.wav"), "--plugin-log", folder.file("p.log")])
        #expect(exists.status == 1 && exists.errors.contains("already exists"), "\(exists.errors)")
        #expect(folder.contents() == ["g.json", "in.wav", "o.wav"])
    }

    @Test("--plugin-log is never a file the preset names (a sound bank), however spelt; that file is left as it was")
    func pluginLogIsNeverAFileThePresetReads() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sampler = try folder.preset("s.json", """
            {"auhost": 1, "name": "S", "nodes": [{"id": "s", "unit": "aumu:samp:AUHs", "parameters": {"soundbank": "bank.sf2"}}], "chain": ["s"]}
            """)
        try Data("what was there\n".utf8).write(to: URL(fileURLWithPath: folder.file("bank.sf2")))
        try Self.song(folder.file("in.mid"))
        for log in [folder.file("bank.sf2"), "\(folder.path)/./bank.sf2"] {
            let result = try Self.auhost(["render", sampler, folder.file("in.mid"), "-o", folder.file("o.wav"), "--plugin-log", log])
            #expect(result.status == 1, "\(result.errors)")
            #expect(result.errors.contains("is the command's plugin log (--plugin-log)"), "\(result.errors)")
            #expect(folder.contents() == ["bank.sf2", "in.mid", "s.json"], "\(log)")
        }
        #expect(try String(contentsOfFile: folder.file("bank.sf2"), encoding: .utf8) == "what was there\n")
    }

    @Test("every --midi-out mistake is refused before rendering, and no WAV is left behind")
    func midiOutIsCheckedBeforeRendering() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let arpeggiator = try folder.preset("arp.json", """
            {"auhost": 1, "name": "A", "nodes": [{"id": "arp", "unit": "aumi:arpg:AUHs"}, {"id": "synth", "unit": "aumu:synt:AUHs"}],
             "chain": ["arp", "synth"], "midi": [["arp", "output"]]}
            """)
        try Self.song(folder.file("in.mid"))
        try Data("taken".utf8).write(to: URL(fileURLWithPath: folder.file("taken.mid")))
        try FileManager.default.createDirectory(atPath: folder.file("folder"), withIntermediateDirectories: false)
        try #require(mkfifo(folder.file("fifo.mid"), 0o600) == 0)
        let before = folder.contents()
        let cases: [(String, String)] = [
            (folder.file("taken.mid"), "already exists"),
            (folder.file("fifo.mid"), "is a FIFO, not a file"),
            ("/dev/null", "is a character device, not a file"),
            (folder.file("folder"), "is a folder"),
            (folder.file("nowhere/out.mid"), "does not exist"),
            ("", "is not a file name"),
            (folder.file("in.mid"), "is the input"),
            (folder.file("out.wav"), "is the audio output too"),
        ]
        for (midi, says) in cases {
            let result = try Self.auhost(["render", arpeggiator, folder.file("in.mid"), "-o", folder.file("out.wav"), "--midi-out", midi, "--tail", "0"])
            #expect(!result.timedOut && result.status != 0, "\(midi): \(result.errors)")
            #expect(result.errors.contains(says), "\(midi): \(result.errors)")
            #expect(!result.output.contains("->"), "\(midi): rendered before refusing: \(result.output)")
            #expect(folder.contents() == before, "\(midi)")
        }
        #expect(try String(contentsOfFile: folder.file("taken.mid"), encoding: .utf8) == "taken")
    }

    @Test("a song's track sent to \"output\" is what --midi-out writes")
    func trackToOutputWithMIDIOut() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let chain = try folder.preset("t.json", """
            {"auhost": 1, "name": "T", "nodes": [{"id": "synth", "unit": "aumu:synt:AUHs"}], "chain": ["synth"], "tracks": {"1": "output"}}
            """)
        try Self.song(folder.file("in.mid"))
        let result = try Self.auhost(["render", chain, folder.file("in.mid"), "-o", folder.file("out.wav"), "--midi-out", folder.file("out.mid"), "--tail", "1"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("out.mid: 2 MIDI events"), "\(result.output)")
    }
    /// A format-0 file at 1200 BPM whose notes (a note-on, then its note-off at the same
    /// tick) follow each other a tick apart: `notes` × 2 events, few per cycle.
    static func denseSong(_ path: String, notes: Int) throws {
        var track: [UInt8] = [0x00, 0xFF, 0x51, 0x03, 0x00, 0xC3, 0x50]  // 50,000 µs per quarter
        track.reserveCapacity(notes * 8 + 16)
        for index in 0..<notes {
            let key = UInt8(60 + index % 12)
            track += [index == 0 ? 0 : 1, 0x90, key, 100, 0x00, 0x80, key, 0]
        }
        track += [0x00, 0xFF, 0x2F, 0x00]
        func bigEndian(_ value: Int, bytes: Int) -> [UInt8] { (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let file = Array("MThd".utf8) + bigEndian(6, bytes: 4) + [0, 0, 0, 1] + bigEndian(960, bytes: 2)
            + Array("MTrk".utf8) + bigEndian(track.count, bytes: 4) + track
        try Data(file).write(to: URL(fileURLWithPath: path))
    }

    @Test("--midi-out stops at 4,194,304 events with one line, and leaves neither the WAV nor the .mid")
    func midiOutputIsCapped() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let chain = try folder.preset("t.json", """
            {"auhost": 1, "name": "T", "nodes": [{"id": "synth", "unit": "aumu:synt:AUHs"}], "chain": ["synth"], "tracks": {"1": "output"}}
            """)
        // 4,194,324 events: 20 past the cap (the song's last tick, at its end, is not rendered).
        try Self.denseSong(folder.file("dense.mid"), notes: 2_097_162)
        let before = folder.contents()
        let result = try ChildProcess.run(
            try auhostExecutable(), ["render", chain, folder.file("dense.mid"), "-o", folder.file("out.wav"), "--midi-out", folder.file("out.mid"), "--tail", "0", "--block", "64"],
            timeout: 600)
        #expect(result.status == 1, "\(result.errors)")
        #expect(result.errors.contains("--midi-out: more than 4194304 MIDI events reached the graph's MIDI output"), "\(result.errors)")
        #expect(result.errors.split(separator: "\n").count == 1, "\(result.errors)")
        #expect(folder.contents() == before, "a file was left behind")
    }
}
