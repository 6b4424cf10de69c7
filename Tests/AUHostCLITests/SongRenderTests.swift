import AUCore
import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Testing

/// `auhost render PRESET SONG.mid` through the MusicPlayer: the units see the song's tempo
/// rolling from 0 (a native arpeggiator steps at it; x42's MIDI delay delays by a beat of
/// it; the transport fixture reads speed and tempo from `time:Position`, with a song and
/// without), the preset's `tracks` send tracks to nodes, and its mistakes are one clear error.
@Suite struct SongRenderTests {
    static var x42Installed: Bool { FileManager.default.fileExists(atPath: "/usr/lib/lv2/midifilter.lv2/manifest.ttl") }

    /// Writes a song at `bpm` of one track per entry of `tracks` (notes: beat, key, length).
    static func song(_ path: String, bpm: Double, tracks: [[(Double, UInt8, Double)]]) throws {
        var sequence = MusicSequence()
        sequence.tempoTrack.addExtendedTempoEvent(at: 0, bpm: bpm)
        sequence.tracks = tracks.enumerated().map { index, notes in
            var track = MusicTrack()
            for (beat, key, length) in notes {
                track.addMIDINoteEvent(at: beat, MIDINoteMessage(channel: UInt8(index), note: key, velocity: 100, duration: length))
            }
            return track
        }
        try sequence.write(to: path, overwrite: true)
    }

    @Test("render SONG.mid -o out.wav (no preset) plays the song through the General MIDI sampler; the one-unit form with the sampler plays the GM bank",
          .enabled(if: SamplerUnit.defaultGeneralMIDIBank != nil, "no system General MIDI bank"))
    func songWithoutAPresetPlaysTheGMSampler() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.song(folder.file("song.mid"), bpm: 120, tracks: [[(0, 60, 1), (1, 64, 1)]])
        for arguments in [[folder.file("song.mid")], ["aumu:samp:AUHs", folder.file("song.mid")]] {
            let result = render(arguments + ["-o", folder.file("out.wav"), "--force"])
            #expect(result.status == 0, "\(arguments): \(result.errors)")
            let samples = try readAudio(folder.file("out.wav")).samples
            let peak = samples.flatMap { $0 }.map(abs).max() ?? 0
            #expect(peak > 0.01, "\(arguments): peak \(peak): silence")
        }
    }

    @Test("a native unit sees the song's tempo offline: the arpeggiator steps sixteenths at 90 BPM, not 120")
    func nativeUnitSeesTheSongsTempo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.song(folder.file("held.mid"), bpm: 90, tracks: [[(0, 60, 4)]])
        let chain = try folder.preset("arp.json", """
            {"auhost": 1, "name": "Arp", "nodes": [{"id": "arp", "unit": "aumi:arpg:AUHs", "parameters": {"rate": "1/16", "gate": 50}}], "chain": ["arp"]}
            """)
        let result = render([chain, folder.file("held.mid"), "-o", folder.file("out.wav"), "--midi-out", folder.file("out.mid"), "--tail", "0"])
        #expect(result.status == 0, "\(result.errors)")
        let ons = try MIDIChainTests.events(folder.file("out.mid")).filter { $0[1] == 0x90 }.map { $0[0] }
        // A sixteenth at 90 BPM is 8000 frames at 48 kHz (6000 at 120); the file's ticks are 25 frames.
        try #require(ons.count >= 8, "\(ons)")
        for (index, frame) in ons.prefix(8).enumerated() {
            #expect(abs(frame - index * 8000) <= 13, "step \(index) at frame \(frame), expected \(index * 8000)")
        }
    }

    @Test("an LV2 plugin sees the song's tempo offline: x42's MIDI delay (BPM from the host) delays a beat of 90 BPM",
          .enabled(if: x42Installed, "x42-plugins is not installed (make deps installs it)"))
    func lv2PluginSeesTheSongsTempo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.song(folder.file("note.mid"), bpm: 90, tracks: [[(0, 64, 0.5)]])
        let chain = try folder.preset("delay.json", """
            {"auhost": 1, "name": "Delay", "nodes": [{"id": "delay", "unit": "lv2:http://gareus.org/oss/lv2/midifilter#mididelay",
              "parameters": {"bpmsrc": 1, "delayBeats": 1}}], "chain": ["delay"]}
            """)
        let result = render([chain, folder.file("note.mid"), "-o", folder.file("out.wav"), "--midi-out", folder.file("out.mid"), "--tail", "2"])
        #expect(result.status == 0, "\(result.errors)")
        let on = try #require(try MIDIChainTests.events(folder.file("out.mid")).first { $0[1] == 0x90 })
        // One beat at 90 BPM: 32 000 frames (24 000 at the old fixed 120 BPM).
        #expect(abs(on[0] - 32_000) <= 13, "the delayed note-on is at frame \(on[0])")
    }

    /// A bundle of the LV2 fixture `urn:auhost:fixture:transport` in `folder`: mono in and out,
    /// and an atom input that takes `time:Position`; it writes speed / 2 + BPM / 1000 of the
    /// last position it got into every sample (-0.5 before one).
    static func writeTransportFixture(into folder: URL) throws {
        try writeFixtureBundle("transport", name: "Fixture Transport", into: folder)
        try """
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix doap: <http://usefulinc.com/ns/doap#> .
            @prefix atom: <http://lv2plug.in/ns/ext/atom#> .
            @prefix time: <http://lv2plug.in/ns/ext/time#> .
            @prefix urid: <http://lv2plug.in/ns/ext/urid#> .

            <urn:auhost:fixture:transport> a lv2:Plugin , lv2:UtilityPlugin ;
                doap:name "Fixture Transport" ;
                lv2:requiredFeature urid:map ;
                lv2:port [ a lv2:InputPort , lv2:AudioPort ; lv2:index 0 ; lv2:symbol "in" ; lv2:name "In" ] ,
                         [ a lv2:OutputPort , lv2:AudioPort ; lv2:index 1 ; lv2:symbol "out" ; lv2:name "Out" ] ,
                         [ a lv2:InputPort , atom:AtomPort ; atom:bufferType atom:Sequence ; atom:supports time:Position ;
                           lv2:index 2 ; lv2:symbol "control" ; lv2:name "Control" ] .

            """.write(to: folder.appendingPathComponent("transport.lv2/plugin.ttl"), atomically: true, encoding: .utf8)
    }

    @Test("an LV2 plugin sees a rolling transport offline: at the song's tempo with a song, at 120 BPM without one", arguments: [true, false])
    func lv2PluginSeesARollingTransport(withSong: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let plugins = URL(fileURLWithPath: folder.file("lv2"))
        try Self.writeTransportFixture(into: plugins)
        // With a song, a synth plays it into the probe; without, a file goes through the probe.
        let synth = withSong ? #"{"id": "synth", "unit": "aumu:synt:AUHs"}, "# : ""
        let chain = try folder.preset("probe.json", """
            {"auhost": 1, "name": "Probe", "nodes": [\(synth){"id": "probe", "unit": "lv2:urn:auhost:fixture:transport"}],
             "chain": \(withSong ? #"["synth", "probe"]"# : #"["probe"]"#)}
            """)
        let input = folder.file(withSong ? "song.mid" : "in.wav")
        if withSong {
            try Self.song(input, bpm: 90, tracks: [[(0, 60, 2)]])
        } else {
            try writeAudio(input, sampleRate: 48_000, channels: 1, frames: 9_600) { _, _ in 0 }
        }
        let environment = ["LV2_PATH": plugins.path, "XDG_CACHE_HOME": folder.file("cache")]
        let result = try runExecutable(["render", chain, input, "-o", folder.file("out.wav"), "--bit-depth", "32f", "--tail", "0"], environment: environment)
        #expect(result.status == 0, "\(result.errors)")
        let samples = try readAudio(folder.file("out.wav")).samples[0]
        // Rolling (speed 1) from the first frame: 0.59 at the song's 90 BPM, 0.62 at 120 (stopped
        // would be 0.09 or 0.12). The file holds 90 BPM as 666,667 µs a beat: 89.99996 BPM.
        let expected = Float(1) / 2 + Float(withSong ? 90 : 120) / 1000
        try #require(samples.count >= 9_600)
        #expect(samples.allSatisfy { $0 == samples[0] } && abs(samples[0] - expected) < 1e-6, "first samples \(samples.prefix(4)), expected \(expected) throughout")
    }

    @Test("the preset's tracks send each track to its node; the others go to the graph's MIDI input")
    func tracksGoToTheirNodes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Track 1 an A4, track 2 an A5: two synths, one on the left of a mixer, one on the right.
        try Self.song(folder.file("two.mid"), bpm: 120, tracks: [[(0, 69, 2)], [(0, 81, 2)]])
        let synth = #""unit": "aumu:synt:AUHs", "parameters": {"waveform": "Sine", "attack": 1, "sustain": 100}"#
        let chain = try folder.preset("band.json", """
            {"auhost": 1, "name": "Band", "nodes": [{"id": "low", \(synth)}, {"id": "high", \(synth)}, {"id": "mix", "unit": "aumx:mcmx:AUHs"}],
             "connections": [["low:0", "mix:0"], ["high:0", "mix:1"], ["mix:0", "output:0"]],
             "tracks": {"1": "low", "2": "high"}}
            """)
        for (track, node) in [(1, "low"), (2, "high")] {
            let solo = try folder.preset("solo-\(track).json", """
                {"auhost": 1, "name": "Solo", "nodes": [{"id": "\(node)", \(synth)}], "chain": ["\(node)"], "tracks": {"\(track)": "\(node)", "\(3 - track)": "output"}}
                """)
            let result = render([solo, folder.file("two.mid"), "-o", folder.file("solo-\(track).wav"), "--tail", "0"])
            #expect(result.status == 0, "\(result.errors)")
            let audio = try readAudio(folder.file("solo-\(track).wav"))
            let measured = frequency(Array(audio.samples[0][4_800..<40_000]), sampleRate: audio.rate)
            #expect(abs(measured - (track == 1 ? 440 : 880)) < 1, "track \(track) alone on '\(node)' sounds at \(measured) Hz")
        }
        let result = render([chain, folder.file("two.mid"), "-o", folder.file("band.wav"), "--tail", "0"])
        #expect(result.status == 0, "\(result.errors)")
        // save writes the tracks back, and the saved preset plays the song as the original does.
        let output = TextOutput(), errors = TextOutput()
        #expect(AUHostCLI.run(["save", chain, folder.file("saved.json")], output: output, errors: errors) == 0, "\(errors.captured)")
        let saved = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: folder.file("saved.json")))) as? [String: Any]
        #expect(saved?["tracks"] as? [String: String] == ["1": "low", "2": "high"], "\(saved ?? [:])")
        #expect(render([folder.file("saved.json"), folder.file("two.mid"), "-o", folder.file("saved.wav"), "--tail", "0"]).status == 0)
        #expect(try readAudio(folder.file("saved.wav")).samples == readAudio(folder.file("band.wav")).samples)
    }

    @Test("tracks and the midi list together: a track named in tracks goes to its node; the others reach the graph's MIDI input, whose channel filters route them")
    func tracksWithChannelFilters() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Tracks 1, 2 and 3 on channels 1, 2 and 3.
        try Self.song(folder.file("three.mid"), bpm: 120, tracks: [[(0, 60, 1)], [(0.5, 62, 1)], [(1, 64, 1)]])
        let chain = try folder.preset("routed.json", """
            {"auhost": 1, "name": "Routed", "nodes": [{"id": "synth", "unit": "aumu:synt:AUHs"}], "chain": ["synth"],
             "tracks": {"2": "output"}, "midi": [{"from": "input", "to": "output", "channels": "3", "channel": 5}]}
            """)
        let result = render([chain, folder.file("three.mid"), "-o", folder.file("out.wav"), "--midi-out", folder.file("out.mid"), "--tail", "0.1"])
        #expect(result.status == 0, "\(result.errors)")
        // Track 2 as it is; of the input (tracks 1 and 3) only channel 3, moved to channel 5.
        #expect(try MIDIChainTests.events(folder.file("out.mid")) == [[12_000, 0x91, 62], [24_000, 0x94, 64], [36_000, 0x81, 62], [48_000, 0x84, 64]])
    }

    @Test("tracks mistakes are one error with their JSON path; a track past the song's last is an error naming both files", arguments: [
        (#""tracks": {"x": "synth"}"#, "tracks.x: expected a track number from 1"),
        (#""tracks": {"1": "nobody"}"#, #"tracks["1"]: unknown node "nobody""#),
        (#""tracks": {"1": 5}"#, #"tracks["1"]: expected a node id that takes MIDI"#),
        (#""tracks": ["synth"]"#, "tracks: expected an object of track numbers to node ids"),
        (#""tracks": {"3": "synth"}"#, #"tracks["3"]: "#),
        (#""tracks": {"1": "gain"}"#, #"tracks["1"]: 'Gain' takes no MIDI; expected a unit with a MIDI input"#),
    ])
    func trackMistakes(tracks: String, message: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.song(folder.file("one.mid"), bpm: 120, tracks: [[(0, 60, 1)]])
        let chain = try folder.preset("chain.json", """
            {"auhost": 1, "name": "Wrong", "nodes": [{"id": "synth", "unit": "aumu:synt:AUHs"}, {"id": "gain", "unit": "aufx:gain:AUHs"}],
             "chain": ["synth", "gain"], \(tracks)}
            """)
        let result = render([chain, folder.file("one.mid"), "-o", folder.file("out.wav")])
        #expect(result.status != 0)
        #expect(result.errors.contains(message), "\(result.errors)")
        if message.hasPrefix(#"tracks["3"]"#) { #expect(result.errors.contains("one.mid has 1 track"), "\(result.errors)") }
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")), "a partial output was left")
    }

    @Test("the shipped song through the shipped band: the melody on the lead, the bass line on the bass (each alone is the other's octave register)")
    func shippedSongOnTheShippedBand() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        func centroid(muting node: String) throws -> Double {
            let output = folder.file("\(node).wav")
            let result = render([ShippedPresets.path("two-part-band.json"), ShippedPresets.path("two-part-song.mid"), "-o", output, "--set", "\(node).level=-96", "--tail", "0"])
            #expect(result.status == 0, "\(result.errors)")
            let samples = try readAudio(output).samples[0]
            // Zero crossings a second: a plain measure of where the energy sits.
            let crossings = zip(samples, samples.dropFirst()).count { $0 < 0 && $1 >= 0 }
            return Double(crossings) / (Double(samples.count) / 48_000)
        }
        let leadAlone = try centroid(muting: "bass"), bassAlone = try centroid(muting: "lead")
        #expect(bassAlone > 0 && leadAlone > 1.5 * bassAlone, "crossings a second: lead alone \(leadAlone), bass alone \(bassAlone)")
    }
}
