import AUCore
import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Testing

/// The sampler in presets and on the command channel: `"soundbank"` (relative to the
/// preset's folder, or `gm`), `"bank"` and `"program"` on its node, their mistakes, `save`
/// writing them back (no state blob), the live `load` and `set`, and the warning of a
/// render that is silent because the sampler has no bank.
@Suite(.serialized) struct SamplerPresetTests {
    static var gm: String? { SamplerUnit.defaultGeneralMIDIBank }

    static func sampler(_ keys: String) -> String {
        #"{"auhost": 1, "name": "GM", "nodes": [{"id": "gm", "unit": "aumu:samp:AUHs"\#(keys)}], "chain": ["gm"]}"#
    }

    /// A C major chord for two seconds.
    static func chord(_ path: String) throws {
        var sequence = MusicSequence()
        var track = MusicTrack()
        for key: UInt8 in [60, 64, 67] { track.addMIDINoteEvent(at: 0, MIDINoteMessage(channel: 0, note: key, velocity: 100, duration: 4)) }
        sequence.tracks = [track]
        try sequence.write(to: path, overwrite: true)
    }

    @Test("a bank relative to the preset's folder, an instrument by bank and program: the song sounds", .enabled(if: gm != nil, "no GM bank (fluid-soundfont-gm)"))
    func bankRelativeToThePresetsFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("banks"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("banks/piano.sf2"), withDestinationPath: try #require(Self.gm))
        let preset = try folder.preset("piano.json", Self.sampler(#", "soundbank": "banks/piano.sf2", "bank": 0, "program": 1"#))
        try Self.chord(folder.file("chord.mid"))
        // Run from elsewhere: the path is the preset's folder's, not the current directory's.
        let result = render([preset, folder.file("chord.mid"), "-o", folder.file("out.wav"), "--tail", "0"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(!result.errors.contains("silent"), "\(result.errors)")
        let audio = try readAudio(folder.file("out.wav"))
        #expect(rms(audio.samples[0][4_800..<48_000]) > 0.01, "the piano chord is not heard")
    }

    @Test("mistakes: a missing bank names the file at its JSON path; soundbank on a unit that is no sampler; a program out of range",
          arguments: [
              (#", "soundbank": "nowhere.sf2""#, "nodes[0].soundbank: 'Sampler' refused", "nowhere.sf2' does not exist"),
              (#", "soundbank": 5"#, "nodes[0].soundbank: expected a file path", "found 5"),
              (#", "soundbank": "gm", "bank": 0, "program": 200"#, "nodes[0].program:", "program 200 is not in 1...128"),
          ])
    func mistakes(keys: String, at: String, says: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preset = try folder.preset("bad.json", Self.sampler(keys))
        try Self.chord(folder.file("chord.mid"))
        let result = render([preset, folder.file("chord.mid"), "-o", folder.file("out.wav")])
        #expect(result.status != 0)
        #expect(result.errors.contains(at) && result.errors.contains(says), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
        let gain = try folder.preset("gain.json", #"{"auhost": 1, "name": "G", "nodes": [{"id": "g", "unit": "aufx:gain:AUHs", "soundbank": "gm"}], "chain": ["g"]}"#)
        let wrong = render([gain, folder.file("chord.mid"), "-o", folder.file("out.wav")])
        #expect(wrong.status != 0 && wrong.errors.contains("nodes[0].soundbank: 'Gain' takes no sound bank"), "\(wrong.errors)")
    }

    @Test("a bank whose header is whole but whose lists FluidSynth refuses: `auhost` prints one error line quoting libinstpatch, no GLib CRITICAL line beside it")
    func libinstpatchSpeaksOnlyInTheError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        func list(_ type: String) -> Data { Data("LIST".utf8) + Data([4, 0, 0, 0]) + Data(type.utf8) }
        let body = Data("sfbk".utf8) + list("INFO") + list("sdta") + list("pdta")
        try (Data("RIFF".utf8) + Data([UInt8(body.count), 0, 0, 0]) + body).write(to: URL(fileURLWithPath: folder.file("empty-lists.sf2")))
        let preset = try folder.preset("s.json", Self.sampler(#", "soundbank": "empty-lists.sf2""#))
        let graph = try ChildProcess.run(try auhostExecutable(), ["graph", preset], timeout: 60)
        #expect(!graph.timedOut && graph.status == 1, "\(graph.errors)")
        let lines = graph.errors.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1 && !graph.errors.contains("CRITICAL"), "\(graph.errors)")
        #expect(graph.errors.contains("nodes[0].soundbank: 'Sampler' refused") && graph.errors.contains("could not be loaded by FluidSynth: ")
                && graph.errors.contains("ipatch_"), "\(graph.errors)")
    }

    @Test("save writes soundbank, bank and program back as the file had them, and no state blob", .enabled(if: gm != nil, "no GM bank (fluid-soundfont-gm)"))
    func saveWritesThemBack() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preset = try folder.preset("gm.json", Self.sampler(#", "soundbank": "gm", "bank": 0, "program": 41"#))
        let result = try runExecutable(["save", preset, folder.file("saved.json")])
        #expect(result.status == 0, "\(result.errors)")
        let saved = try String(contentsOfFile: folder.file("saved.json"), encoding: .utf8)
        #expect(saved.contains(#""soundbank": "gm""#) && saved.contains(#""bank": 0"#) && saved.contains(#""program": 41"#), "\(saved)")
        #expect(!saved.contains("\"state\""), "\(saved)")
    }

    @Test("a render silent because the sampler has no bank says so; with a bank it does not")
    func silentRenderWarns() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.chord(folder.file("chord.mid"))
        let bankless = try folder.preset("none.json", Self.sampler(""))
        let result = render([bankless, folder.file("chord.mid"), "-o", folder.file("silent.wav"), "--tail", "0"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.contains("silent (peak below -120 dBFS) though") && result.errors.contains("'gm' is a sampler without a sound bank"), "\(result.errors)")
        let gain = try folder.preset("quiet.json", #"{"auhost": 1, "name": "Q", "nodes": [{"id": "g", "unit": "aufx:gain:AUHs", "parameters": {"gain": -96}}], "chain": ["g"]}"#)
        let tone = folder.file("tone.wav")
        let writer = try AudioFileWriter(path: tone, encoding: AudioFileEncoding(format: .wav, bitDepth: .float32), sampleRate: 48_000, channels: 1)
        let buffer = OwnedAudioBuffers(channels: 1, capacity: 4_800)
        for frame in 0..<4_800 { buffer.buffers()[0][frame] = 1e-4 * Float(sin(Double(frame) * 0.1)) }
        try writer.write(buffer.buffers())
        try writer.finish()
        // -80 dBFS in, -96 dB of gain: -176 dBFS out: silent though the input was not.
        let quiet = render([gain, tone, "-o", folder.file("quiet.wav"), "--tail", "0"])
        #expect(quiet.errors.contains("the chain made no sound of its input"), "\(quiet.errors)")
    }

    @Test("render --set gm.soundbank=gm and --set gm.program=41 give a bankless preset its bank and the violin; save --set writes them",
          .enabled(if: gm != nil, "no GM bank (fluid-soundfont-gm)"))
    func setOverridesTheBankAndProgram() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.chord(folder.file("chord.mid"))
        let bankless = try folder.preset("none.json", Self.sampler(""))
        func rendered(_ name: String, _ sets: [String]) throws -> [Float] {
            let result = render([bankless, folder.file("chord.mid"), "-o", folder.file(name), "--tail", "0"] + sets.flatMap { ["--set", $0] })
            #expect(result.status == 0 && !result.errors.contains("silent"), "\(result.errors)")
            return try readAudio(folder.file(name)).samples[0]
        }
        let violin = try rendered("violin.wav", ["gm.soundbank=gm", "gm.program=41"])
        let piano = try rendered("piano.wav", ["gm.soundbank=gm", "gm.program=1"])
        #expect(rms(violin[4_800..<48_000]) > 0.01, "the violin chord is not heard")
        // The program changed the instrument: the two renders are not the same sound.
        let dot = zip(violin, piano).reduce(0.0) { $0 + Double($1.0) * Double($1.1) }
        let norms = (violin.reduce(0.0) { $0 + Double($1 * $1) } * piano.reduce(0.0) { $0 + Double($1 * $1) }).squareRoot()
        #expect(dot / norms < 0.5, "violin and piano correlate \(dot / norms)")
        let saved = try runExecutable(["save", bankless, folder.file("saved.json"), "--set", "gm.soundbank=gm", "--set", "gm.program=41"])
        #expect(saved.status == 0, "\(saved.errors)")
        let text = try String(contentsOfFile: folder.file("saved.json"), encoding: .utf8)
        #expect(text.contains(#""soundbank": "gm""#) && text.contains(#""program": 41"#), "\(text)")
    }

    @Test("a render silent because the song's notes reach no instrument (its MIDI routed to channel 16 only) says so",
          .enabled(if: gm != nil, "no GM bank (fluid-soundfont-gm)"))
    func silentRenderWarnsOfNotesThatReachNoInstrument() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.chord(folder.file("chord.mid"))
        let routed = try folder.preset("routed.json", #"{"auhost": 1, "name": "GM", "nodes": [{"id": "gm", "unit": "aumu:samp:AUHs", "soundbank": "gm"}], "chain": ["gm"], "midi": [{"from": "input", "to": "gm", "channels": "16"}]}"#)
        let result = render([routed, folder.file("chord.mid"), "-o", folder.file("silent.wav"), "--tail", "0"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.contains("silent (peak below -120 dBFS) though") && result.errors.contains("no instrument sounded the song's notes"), "\(result.errors)")
    }
}

/// SamplerPresetTests's live test: under a jackd of its own, run with the live suites (scripts/test.sh).
@Suite(.serialized) struct SamplerPresetLiveTests {
    @Test("live: load and set change the bank and the program while the song plays; a bad bank is an error and the old bank plays on",
          .enabled(if: SamplerPresetTests.gm != nil, "no GM bank (fluid-soundfont-gm)"))
    func liveLoadAndSet() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try SamplerPresetTests.chord(folder.file("chord.mid"))
        try Data("RIFF0000WAVEfmt ".utf8).write(to: URL(fileURLWithPath: folder.file("fake.sf2")))
        let rig = try LiveRig(preset: SamplerPresetTests.sampler(#", "soundbank": "gm""#), song: folder.file("chord.mid"), extraArguments: ["--loop"])
        defer { rig.tearDown() }
        try #require(rig.waitForStandardError("auhost: playing"), "\(rig.standardError)")
        let refused = try rig.send("load gm \(folder.file("fake.sf2"))")
        #expect(refused.hasPrefix("error: ") && refused.contains("fake.sf2") && refused.contains("not a SoundFont"), "\(refused)")
        #expect(try rig.send("get gm gain").hasPrefix("ok"))
        let loaded = try rig.send("load gm \(try #require(SamplerPresetTests.gm))")
        #expect(loaded.hasPrefix("ok soundbank="), "\(loaded)")
        #expect(try rig.send("set gm program 41") == "ok 41")
        #expect(try rig.send("set gm program 0").hasPrefix("error: "))
    }

    @Test("live: 50 bank reloads (load and set soundbank) while a song plays, in the optimized build: every one answers ok and the rig quits cleanly (an optimized build freed the replaced synthesizer while the render thread still played it: exit 139)",
          .enabled(if: SamplerPresetTests.gm != nil && LiveRunTests.releaseAuhost != nil, "no GM bank, or no up-to-date release auhost (make test builds it)"))
    func fiftyBankReloadsWhileTheSongPlays() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try SamplerPresetTests.chord(folder.file("chord.mid"))
        let executable = try #require(LiveRunTests.releaseAuhost).appendingPathComponent("auhost")
        let rig = try LiveRig(
            preset: SamplerPresetTests.sampler(#", "soundbank": "gm""#), song: folder.file("chord.mid"), extraArguments: ["--loop"], executable: executable)
        defer { rig.tearDown() }
        try #require(rig.waitForStandardError("auhost: playing"), "\(rig.standardError)")
        for load in 1...50 {
            let reply = try rig.send(load % 2 == 0 ? "load gm gm" : "set gm soundbank gm")
            try #require(reply.hasPrefix("ok"), "reload \(load): \(reply)")
        }
        #expect(try rig.send("quit") == "ok bye")
        #expect(rig.waitForExit() == 0, "\(rig.standardError)")
    }
}
