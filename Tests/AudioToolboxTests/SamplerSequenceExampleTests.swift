import AUTestSupport
import Foundation
import Testing

/// Examples/SamplerSequence (seed 002's iOS Swift code: an AUSampler loaded with
/// kAUSamplerProperty_LoadInstrument in an AUGraph into Remote I/O, a MusicSequence played by
/// a MusicPlayer) compiled with swiftc against the AudioToolbox module and run with
/// AUHOST_DEVICE=file:. Its tune (C4 E4 G4 C5 G4 E4, one note a beat at 120 BPM) must be in
/// the file: each note at its pitch, starting on its beat.
@Suite struct SamplerSequenceExampleTests {
    static let tune: [(key: Int, beat: Double)] = [(60, 0), (64, 1), (67, 2), (72, 3), (67, 4), (64, 5)]

    /// Compiles the example's main.swift against the built AudioToolbox module (and the
    /// module maps of the C modules it imports internally).
    static func compileExample(to output: URL) throws {
        let build = AudioToolboxBuild.libraryDirectory
        let root = AudioToolboxBuild.root
        var arguments = ["swiftc", "-swift-version", "5", root.appendingPathComponent("Examples/SamplerSequence/Sources/SamplerSequence/main.swift").path,
                         "-I", build.appendingPathComponent("Modules").path]
        let sources = root.appendingPathComponent("Sources")
        var maps: [String] = []
        for folder in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            for candidate in ["\(folder)/module.modulemap", "\(folder)/include/module.modulemap"] {
                let path = sources.appendingPathComponent(candidate).path
                if FileManager.default.fileExists(atPath: path) { maps.append(path) }
            }
            let include = sources.appendingPathComponent("\(folder)/include").path
            if FileManager.default.fileExists(atPath: include) { arguments += ["-Xcc", "-I", "-Xcc", include] }
        }
        for folder in try FileManager.default.contentsOfDirectory(atPath: build.path) where folder.hasSuffix(".build") {
            let path = build.appendingPathComponent("\(folder)/module.modulemap").path
            if FileManager.default.fileExists(atPath: path) { maps.append(path) }
        }
        for map in maps { arguments += ["-Xcc", "-fmodule-map-file=\(map)"] }
        // The system libraries whose headers are not in /usr/include itself (lilv's, under the
        // LV2 plugins AudioToolbox finds), as SwiftPM's pkgConfig gives them to a package.
        let lilv = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["pkg-config", "--cflags-only-I", "lilv-0"], timeout: 60)
        for flag in lilv.output.split(whereSeparator: \.isWhitespace) { arguments += ["-Xcc", String(flag)] }
        arguments += ["-L", build.path, "-lAudioToolbox", "-Xlinker", "-rpath", "-Xlinker", build.path, "-o", output.path]
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/opt/swift/usr/bin"
        let swiftc = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), arguments, environment: ["PATH": path], timeout: 600)
        guard swiftc.status == 0 else { throw AudioToolboxBuild.CompileError(message: swiftc.errors) }
    }

    /// The Goertzel amplitude of `frequency` in `count` frames of `samples` from `start`.
    static func amplitude(_ frequency: Double, _ samples: [Float], from start: Int, count: Int, rate: Double) -> Double {
        Goertzel.amplitude(of: frequency, in: Array(samples[start..<min(samples.count, start + count)]), sampleRate: rate)
    }

    @Test func seed002PlaysEachNoteAtItsPitchAndBeat() throws {
        let folder = try AudioToolboxBuild.scratchFolder("samplersequence")
        defer { try? FileManager.default.removeItem(at: folder) }
        let program = folder.appendingPathComponent("SamplerSequence")
        try Self.compileExample(to: program)
        let wav = folder.appendingPathComponent("out.wav")
        let run = try ChildProcess.run(program, [], environment: ["AUHOST_DEVICE": "file:\(wav.path)"], timeout: 120)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.split(separator: "\n").count == Self.tune.count, "\(run.output)")
        let (rate, samples) = try WAVSamples.readFirstChannel(wav)
        // The device renders near silence until the player starts (the sampler's effects
        // leave values under 10⁻⁶): the first note starts where the signal rises past 10⁻⁴.
        let first = try #require(samples.firstIndex { abs($0) > 1e-4 }, "the file is silent")
        let framesPerBeat = rate * 0.5
        for note in Self.tune {
            let start = first + Int((note.beat * framesPerBeat).rounded())
            try #require(start + 9000 < samples.count, "the file ends before beat \(note.beat)")
            let frequency = 440 * pow(2, (Double(note.key) - 69) / 12)
            // Pitch: the note's fundamental stands over its semitone neighbours.
            let here = Self.amplitude(frequency, samples, from: start + 441, count: 8192, rate: rate)
            let neighbours = [frequency * pow(2, -1 / 12), frequency * pow(2, 1 / 12)].map { Self.amplitude($0, samples, from: start + 441, count: 8192, rate: rate) }
            #expect(here > 4 * neighbours.max()!, "note \(note.key) at beat \(note.beat): \(here) against its neighbours \(neighbours)")
            // Beat: the pitch is absent in the 100 ms before the beat and there after it.
            guard note.beat > 0 else { continue }
            let before = Self.amplitude(frequency, samples, from: start - 4410 - 64, count: 4410, rate: rate)
            let after = Self.amplitude(frequency, samples, from: start + 64, count: 4410, rate: rate)
            #expect(after > 4 * before, "note \(note.key) at beat \(note.beat) (frame \(start)): \(before) before, \(after) after")
        }
    }
}
