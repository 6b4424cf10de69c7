import AUCore
import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Testing

/// The rate a chain runs at and the channels that come back: `--rate native`, a preset's
/// `sampleRate` as the rate it was designed at (live too), `--src-quality`, `--channels`'s
/// bounds (RenderCommandTests.monoThroughAStereoChain: a mono file comes back stereo).
@Suite(.serialized) struct RenderRateChannelTests {
    /// A mono sine of `frames` at `rate`.
    static func sine(_ path: String, rate: Double, frames: Int = 22_050) throws {
        try writeAudio(path, sampleRate: rate, channels: 1, frames: frames) { _, frame in Float(0.25 * sin(2 * .pi * 441 * Double(frame) / rate)) }
    }

    /// `in.wav`, a 44.1 kHz mono sine, and a unity-gain preset designed at 48 kHz; returns the preset's path.
    static func sineAndGain(in folder: TemporaryFolder) throws -> String {
        try sine(folder.file("in.wav"), rate: 44_100)
        return try folder.preset("p.json", #"{"auhost": 1, "name": "G", "sampleRate": 48000, "nodes": [{"id": "g", "unit": "aufx:gain:AUHs"}], "chain": ["g"]}"#)
    }

    @Test("--rate native runs the chain at the file's rate; without it the preset's sampleRate converts it")
    func rateNative() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preset = try Self.sineAndGain(in: folder)
        let converted = render([preset, folder.file("in.wav"), "-o", folder.file("a.wav"), "--tail", "0"])
        #expect(converted.status == 0 && converted.output.contains("chain 48000 Hz"), "\(converted.output)\(converted.errors)")
        let native = render([preset, folder.file("in.wav"), "-o", folder.file("b.wav"), "--tail", "0", "--rate", "native"])
        #expect(native.status == 0 && native.output.contains("chain 44100 Hz"), "\(native.output)\(native.errors)")
        // Unconverted, a unity gain gives back the input's samples.
        let input = try readAudio(folder.file("in.wav")).samples[0], output = try readAudio(folder.file("b.wav")).samples[0]
        #expect(zip(input, output).allSatisfy { abs($0 - $1) < 1e-6 })
        let bad = render([preset, folder.file("in.wav"), "-o", folder.file("c.wav"), "--rate", "preset"])
        #expect(bad.status == CLIError.usageStatus && bad.errors.contains("--rate takes native"), "\(bad.errors)")
        #expect(render([preset, folder.file("in.wav"), "-o", folder.file("d.wav"), "--channels", "0"]).status == CLIError.usageStatus)
    }

    @Test("through the binary: --rate native, --src-quality fast and --channels 1 (a mono file through a stereo chain)")
    func rateQualityAndChannelsThroughTheBinary() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preset = try Self.sineAndGain(in: folder)
        let input = try readAudio(folder.file("in.wav")).samples[0]
        for (options, chainRate) in [(["--rate", "native"], "chain 44100 Hz"), (["--src-quality", "fast"], "chain 48000 Hz")] {
            let stereo = try runExecutable(["render", preset, folder.file("in.wav"), "-o", folder.file("stereo.wav"), "--tail", "0", "--force"] + options)
            #expect(stereo.status == 0 && stereo.output.contains(chainRate), "\(stereo.output)\(stereo.errors)")
            #expect(try readAudio(folder.file("stereo.wav")).samples.count == 2, "a mono file through a stereo chain comes back stereo")
            let mono = try runExecutable(["render", preset, folder.file("in.wav"), "-o", folder.file("mono.wav"), "--tail", "0", "--force", "--channels", "1"] + options)
            #expect(mono.status == 0, "\(mono.errors)")
            let (rate, samples) = try readAudio(folder.file("mono.wav"))
            #expect(rate == 44_100 && samples.count == 1 && samples[0].count == input.count)
            let middle = 4_000..<18_000
            let difference = zip(input[middle], samples[0][middle]).map { abs($0 - $1) }.max() ?? 1
            #expect(difference < 0.01, "\(options)")
        }
    }

    @Test("--src-quality picks libsamplerate's converter: each is close to the best, fast is not identical", arguments: ["medium", "fast"])
    func sourceQuality(quality: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preset = try Self.sineAndGain(in: folder)
        #expect(render([preset, folder.file("in.wav"), "-o", folder.file("best.wav"), "--tail", "0"]).status == 0)
        let other = render([preset, folder.file("in.wav"), "-o", folder.file("other.wav"), "--tail", "0", "--src-quality", quality])
        #expect(other.status == 0, "\(other.errors)")
        let best = try readAudio(folder.file("best.wav")).samples[0], cheap = try readAudio(folder.file("other.wav")).samples[0]
        let middle = 4_000..<18_000
        let difference = zip(best[middle], cheap[middle]).map { abs($0 - $1) }.max() ?? 1
        #expect(difference > 0 && difference < 0.01, "largest difference \(difference)")
        #expect(render([preset, folder.file("in.wav"), "-o", folder.file("x.wav"), "--src-quality", "perfect"]).errors.contains("--src-quality takes best, medium or fast"))
    }
}

/// RenderRateChannelTests's live test: under a jackd of its own, run with the live suites (scripts/test.sh).
@Suite(.serialized) struct RenderRateChannelLiveTests {
    @Test("live, a preset designed at 44.1 kHz runs at the 48 kHz server's rate and says so")
    func liveRunsAtTheServersRate() throws {
        let rig = try LiveRig(preset: #"{"auhost": 1, "name": "Designed", "sampleRate": 44100, "nodes": [{"id": "g", "unit": "aufx:gain:AUHs"}], "chain": ["g"]}"#)
        defer { rig.tearDown() }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        #expect(rig.standardError.contains("'Designed' was designed at 44100 Hz; it runs at the server's 48000 Hz"), "\(rig.standardError)")
        #expect(try rig.send("status").contains("rate=48000"))
    }
}
