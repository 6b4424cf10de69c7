import AUCore
import AUFiles
import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Testing

private let delayNode = #"{"id": "delay", "unit": "aufx:dely:AUHs", "parameters": {"time": 100, "feedback": 50, "mix": 50}}"#
private let limiterNode = #"{"id": "limiter", "unit": "http://gareus.org/oss/lv2/dpl#stereo"}"#
private let lookaheadNode = #"{"id": "limiter", "unit": "http://plugin.org.uk/swh-plugins/fastLookaheadLimiter"}"#

@Suite struct RenderCommandTests {
    /// An impulse through a chain whose LV2 plugin reports latency only once it runs comes
    /// out at the input's frame, and the file keeps the input's length.
    @Test(arguments: [limiterNode, lookaheadNode])
    func latencyIsCompensated(node: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("impulse.wav")
        try writeAudio(input, sampleRate: 48_000, channels: 2, frames: 24_000) { _, frame in frame == 5000 ? 0.5 : 0 }
        let chain = try folder.preset("latent.json", preset(node, chain: ["limiter"]))
        let result = render([chain, input, "-o", folder.file("out.wav"), "--tail", "0", "--bit-depth", "32f"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("frames compensated"), "\(result.output)")
        let output = try readAudio(folder.file("out.wav"))
        #expect(output.samples[0].count == 24_000)
        for channel in 0..<2 {
            #expect(largestIndex(output.samples[channel]) == 5000)
            #expect(abs(output.samples[channel][5000] - 0.5) < 1e-3)
        }
    }

    /// A delay's echoes after the input's end are rendered with --tail auto (the default)
    /// and with a fixed length, and --tail 0 cuts them.
    @Test func tailsAreRenderedOrCut() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("click.wav")
        let frames = 4800
        try writeAudio(input, sampleRate: 48_000, channels: 2, frames: frames) { _, frame in frame == 4000 ? 0.8 : 0 }
        let chain = try folder.preset("delay.json", preset(delayNode, chain: ["delay"]))

        #expect(render([chain, input, "-o", folder.file("auto.wav"), "--bit-depth", "32f"]).status == 0)
        let auto = try readAudio(folder.file("auto.wav")).samples[0]
        #expect(auto.count > frames + 48_000 / 2, "auto kept \(auto.count - frames) tail frames")
        // The first echo (100 ms after the click) lies after the input's end.
        #expect(abs(auto[4000 + 4800]) > 0.1)
        // It ends quiet: the last half second is below -90 dBFS.
        #expect(auto.suffix(24_000).allSatisfy { abs($0) < 3.2e-5 })

        #expect(render([chain, input, "-o", folder.file("fixed.wav"), "--tail", "1.5", "--bit-depth", "32f"]).status == 0)
        let fixed = try readAudio(folder.file("fixed.wav")).samples[0]
        #expect(fixed.count == frames + 72_000)
        for index in stride(from: 0, to: min(fixed.count, auto.count), by: 97) {
            #expect(abs(fixed[index] - auto[index]) < 1e-6)
        }

        #expect(render([chain, input, "-o", folder.file("cut.wav"), "--tail", "0", "--bit-depth", "32f"]).status == 0)
        let cut = try readAudio(folder.file("cut.wav")).samples[0]
        #expect(cut.count == frames)
        #expect(abs(cut[4000] - auto[4000]) < 1e-6)
    }

    /// --tail auto keeps at least the tail the chain reports: a single echo 1.5 s after a
    /// click at the input's end (a delay without feedback reports a 1.5 s TailTime) comes
    /// after 1.5 s of silence, three times auto's quiet window, and is still rendered.
    @Test func autoTailKeepsTheTailTheChainReports() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("click.wav")
        let frames = 4800
        try writeAudio(input, sampleRate: 48_000, channels: 2, frames: frames) { _, frame in frame == 4000 ? 0.8 : 0 }
        let echo = #"{"id": "delay", "unit": "aufx:dely:AUHs", "parameters": {"time": 1500, "feedback": 0, "mix": 50}}"#
        let chain = try folder.preset("echo.json", preset(echo, chain: ["delay"]))
        let result = render([chain, input, "-o", folder.file("auto.wav"), "--bit-depth", "32f"])
        #expect(result.status == 0, "\(result.errors)")
        let auto = try readAudio(folder.file("auto.wav")).samples[0]
        let echoFrame = 4000 + 72_000
        #expect(auto.count > echoFrame, "auto kept \(auto.count - frames) tail frames; the echo is at \(echoFrame - frames)")
        #expect(auto.count > echoFrame && abs(auto[echoFrame]) > 0.1, "the echo 1.5 s after the click was cut")
    }

    /// `-o out.caf` writes a Core Audio Format file (its first bytes are `caff`), which
    /// libsndfile reads back as CAF with the rendered samples; before, it was WAV bytes
    /// under a .caf name.
    @Test func aCAFOutputIsCAF() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("ramp.wav")
        try writeAudio(input, sampleRate: 48_000, channels: 2, frames: 4800) { channel, frame in Float(frame % 100) / 200 - Float(channel) / 4 }
        let chain = try folder.preset("gain.json", preset(gainNode, chain: ["gain"]))
        let result = render([chain, input, "-o", folder.file("out.caf"), "--tail", "0", "--bit-depth", "32f"])
        #expect(result.status == 0, "\(result.errors)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.file("out.caf")))
        #expect(String(decoding: bytes.prefix(4), as: UTF8.self) == "caff")
        let reader = try AudioFileReader(path: folder.file("out.caf"))
        #expect(reader.info.format == .caf)
        #expect(reader.info.channels == 2 && reader.info.frames == 4800)
        let samples = try readAudio(folder.file("out.caf")).samples
        #expect(abs(samples[0][99] - 0.5 * 99 / 200) < 1e-5)
        #expect(abs(samples[1][99] - 0.5 * (99 / 200 - 0.25)) < 1e-5)
    }

    /// fomp's reverb requires `lv2:isLive`; it renders offline like any other plugin (it
    /// was refused: "can only render live"): a click comes out as a reverberant tail that
    /// goes on after the click, and the input's own end is followed by rendered tail.
    @Test func anIsLivePluginRendersOffline() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("click.wav")
        try writeAudio(input, sampleRate: 48_000, channels: 2, frames: 24_000) { _, frame in frame == 1000 ? 0.8 : 0 }
        let chain = try folder.preset("reverb.json", preset(#"{"id": "reverb", "unit": "http://drobilla.net/plugins/fomp/reverb"}"#, chain: ["reverb"]))
        let result = render([chain, input, "-o", folder.file("out.wav"), "--tail", "1", "--bit-depth", "32f"])
        #expect(result.status == 0, "\(result.errors)")
        let output = try readAudio(folder.file("out.wav")).samples
        for channel in 0..<2 {
            #expect(output[channel].count == 24_000 + 48_000)
            // Reverberation: energy well after the click (100 ms to 500 ms later).
            let later = output[channel][5800..<25_000].reduce(Float(0)) { $0 + $1 * $1 }
            #expect(later > 1e-4, "channel \(channel) energy 100-500 ms after the click: \(later)")
            #expect(output[channel].allSatisfy { $0.isFinite })
        }
    }

    /// A 44.1 kHz sine through a 48 kHz chain comes back at 44.1 kHz, as long as it went in,
    /// at its pitch and level; --sample-rate 48000 writes 48 kHz.
    @Test func sampleRateIsConvertedThereAndBack() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("sine44.wav")
        try writeAudio(input, sampleRate: 44_100, channels: 2, frames: 44_100) { _, frame in
            0.5 * Float(sin(2 * Double.pi * 1000 * Double(frame) / 44_100))
        }
        let chain = try folder.preset("gain48.json", preset(gainNode, chain: ["gain"], sampleRate: 48_000))
        let result = render([chain, input, "-o", folder.file("out.wav"), "--tail", "0", "--bit-depth", "32f"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("chain 48000 Hz"))
        let output = try readAudio(folder.file("out.wav"))
        #expect(output.rate == 44_100)
        #expect(output.samples[0].count == 44_100)
        let middle = Array(output.samples[0][4410..<39_690])
        #expect(abs(frequency(middle, sampleRate: 44_100) - 1000) < 0.5)
        let peak = middle.map { abs($0) }.max() ?? 0
        #expect(abs(peak - 0.25) < 0.005, "peak \(peak)")

        #expect(render([chain, input, "-o", folder.file("out48.wav"), "--tail", "0", "--sample-rate", "48000"]).status == 0)
        let resampled = try readAudio(folder.file("out48.wav"))
        #expect(resampled.rate == 48_000)
        #expect(resampled.samples[0].count == 48_000)
        #expect(abs(frequency(Array(resampled.samples[0][4800..<43_200]), sampleRate: 48_000) - 1000) < 0.5)
    }

    /// A mono file through a stereo chain comes back stereo (what the chain made of it in
    /// both channels), the chain's gain applied; `--channels 1` gives it back mono.
    @Test func monoThroughAStereoChain() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("mono.wav")
        try writeAudio(input, sampleRate: 48_000, channels: 1, frames: 9600) { _, frame in 0.4 * Float(sin(Double(frame) * 0.05)) }
        let chain = try folder.preset("gain.json", preset(gainNode, chain: ["gain"]))
        let result = render([chain, input, "-o", folder.file("out.wav"), "--tail", "0", "--bit-depth", "32f"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("48000 Hz, 2 ch") && result.output.contains("chain 48000 Hz, 2 ch"), "\(result.output)")
        let original = try readAudio(input).samples[0]
        let output = try readAudio(folder.file("out.wav")).samples
        #expect(output.count == 2)
        for channel in output {
            #expect(channel.count == 9600)
            let error = zip(original, channel).map { abs($0 * 0.5 - $1) }.max() ?? 1
            #expect(error < 1e-5, "largest error \(error)")
        }
        let mono = render([chain, input, "-o", folder.file("mono-out.wav"), "--tail", "0", "--bit-depth", "32f", "--channels", "1"])
        #expect(mono.status == 0 && mono.output.contains("48000 Hz, 1 ch"), "\(mono.output)\(mono.errors)")
    }

    /// One corrupt input in a batch: the others are rendered, the exit status is 1, the
    /// error names the file, and nothing is left for it (no temporary file either).
    @Test func aBatchWithOneBadFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: false)
        for name in ["a", "c"] {
            try writeAudio(folder.file("\(name).wav"), sampleRate: 48_000, channels: 2, frames: 4800) { _, frame in Float(frame % 100) / 200 }
        }
        try Data("RIFF0000WAVEthis is not audio at all".utf8).write(to: URL(fileURLWithPath: folder.file("b.wav")))
        let chain = try folder.preset("gain.json", preset(gainNode, chain: ["gain"]))
        let result = try runExecutable(
            ["render", chain, folder.file("a.wav"), folder.file("b.wav"), folder.file("c.wav"), "--output-dir", folder.file("out"), "--tail", "0"])
        #expect(result.status == 1)
        let lines = result.errors.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("auhost: \(folder.file("b.wav")): ") }, "\(result.errors)")
        #expect(lines.last == "auhost: 1 of 3 files failed; the others were rendered")
        #expect(!result.errors.contains("Fatal error"))
        #expect(folder.contents("out") == ["a.wav", "c.wav"])
        #expect(try readAudio(folder.file("out/c.wav")).samples[0].count == 4800)
        let output = result.output.split(separator: "\n").map(String.init)
        #expect(output.count == 3, "two result lines and the batch's summary: \(result.output)")
        #expect(output.last?.hasPrefix("batch: 2 of 3 files rendered (1 failed), 0:00.2 of audio in ") == true, "\(result.output)")
    }

    /// Bad inputs and outputs each get one clear line naming the file and exit 1.
    @Test func badFilesAndFolders() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("in.wav")
        try writeAudio(input, sampleRate: 48_000, channels: 2, frames: 480) { _, _ in 0.1 }
        try Data("just some notes".utf8).write(to: URL(fileURLWithPath: folder.file("notes.txt")))
        let chain = try folder.preset("gain.json", preset(gainNode, chain: ["gain"]))
        let cases: [([String], String)] = [
            ([folder.file("missing.wav"), "-o", folder.file("o1.wav")], "\(folder.file("missing.wav")): "),
            ([folder.file("notes.txt"), "-o", folder.file("o2.wav")], "\(folder.file("notes.txt")): "),
            ([input, "-o", folder.file("no/such/folder/o3.wav")], "output folder"),
            ([input, "--output-dir", folder.file("notes.txt")], "\(folder.file("notes.txt")): is a regular file, not a folder; expected a folder for --output-dir"),
        ]
        for (arguments, message) in cases {
            let result = try runExecutable(["render", chain] + arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.errors.split(separator: "\n").count == 1, "\(result.errors)")
            #expect(result.errors.hasPrefix("auhost: ") && result.errors.contains(message), "\(result.errors)")
        }
        #expect(folder.contents() == ["gain.json", "in.wav", "notes.txt"])
    }

    /// A disk without room for the output: refused before rendering (statvfs) in one clear
    /// line naming the output, exit 1, no partial file; the same render to a disk with room
    /// works. (A disk filling up while writing is AUFilesTests' AtomicWriteTests.)
    @Test(.enabled(if: TinyFileSystem.isAvailable, "mounting a tmpfs needs root"))
    func aFullDiskLeavesNoPartialOutput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let disk = try #require(TinyFileSystem(kibibytes: 256))
        defer { disk.unmount() }
        let input = folder.file("long.wav")
        try writeAudio(input, sampleRate: 48_000, channels: 2, frames: 96_000) { channel, frame in Float(sin(Double(frame + channel) * 0.05)) * 0.5 }
        let chain = try folder.preset("gain.json", preset(gainNode, chain: ["gain"]))
        let full = try runExecutable(["render", chain, input, "-o", "\(disk.path)/long.wav", "--bit-depth", "32f", "--tail", "0"])
        #expect(full.status == 1)
        #expect(full.errors.split(separator: "\n").count == 1, "\(full.errors)")
        #expect(full.errors.contains("\(disk.path)/long.wav") && full.errors.contains("free; expected room for it"), "\(full.errors)")
        #expect(!full.errors.contains("Fatal error"))
        #expect((try FileManager.default.contentsOfDirectory(atPath: disk.path)).isEmpty)
        let fine = try runExecutable(["render", chain, input, "-o", folder.file("fine.wav"), "--bit-depth", "32f", "--tail", "0"])
        #expect(fine.status == 0, "\(fine.errors)")
        #expect(try readAudio(folder.file("fine.wav")).samples[0].count == 96_000)
    }

    /// A file that goes bad half-way (a FLAC whose middle frames are garbage): the read
    /// error, met ahead of the renderer, is one clear line naming the file and the frame;
    /// exit 1; no output and no temporary file.
    @Test func aReadErrorHalfWayLeavesNoOutput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let good = folder.file("good.flac")
        try writeAudio(good, sampleRate: 48_000, channels: 2, frames: 480_000, encoding: try AudioFileEncoding(format: .flac, bitDepth: .int16)) { channel, frame in
            Float(sin(Double(frame) * 0.01 * Double(channel + 1))) * 0.5
        }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        for index in (bytes.count / 2)..<(bytes.count / 2 + 20_000) { bytes[index] = 0xFF }
        try bytes.write(to: URL(fileURLWithPath: folder.file("bad.flac")))
        let chain = try folder.preset("gain.json", preset(gainNode, chain: ["gain"]))
        let result = try runExecutable(["render", chain, folder.file("bad.flac"), "-o", folder.file("out.wav"), "--tail", "0"])
        #expect(result.status == 1)
        #expect(result.errors.split(separator: "\n").count == 1, "\(result.errors)")
        #expect(result.errors.contains("\(folder.file("bad.flac")): read error at frame"), "\(result.errors)")
        #expect(folder.contents() == ["bad.flac", "gain.json", "good.flac"])
    }

    /// A Standard MIDI File plays the chain's instrument: an A4 from 0.5 s to 1.5 s comes out
    /// at 440 Hz (within 0.5 %), nothing sounds before it, the file lasts the song and its
    /// release; the shipped synth patch renders the same song audibly; an audio file through
    /// the instrument chain warns that the instrument got no notes; a chain without an
    /// instrument refuses a MIDI file with one clear error.
    @Test func aMIDIFilePlaysTheChainsInstrument() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var song: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0]  // format 0, 480 ticks a quarter (120 BPM: 0.5 s)
        let events: [UInt8] = [0x83, 0x60, 0x90, 69, 100, 0x87, 0x40, 0x80, 69, 64, 0x00, 0xFF, 0x2F, 0x00]  // +480: on; +960: off
        song += Array("MTrk".utf8) + [0, 0, 0, UInt8(events.count)] + events
        let midi = folder.file("a4.mid")
        try Data(song).write(to: URL(fileURLWithPath: midi))
        let synth = try folder.preset("synth.json", """
            {"auhost": 1, "name": "synth", "sampleRate": 48000, "nodes": [{"id": "synth", "unit": "aumu:synt:AUHs", "parameters": {"release": 50}}], "chain": ["synth"]}
            """)
        let result = render([synth, midi, "-o", folder.file("a4.wav"), "--bit-depth", "32f"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("\(midi): a MIDI song of 0:01.5, rendered"), "the length is said before rendering: \(result.output)")
        let (rate, samples) = try readAudio(folder.file("a4.wav"))
        #expect(rate == 48_000)
        let left = samples[0]
        #expect(left.count >= 72_000 && left.count < 72_000 + 48_000, "\(left.count) frames: the song (1.5 s) and a release tail")
        let before = left[0..<21_600], held = Array(left[31_200..<67_200])
        #expect(before.allSatisfy { $0 == 0 }, "sound before the note-on")
        let power = held.map { $0 * $0 }.reduce(0, +) / Float(held.count)
        #expect(power > 1e-4, "the note is silent")
        // The pitch by autocorrelation: the lag (in 60...200 frames) where the signal best matches itself.
        func correlation(_ lag: Int) -> Float { (0..<8000).reduce(Float(0)) { $0 + held[$1] * held[$1 + lag] } }
        let lags = 60...200
        let best = lags.max { correlation($0) < correlation($1) }!
        let frequency = 48_000 / Double(best)
        #expect(abs(frequency - 440) / 440 < 0.005, "A4 came out at \(frequency) Hz (lag \(best))")

        let patch = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Presets/synth-patch.json").path
        let shipped = render([patch, midi, "-o", folder.file("patch.wav")])
        #expect(shipped.status == 0, "\(shipped.errors)")
        #expect(try readAudio(folder.file("patch.wav")).samples[0].contains { abs($0) > 0.01 })

        // An audio file through the instrument chain: rendered (its length), with a warning.
        try writeAudio(folder.file("noise.wav"), sampleRate: 48_000, channels: 2, frames: 4800) { _, frame in Float(frame % 7) / 70 }
        let audio = render([synth, folder.file("noise.wav"), "-o", folder.file("noise-out.wav"), "--tail", "0"])
        #expect(audio.status == 0, "\(audio.errors)")
        #expect(audio.errors.contains("noise.wav: the chain takes no audio input and its instrument got no MIDI"), "\(audio.errors)")

        let effect = try folder.preset("gain.json", preset(gainNode, chain: ["gain"]))
        let refused = render([effect, midi, "-o", folder.file("gain.wav")])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("\(midi): a MIDI file needs a unit that takes MIDI"), "\(refused.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("gain.wav")))
    }

    /// An existing output is kept without --force and replaced with it.
    @Test func existingOutputsAreNotReplacedWithoutForce() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("in.wav")
        try writeAudio(input, sampleRate: 48_000, channels: 2, frames: 4800) { _, _ in 0.25 }
        let output = folder.file("out.flac")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: output))
        let chain = try folder.preset("gain.json", preset(gainNode, chain: ["gain"]))
        let refused = try runExecutable(["render", chain, input, "-o", output])
        #expect(refused.status == 1)
        #expect(refused.errors == "auhost: \(output): already exists; pass --force to replace it\n")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "precious")
        let forced = try runExecutable(["render", chain, input, "-o", output, "--force", "--tail", "0"])
        #expect(forced.status == 0, "\(forced.errors)")
        #expect(forced.output.contains("flac 24-bit"))
        let written = try readAudio(output).samples
        #expect(written[1].count == 4800 && abs(written[1][100] - 0.125) < 1e-4)
        #expect(folder.contents() == ["gain.json", "in.wav", "out.flac"])
    }

    /// --jobs 2 gives the same samples as --jobs 1, file by file, and reports in input order.
    @Test func parallelJobsGiveTheSameSamples() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var inputs: [String] = []
        for index in 0..<4 {
            let path = folder.file("in\(index).wav")
            try writeAudio(path, sampleRate: 48_000, channels: 2, frames: 6000 + 1000 * index) { channel, frame in
                frame % (200 + 50 * index) == 0 ? 0.6 : Float(channel) * 0.01
            }
            inputs.append(path)
        }
        let chain = try folder.preset("chain.json", preset([limiterNode, delayNode].joined(separator: ", "), chain: ["limiter", "delay"]))
        var outputs: [String: String] = [:]
        for jobs in ["1", "2"] {
            try FileManager.default.createDirectory(atPath: folder.file("jobs\(jobs)"), withIntermediateDirectories: false)
            let result = render([chain] + inputs + ["--output-dir", folder.file("jobs\(jobs)"), "--jobs", jobs, "--bit-depth", "32f"])
            #expect(result.status == 0, "\(result.errors)")
            // The per-file reports, without the batch's summary (its time differs run to run).
            outputs[jobs] = result.output.split(separator: "\n").filter { !$0.hasPrefix("batch: ") }.joined(separator: "\n")
        }
        #expect(outputs["1"]?.replacingOccurrences(of: "jobs1", with: "jobs2") == outputs["2"])
        for index in 0..<4 {
            let one = try readAudio(folder.file("jobs1/in\(index).wav")).samples
            let two = try readAudio(folder.file("jobs2/in\(index).wav")).samples
            #expect(one == two, "in\(index).wav differs")
        }
    }

    /// Block sizes 1, 17 and 4096 give the same output within 1e-6 (latency, tail and
    /// sample-rate conversion included).
    @Test func blockSizesGiveTheSameOutput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("in.wav")
        try writeAudio(input, sampleRate: 44_100, channels: 1, frames: 4410) { _, frame in
            0.5 * Float(sin(Double(frame) * 0.07)) + (frame == 2000 ? 0.4 : 0)
        }
        let chain = try folder.preset(
            "chain.json", preset([limiterNode, delayNode].joined(separator: ", "), chain: ["limiter", "delay"], sampleRate: 48_000))
        var results: [[[Float]]] = []
        for block in ["1", "17", "4096"] {
            let output = folder.file("out\(block).wav")
            let result = render([chain, input, "-o", output, "--block", block, "--tail", "0.3", "--bit-depth", "32f"])
            #expect(result.status == 0, "\(result.errors)")
            results.append(try readAudio(output).samples)
        }
        #expect(results[0][0].count == 4410 + 13_230)
        for other in results.dropFirst() {
            #expect(other[0].count == results[0][0].count)
            let difference = zip(results[0][0], other[0]).map { abs($0 - $1) }.max() ?? 1
            #expect(difference <= 1e-6, "largest difference \(difference)")
        }
    }

    /// Levels are printed for each file; a clipping output is warned of (and still written).
    @Test func levelsAndClippingWarnings() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("loud.wav")
        try writeAudio(input, sampleRate: 48_000, channels: 2, frames: 4800) { _, frame in 0.9 * Float(sin(Double(frame) * 0.1)) }
        let boost = #"{"id": "gain", "unit": "aufx:gain:AUHs", "parameters": {"gain": 6, "smoothing": 0}}"#
        let chain = try folder.preset("boost.json", preset(boost, chain: ["gain"]))
        let result = render([chain, input, "-o", folder.file("out.wav"), "--tail", "0", "--true-peak"])
        #expect(result.status == 0)
        #expect(result.output.contains("peak") && result.output.contains("RMS") && result.output.contains("true peak"))
        #expect(result.errors.contains("auhost: warning: \(folder.file("out.wav")): clipping: sample peak"), "\(result.errors)")
        let quiet = render([chain, input, "-o", folder.file("quiet.wav"), "--tail", "0", "--set", "gain.gain=-12"])
        #expect(quiet.status == 0 && quiet.errors.isEmpty, "\(quiet.errors)")
    }

    /// A signal while rendering: SIGINT, SIGTERM and SIGHUP exit 128 + the signal (130,
    /// 143, 129) after abandoning the output; SIGKILL cannot be handled, and still nothing
    /// is left in the folder, not even a hidden temporary file (the output is unnamed until
    /// it is complete).
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129)), (SIGKILL, Int32(0))])
    func anInterruptedRenderLeavesNothing(signal: Int32, status: Int32) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("long.wav")
        try writeAudio(input, sampleRate: 8000, channels: 1, frames: 8000 * 60, encoding: try AudioFileEncoding(format: .wav, bitDepth: .int16)) { _, frame in
            Float(frame % 80) / 160
        }
        // 60 s at 192 kHz in 1-frame cycles: minutes of work, interrupted long before the end.
        let chain = try folder.preset("slow.json", preset(gainNode, chain: ["gain"], sampleRate: 192_000))
        let process = Process()
        process.executableURL = try auhostExecutable()
        process.arguments = ["render", chain, input, "-o", folder.file("out.wav"), "--block", "1"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try ChildProcess.launch(process)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var started = false
        for _ in 0..<600 where !started {
            started = hasOutputOpen(process.processIdentifier, in: folder.path)
            if !started { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(started, "the render never opened its output")
        Thread.sleep(forTimeInterval: 0.2)
        kill(process.processIdentifier, signal)
        for _ in 0..<600 where process.isRunning { Thread.sleep(forTimeInterval: 0.05) }
        try #require(!process.isRunning, "the render did not end within 30 s of the signal")
        let text = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
        if signal == SIGKILL {
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        } else {
            #expect(process.terminationStatus == status, "\(text)")
            #expect(text.contains("interrupted"), "\(text)")
        }
        #expect(folder.contents() == ["long.wav", "slow.json"])
    }

    /// `auhost render … --jobs 2 | true`: standard output is a pipe nobody reads. The
    /// result lines are lost, but the process neither dies of SIGPIPE nor traps: every file
    /// is rendered and nothing hidden is left (it used to trap on the first line, one file
    /// rendered and the other never). SIGPIPE's default action is restored for the child
    /// (the test runner ignores it, and children inherit that), as a shell would run it.
    @Test func aClosedStandardOutputStillRendersEveryFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for name in ["a.wav", "b.wav"] {
            try writeAudio(folder.file(name), sampleRate: 48_000, channels: 2, frames: 48_000) { _, frame in Float(frame % 100) / 400 }
        }
        let chain = try folder.preset("gain.json", preset(gainNode, chain: ["gain"]))
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--default-signal=PIPE", try auhostExecutable().path, "render", chain, folder.file("a.wav"), folder.file("b.wav"),
                             "--output-dir", folder.file("out"), "--jobs", "2", "--tail", "0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try output.fileHandleForReading.close()
        try ChildProcess.launch(process)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        for _ in 0..<600 where process.isRunning { Thread.sleep(forTimeInterval: 0.05) }
        try #require(!process.isRunning, "the render did not end within 30 s")
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "status \(process.terminationStatus)")
        #expect(folder.contents("out") == ["a.wav", "b.wav"])
    }

    @Test(arguments: [
        (["p.json", "in.wav"], "'render' needs -o OUTPUT or --output-dir DIR"),
        (["p.json"], "'render' needs a PRESET.json and at least one INPUT"),
        (["p.json", "a.wav", "b.wav", "-o", "out.wav"], "-o names one output but 2 inputs were given"),
        (["p.json", "a.wav", "-o", "x.wav", "--output-dir", "d"], "-o and --output-dir cannot be used together"),
        (["p.json", "a.wav", "-o", "x.wav", "--tail", "forever"], "--tail takes a number of seconds in 0...3600 or auto"),
        (["p.json", "a.wav", "-o", "x.flac", "--bit-depth", "32f"], "format 'flac' cannot store bit depth 32f"),
        (["p.json", "a.wav", "-o", "x.wav", "--format", "mp3"], "--format takes one of wav|flac|aiff|caf|ogg"),
        (["p.json", "a.wav", "-o", "x.mp3"], "-o x.mp3: '.mp3' names no format auhost writes; expected one of wav|wave|flac|aif|aiff|aifc|caf|ogg|oga"),
        (["p.json", "a.wav", "-o", "x.wav", "--format", "flac"], "-o x.wav names a wav file but --format is flac"),
        (["p.json", "a.wav", "-o", "x.wav", "--block", "0"], "--block takes a frame count in 1...16384"),
        (["p.json", "a.wav", "-o", "x.wav", "--jobs", "many"], "--jobs takes a number of jobs in 1...64"),
        (["p.json", "d1/a.wav", "d2/a.wav", "--output-dir", "out"], "d1/a.wav and d2/a.wav would both be written to out/a.wav"),
        (["p.json", "a.wav", "--output-dir", "."], "the output would replace its own input"),
        (["p.json", "a.wav", "-o", "x.wav", "--bogus"], "unknown option '--bogus'"),
    ])
    func usageErrorsExit64(arguments: [String], message: String) {
        let result = runCLI(["render"] + arguments)
        #expect(result.status == 64)
        #expect(result.errors.hasPrefix("auhost: ") && result.errors.contains(message), "\(result.errors)")
        #expect(result.errors.contains("auhost: see 'auhost help render'"))
    }

    @Test func theExecutableExits64ForUsageErrors() throws {
        let result = try runExecutable(["render", "p.json", "in.wav"])
        #expect(result.status == 64)
        #expect(result.errors.hasPrefix("auhost: 'render' needs -o OUTPUT or --output-dir DIR"))
    }
}

private func runCLI(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
    let output = TextOutput()
    let errors = TextOutput()
    let status = AUHostCLI.run(arguments, output: output, errors: errors) { ComponentRegistry(providers: []) }
    return (status, output.captured, errors.captured)
}

/// Whether process `pid` has a file open for writing in `folder` other than its inputs: an
/// unnamed output (`/proc` shows `folder/#inode (deleted)`) or a hidden temporary one.
private func hasOutputOpen(_ pid: Int32, in folder: String) -> Bool {
    let fds = "/proc/\(pid)/fd"
    for name in (try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? [] {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fds)/\(name)"),
              target.hasPrefix(folder + "/")
        else { continue }
        let file = target.dropFirst(folder.count + 1)
        if file.hasPrefix("#") || file.hasPrefix(".out.wav.auhost-") { return true }
    }
    return false
}
