import AUCore
import AUHost
import AUMIDI
import AUTestSupport
import Foundation
import Testing

/// Live, under a real jackd (`jackd -d dummy`, a server of the test's own, stopped by its
/// PID): the sampler's `load` and `set` while a sine plays beside it, and an LV2 plugin's
/// file property (x42 convoLV2's impulse response) loaded over the command channel.
@Suite(.serialized) struct LiveFilePropertyTests {
    static var gm: String? { SamplerUnit.defaultGeneralMIDIBank }
    static var convolverInstalled: Bool { FileManager.default.fileExists(atPath: "/usr/lib/lv2/convo.lv2") }
    static let rate = 48_000.0
    /// The sine's frequency: 50 cycles in a 480-frame window (its phase is the same in every
    /// window), 106⅔ in a 1,024-frame period (a period lost or repeated moves it by 240°).
    static let sine = 5_000.0

    /// A C4 on every beat for nine tenths of it, eight beats: the song `auhost play --loop`
    /// plays. A bank loaded live starts without the notes the old one held, so a note starts
    /// in every half second the test listens to.
    static func middleC(_ path: String) throws {
        var sequence = MusicSequence()
        var track = MusicTrack()
        for beat in 0..<8 {
            track.addMIDINoteEvent(at: Double(beat), MIDINoteMessage(channel: 0, note: 60, velocity: 100, duration: 0.9))
        }
        sequence.tracks = [track]
        try sequence.write(to: path, overwrite: true)
    }

    /// The sine's complex amplitude in each 480-frame window of `samples`.
    static func sineWindows(_ samples: ArraySlice<Float>) -> [(magnitude: Double, phase: Double)] {
        stride(from: samples.startIndex, to: samples.endIndex - 480, by: 480).map { start in
            var re = 0.0, im = 0.0
            for frame in 0..<480 {
                let angle = 2 * Double.pi * sine * Double(frame) / rate
                re += Double(samples[start + frame]) * cos(angle)
                im -= Double(samples[start + frame]) * sin(angle)
            }
            return ((re * re + im * im).squareRoot() * 2 / 480, atan2(im, re))
        }
    }

    /// What is left of `samples` without the sine: its RMS over 480-frame windows, the
    /// sine's power taken away.
    static func residual(_ samples: ArraySlice<Float>) -> Double {
        let windows = sineWindows(samples)
        let total = samples.prefix(windows.count * 480).reduce(0.0) { $0 + Double($1) * Double($1) } / Double(windows.count * 480)
        let sinePower = windows.reduce(0.0) { $0 + $1.magnitude * $1.magnitude / 2 } / Double(windows.count)
        return max(0, total - sinePower).squareRoot()
    }

    /// The levels in dB of C4's first eight partials in `samples`, relative to the strongest.
    static func partials(_ samples: ArraySlice<Float>) -> [Double] {
        let levels = (1...8).map { harmonic -> Double in
            let frequency = 261.626 * Double(harmonic)
            let strongest = stride(from: frequency * 0.97, through: frequency * 1.03, by: 1.0).map { f -> Double in
                var re = 0.0, im = 0.0
                for (index, sample) in samples.enumerated() {
                    let angle = 2 * Double.pi * f * Double(index) / rate
                    let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(index) / Double(samples.count - 1))
                    re += window * Double(sample) * cos(angle)
                    im -= window * Double(sample) * sin(angle)
                }
                return (re * re + im * im).squareRoot()
            }.max() ?? 0
            return 20 * log10(max(strongest, 1e-12))
        }
        let strongest = levels.max() ?? 0
        return levels.map { $0 - strongest }
    }

    @Test("load NODE gm and set NODE program 41 while the song plays: the sine beside the sampler goes on without a discontinuity, the sampler's output changes",
          .enabled(if: gm != nil, "no GM bank (fluid-soundfont-gm)"))
    func loadAndSetLeaveTheOtherBranchAlone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.middleC(folder.file("c4.mid"))
        let preset = """
            {"auhost": 1, "name": "Sine beside a sampler", "nodes": [
              {"id": "sine", "unit": "augn:tone:AUHs", "parameters": {"frequency": \(Self.sine), "level": -12}},
              {"id": "gm", "unit": "aumu:samp:AUHs"},
              {"id": "mix", "unit": "aumx:mcmx:AUHs"}],
             "connections": [["sine:0", "mix:0"], ["gm:0", "mix:1"], ["mix:0", "output:0"]]}
            """
        // An xrun (the loaded machine's dummy driver skipping cycles) breaks the sine itself.
        for attempt in 1...5 {
            let rig = try LiveRig(preset: preset, song: folder.file("c4.mid"), extraArguments: ["--loop"], periodFrames: 1_024)
            defer { rig.tearDown() }
            try #require(rig.waitForStandardError("auhost: playing"), "\(rig.standardError)")
            try rig.connectTester()
            // Waits are on the frames recorded (a loaded machine's wall time says little).
            try #require(rig.through.wait(forCount: 24_000), "the loopback stalled at \(rig.through.count) frames")
            let xruns = try xrunCount(rig)
            let start = rig.through.count
            try #require(rig.through.wait(forCount: start + 48_000), "the loopback stalled at \(rig.through.count) frames")
            let loadAt = rig.through.count
            #expect(try rig.send("load gm gm").hasPrefix("ok soundbank="))
            let loadedAt = rig.through.count
            try #require(rig.through.wait(forCount: loadedAt + 72_000), "the loopback stalled at \(rig.through.count) frames")
            let setAt = rig.through.count
            #expect(try rig.send("set gm program 41") == "ok 41")
            try #require(rig.through.wait(forCount: setAt + 72_000), "the loopback stalled at \(rig.through.count) frames")
            let end = rig.through.count
            // A run with an xrun is tried again; when every run had one, only what a missed
            // cycle cannot change is compared: the sampler sounds after the load, and the
            // violin is not the piano.
            let disturbed = try xrunCount(rig) != xruns
            if disturbed && attempt < 5 { continue }
            let recorded = Array(rig.through.samples[0..<end])
            if !disturbed {
                let windows = Self.sineWindows(recorded[start..<end])
                try #require(!windows.isEmpty, "no window recorded")
                let magnitude = windows.map(\.magnitude).sorted()[windows.count / 2]
                let phase = windows[0].phase
                // -12 dBFS from the tone generator, summed by the mixer at unity.
                #expect(abs(20 * log10(magnitude / 0.2512)) < 0.5, "the sine's amplitude \(magnitude)")
                let worstMagnitude = windows.map { abs(20 * log10($0.magnitude / magnitude)) }.max() ?? 0
                let worstPhase = windows.map { abs(remainder($0.phase - phase, 2 * Double.pi)) }.max() ?? 0
                #expect(worstMagnitude < 0.2 && worstPhase < 0.05, "the sine moved by \(worstMagnitude) dB, \(worstPhase) rad")
                #expect(Self.residual(recorded[start..<loadAt]) < 1e-4, "the sampler sounded before its bank was loaded")
            }
            // The sampler: heard after its bank; the violin is not the piano.
            let piano = Self.residual(recorded[(loadedAt + 24_000)..<setAt])
            #expect(piano > 1e-3, "the sampler's level after the load \(piano)")
            let pianoPartials = Self.partials(recorded[(setAt - 24_000)..<setAt])
            let violinPartials = Self.partials(recorded[(end - 24_000)..<end])
            let difference = zip(pianoPartials, violinPartials).map { abs($0 - $1) }.reduce(0, +) / 8
            #expect(difference > 3, "piano \(pianoPartials), violin \(violinPartials): mean difference \(difference) dB")
            return
        }
    }

    @Test("load NODE FILE on x42 convoLV2 while it runs: ok, the signal through it is the input convolved with that response (correlation > 0.99); a file that is no audio is an error naming it and the response stays",
          .enabled(if: convolverInstalled, "x42-plugins (convoLV2) is not installed"))
    func convolverLoadsAnImpulseResponseLive() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let response = FilePropertyPresetTests.impulseResponse()
        try writeAudio(folder.file("room.wav"), sampleRate: 48_000, channels: 1, frames: response.count) { _, frame in response[frame] }
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: folder.file("bad.wav")))
        let rig = try LiveRig(preset: #"{"auhost": 1, "name": "Room", "nodes": [{"id": "ir", "unit": "\#(FilePropertyPresetTests.convolver)"}], "chain": ["ir"]}"#)
        defer { rig.tearDown() }
        try #require(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        try rig.connectTester()
        let loaded = try rig.send("load ir \(folder.file("room.wav"))")
        #expect(loaded.hasPrefix("ok") && loaded.contains("room.wav"), "\(loaded)")
        let refused = try rig.send("load ir \(folder.file("bad.wav"))")
        #expect(refused.hasPrefix("error: ") && refused.contains("bad.wav"), "\(refused)")
        // convoLV2 reads the file on its worker thread: the response is in effect within a second.
        var best = 0.0
        for _ in 0..<10 where best <= 0.99 {
            best = Self.convolutionMatch(rig, response: response)
        }
        #expect(best > 0.99, "the output against the input convolved with room.wav: correlation \(best)")
    }

    /// The correlation of the next 9,600 frames through the plugin with the reference signal
    /// convolved with `response`, at the lag (0...1,024 frames) that matches best.
    static func convolutionMatch(_ rig: LiveRig, response: [Float]) -> Double {
        Thread.sleep(forTimeInterval: 0.1)
        let start = rig.direct.count + 4_800, frames = 9_600, maxLag = 1_024
        guard rig.direct.wait(forCount: start + frames + maxLag), rig.through.wait(forCount: start + frames + maxLag) else { return 0 }
        let input = rig.direct.samples
        let expected = (0..<frames).map { frame -> Float in
            var sum: Float = 0
            for (tap, coefficient) in response.enumerated() { sum += coefficient * input[start + frame - tap] }
            return sum
        }
        let through = Array(rig.through.samples[start..<(start + frames + maxLag)])
        let lag = bestLag(through, expected, maxLag: maxLag)
        return FilePropertyPresetTests.correlation(Array(through[lag..<(lag + frames)]), expected)
    }
}
