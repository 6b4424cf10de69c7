import AUCore
import AUFiles
import AUHostCLI
import AUMIDI
import AUTestSupport
import Foundation
import Testing

/// MIDI between units with the installed LV2 MIDI plugins (x42 midifilters, step sequencer,
/// MIDI generator, onset trigger) and the package's Synth, offline: what reaches the
/// instrument is heard at the expected pitch, and what reaches the graph's MIDI output
/// (`--midi-out`) is read back at the expected ticks, the same for every block size.
@Suite struct MIDIChainTests {
    static let x42 = "http://gareus.org/oss/lv2/midifilter#"
    static var installed: Bool { FileManager.default.fileExists(atPath: "/usr/lib/lv2/midifilter.lv2/manifest.ttl") }
    static let synth = #"{"id": "synth", "unit": "aumu:synt:AUHs", "parameters": {"waveform": "Sine", "attack": 1, "sustain": 100}}"#

    /// A MIDI file of `notes` (frame, status, note, velocity) at 48 kHz.
    static func song(_ path: String, _ notes: [(Int, UInt8, UInt8, UInt8)], endFrame: Int) throws {
        var writer = MIDIFrameRecording(sampleRate: 48_000)
        for (frame, status, note, velocity) in notes { writer.append(frame: Int64(frame), status: status, data1: note, data2: velocity) }
        try writer.write(to: path, overwrite: true, endFrame: Int64(endFrame))
    }

    /// The events of a MIDI file `--midi-out` wrote, in file order, as (frame at 48 kHz,
    /// status, note); a note-on of velocity 0 counts as the note-off it means (`8n`).
    static func events(_ path: String) throws -> [[Int]] {
        let song = try formatZeroEvents(try #require(FileManager.default.contents(atPath: path), "\(path) was not written"))
        return song.events.map { event in
            let status = event.status & 0xF0 == 0x90 && event.data2 == 0 ? 0x80 | event.status & 0x0F : event.status
            return [song.frame(atTick: event.tick, sampleRate: 48_000), Int(status), Int(event.data1)]
        }
    }

    @Test(.enabled(if: installed, "x42-plugins is not installed (make deps installs it)"), arguments: [0, 12])
    func transposeBeforeTheSynthMovesThePitch(semitones: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.song(folder.file("a4.mid"), [(0, 0x90, 69, 100), (48_000, 0x80, 69, 0)], endFrame: 48_000)
        let chain = try folder.preset("chain.json", """
            {"auhost": 1, "name": "Transposed", "nodes": [
              {"id": "up", "unit": "lv2:\(Self.x42)miditranspose", "parameters": {"transpose": \(semitones)}}, \(Self.synth)],
             "chain": ["up", "synth"]}
            """)
        let result = render([chain, folder.file("a4.mid"), "-o", folder.file("out.wav")])
        #expect(result.status == 0, "\(result.errors)")
        let audio = try readAudio(folder.file("out.wav"))
        let measured = frequency(Array(audio.samples[0][4_800..<40_000]), sampleRate: audio.rate)
        let expected = 440 * pow(2, Double(semitones) / 12)
        #expect(abs(measured - expected) < 0.5, "measured \(measured) Hz, expected \(expected) Hz")
    }

    @Test(.enabled(if: installed, "x42-plugins is not installed (make deps installs it)"), arguments: [17, 64, 4096])
    func midichordSendsTheChordAtTheNotesFrame(block: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.song(folder.file("c.mid"), [(1_000, 0x90, 60, 100), (30_000, 0x80, 60, 0)], endFrame: 48_000)
        let chain = try folder.preset("chain.json", """
            {"auhost": 1, "name": "Chord", "nodes": [{"id": "chord", "unit": "lv2:\(Self.x42)midichord"}], "chain": ["chord"]}
            """)
        let result = render([chain, folder.file("c.mid"), "-o", folder.file("out.wav"), "--midi-out", folder.file("out.mid"), "--block", "\(block)"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("out.mid: 8 MIDI events"), "\(result.output)")
        // C major: prime, third, fifth and octave, on and off at the note's frames (±1 tick of 50 frames).
        let events = try Self.events(folder.file("out.mid"))
        #expect(Set(events.filter { $0[1] == 0x90 }.map { $0[2] }) == [60, 64, 67, 72], "\(events)")
        #expect(events.allSatisfy { abs($0[0] - ($0[1] == 0x90 ? 1_000 : 30_000)) <= 25 }, "\(events)")
    }

    /// The step sequencer (steps a quarter note apart at 120 BPM: 24,000 frames) and the
    /// MIDI generator play the Synth; their notes come out at the same frames whatever the
    /// block size.
    @Test(.enabled(if: installed, "x42-plugins is not installed (make deps installs it)"))
    func generatorsPlayTheSynthAtTheSameFramesForEveryBlockSize() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try writeAudio(folder.file("silence.wav"), sampleRate: 48_000, channels: 1, frames: 96_000) { _, _ in 0 }
        let generators = [
            ("seq", "lv2:http://gareus.org/oss/lv2/stepseq#s8n8", #""sync": 1, "grid_1_1": 100, "grid_3_6": 100"#),
            ("gen", "lv2:http://gareus.org/oss/lv2/midigen", #""sequence": 0"#),
        ]
        for (id, unit, parameters) in generators {
            let chain = try folder.preset("\(id).json", """
                {"auhost": 1, "name": "\(id)", "nodes": [{"id": "\(id)", "unit": "\(unit)", "parameters": {\(parameters)}}, \(Self.synth)],
                 "chain": ["\(id)", "synth"], "midi": [["\(id)", "output"]]}
                """)
            var runs: [[[Int]]] = []
            for block in [17, 64, 4096] {
                let result = render([chain, folder.file("silence.wav"), "-o", folder.file("\(id)-\(block).wav"), "--midi-out", folder.file("\(id)-\(block).mid"), "--block", "\(block)", "--tail", "0"])
                #expect(result.status == 0, "\(id), block \(block): \(result.errors)")
                runs.append(try Self.events(folder.file("\(id)-\(block).mid")))
                let audio = try readAudio(folder.file("\(id)-\(block).wav"))
                #expect(audio.samples[0].map(abs).max() ?? 0 > 0.05, "\(id), block \(block): the synth stayed silent")
            }
            #expect(runs[0].count > 1, "\(id) sent \(runs[0])")
            #expect(runs[0] == runs[1] && runs[1] == runs[2], "\(id): \(runs)")
            if id == "seq" {
                // Step 1 plays note 1 (A4, 69) and step 3 note 6 (C4, 60).
                let ons = runs[0].filter { $0[1] & 0xF0 == 0x90 }
                #expect(ons.prefix(2).map { [$0[0], $0[2]] } == [[0, 69], [48_000, 60]], "\(ons)")
            }
        }
    }

    /// Drum hits in an audio file become notes: the onset trigger (audio in, MIDI out)
    /// plays the Synth, a note near each hit.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/lv2/onsettrigger.lv2/manifest.ttl"), "x42 onset trigger is not installed"))
    func drumHitsBecomeNotes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let hits = [12_000, 60_000, 108_000]
        try writeAudio(folder.file("drums.wav"), sampleRate: 48_000, channels: 1, frames: 144_000) { _, frame in
            guard let hit = hits.last(where: { $0 <= frame }), frame - hit < 4_800 else { return 0 }
            let t = Double(frame - hit) / 48_000
            return Float(0.9 * sin(2 * .pi * 55 * t) * exp(-t * 30))
        }
        let chain = try folder.preset("chain.json", """
            {"auhost": 1, "name": "Trigger", "nodes": [{"id": "onset", "unit": "lv2:http://gareus.org/oss/lv2/onsettrigger#bassdrum_mono"}, \(Self.synth)],
             "chain": ["onset", "synth"], "midi": [["onset", "output"]]}
            """)
        let result = render([chain, folder.file("drums.wav"), "-o", folder.file("out.wav"), "--midi-out", folder.file("out.mid"), "--tail", "0"])
        #expect(result.status == 0, "\(result.errors)")
        let ons = try Self.events(folder.file("out.mid")).filter { $0[1] & 0xF0 == 0x90 }
        #expect(ons.count == hits.count, "\(ons)")
        for (on, hit) in zip(ons, hits) { #expect(on[0] >= hit && on[0] < hit + 2_400, "note at \(on[0]) for the hit at \(hit)") }
        let audio = try readAudio(folder.file("out.wav"))
        #expect(audio.samples[0].map(abs).max() ?? 0 > 0.05, "the synth stayed silent")
    }

    /// A split keyboard: channel 1 goes up an octave, channels 2–16 up two octaves and onto
    /// channel 5; both reach the graph's MIDI output.
    @Test(.enabled(if: installed, "x42-plugins is not installed (make deps installs it)"))
    func channelSplitRoutesEachChannelItsWay() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.song(folder.file("two.mid"), [(0, 0x90, 60, 100), (0, 0x91, 48, 100), (24_000, 0x80, 60, 0), (24_000, 0x81, 48, 0)], endFrame: 48_000)
        let chain = try folder.preset("chain.json", """
            {"auhost": 1, "name": "Split", "nodes": [
              {"id": "high", "unit": "lv2:\(Self.x42)miditranspose", "parameters": {"transpose": 12}},
              {"id": "low", "unit": "lv2:\(Self.x42)miditranspose", "parameters": {"transpose": 24}}],
             "connections": [],
             "midi": [{"from": "input", "to": "high", "channels": "1"}, {"from": "input", "to": "low", "channels": "2-16", "channel": 5},
                      ["high", "output"], ["low", "output"]]}
            """)
        let result = render([chain, folder.file("two.mid"), "-o", folder.file("out.wav"), "--midi-out", folder.file("out.mid")])
        #expect(result.status == 0, "\(result.errors)")
        let events = try Self.events(folder.file("out.mid"))
        #expect(Set(events.map { $0 }) == [[0, 0x90, 72], [0, 0x94, 72], [24_000, 0x80, 72], [24_000, 0x84, 72]], "\(events)")
    }

    @Test(.enabled(if: installed, "x42-plugins is not installed (make deps installs it)"))
    func aMIDICycleAndMIDIToAUnitThatTakesNoneAreRefusedWithTheirPaths() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cycle = try folder.preset("cycle.json", """
            {"auhost": 1, "name": "Cycle", "nodes": [
              {"id": "a", "unit": "lv2:\(Self.x42)miditranspose"}, {"id": "b", "unit": "lv2:\(Self.x42)miditranspose"}, \(Self.synth)],
             "chain": ["a", "b", "synth"], "midi": [["b", "a"]]}
            """)
        let refused = render([cycle, "-", "-o", folder.file("out.wav")])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("midi[0]") && refused.errors.contains("cycle"), "\(refused.errors)")
        let deaf = try folder.preset("deaf.json", """
            {"auhost": 1, "name": "Deaf", "nodes": [{"id": "a", "unit": "lv2:\(Self.x42)miditranspose"}, {"id": "gain", "unit": "aufx:gain:AUHs"}],
             "chain": ["gain"], "midi": [["a", "gain"], {"from": "input", "to": "a", "channels": "0-3"}]}
            """)
        let deafResult = render([deaf, "-", "-o", folder.file("out.wav")])
        #expect(deafResult.errors.contains("midi[0].to") && deafResult.errors.contains("takes no MIDI"), "\(deafResult.errors)")
        #expect(deafResult.errors.contains("midi[1].channels"), "\(deafResult.errors)")
    }
}
