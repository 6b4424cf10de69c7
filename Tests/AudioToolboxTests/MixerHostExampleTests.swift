import AUTestSupport
import Foundation
import Testing

/// Examples/CoreAudioMixerHost/main.c (seed 003's patterns as one C program) compiled with
/// `cc` against include/ and libAudioToolbox.so, run with AUHOST_DEVICE=file:, and its
/// output checked tone by tone: each tone's amplitude measured with the Goertzel algorithm
/// over 4096 frames (left channel) in the middle of each second. A tone the program plays
/// is at 0.25 (the callbacks' level; the EQ is Disabled, the mixer's stereo inputs at unity):
/// present means above 0.15, absent below 0.02. The windows keep 0.25 s from each change,
/// which the program makes on its own clock while the device is paced by its own.
@Suite struct MixerHostExampleTests {
    @Test func theSeedProgramPlaysEachToneWhenItShould() throws {
        let build = AudioToolboxBuild.directory
        let (folder, run, wav) = try AudioToolboxBuild.runExampleToFile("CoreAudioMixerHost")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        #expect(run.output.contains("mixer input 0: 44100 Hz 'lpcm' flags 0xC"), "\(run.output)")
        #expect(run.output.contains("Input callbacks:"), "CAShow prints the graph: \(run.output)")
        let (rate, left) = try WAVSamples.readFirstChannel(wav)
        #expect(rate == 44_100)
        #expect(Double(left.count) / rate > 2.8, "about 3 s played: \(Double(left.count) / rate) s (build dir \(build.path))")

        let expectations: [(start: Double, present: [Double], absent: [Double])] = [
            (0.3, [440, 660], [880]),
            (1.3, [440], [660, 880]),
            (2.3, [880, 660], [440]),
        ]
        for window in expectations {
            let first = Int(window.start * rate)
            guard first + 4096 <= left.count else {
                Issue.record("the file ends before \(window.start) s")
                continue
            }
            let slice = Array(left[first..<(first + 4096)])
            for frequency in window.present {
                let amplitude = Goertzel.amplitude(of: frequency, in: slice, sampleRate: rate)
                #expect(amplitude > 0.15, "\(frequency) Hz at \(window.start) s: \(amplitude)")
            }
            for frequency in window.absent {
                let amplitude = Goertzel.amplitude(of: frequency, in: slice, sampleRate: rate)
                #expect(amplitude < 0.02, "\(frequency) Hz at \(window.start) s: \(amplitude)")
            }
        }
    }
}

/// The headers and the library serve C++ programs too: the seed program compiled by `c++`
/// as C++17 runs to its end with AUHOST_DEVICE=null (the audio discarded, paced).
@Suite struct CPlusPlusClientTests {
    @Test func theSeedProgramBuildsAndRunsAsCPlusPlus() throws {
        let folder = try AudioToolboxBuild.scratchFolder("cxx")
        defer { try? FileManager.default.removeItem(at: folder) }
        let program = folder.appendingPathComponent("mixerhost")
        let build = AudioToolboxBuild.libraryDirectory
        let cxx = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/c++"),
            ["-x", "c++", "-std=c++17", "-Wall", "-Werror", "-Wno-multichar", "-Wno-unused-parameter", "-I", AudioToolboxBuild.root.appendingPathComponent("include").path,
             AudioToolboxBuild.root.appendingPathComponent("Examples/CoreAudioMixerHost/main.c").path, "-L", build.path, "-lAudioToolbox",
             "-Wl,-rpath,\(build.path)", "-o", program.path],
            timeout: 120)
        #expect(cxx.status == 0, "\(cxx.errors)")
        let run = try ChildProcess.run(program, [], environment: ["AUHOST_DEVICE": "null"], timeout: 60)
        #expect(run.status == 0 && run.output.contains("stopped (was running: 1)"), "\(run.output)\n\(run.errors)")
    }
}

/// Examples/CoreAudioSineWave: the textbook program, the default output unit alone with a
/// render callback in 16-bit interleaved stereo and AudioOutputUnitStart, written to a file:
/// two seconds of 440 Hz at 0.5 (above 0.35 at 0.5 s and 1.5 s, nothing at 880 Hz).
@Suite struct SineWaveExampleTests {
    @Test func theDefaultOutputUnitPlaysItsCallbackAlone() throws {
        let (folder, run, wav) = try AudioToolboxBuild.runExampleToFile("CoreAudioSineWave")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        let (rate, left) = try WAVSamples.readFirstChannel(wav)
        #expect(Double(left.count) / rate > 1.8)
        for start in [0.5, 1.5] where Int(start * rate) + 4096 <= left.count {
            let slice = Array(left[Int(start * rate)..<(Int(start * rate) + 4096)])
            #expect(Goertzel.amplitude(of: 440, in: slice, sampleRate: rate) > 0.35)
            #expect(Goertzel.amplitude(of: 880, in: slice, sampleRate: rate) < 0.02)
        }
    }
}

/// Where the library under test is and how a C client is built against it.
enum AudioToolboxBuild {
    static let root = ReleaseBuild.root
    /// The folder of this test binary: the build folder that holds libAudioToolbox.so.
    static var directory: URL { URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent() }

    static func scratchFolder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("audiotoolbox-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Compiles Examples/`name`/main.c into a scratch folder and runs it with
    /// AUHOST_DEVICE=file: (out.wav there); the caller removes the folder.
    static func runExampleToFile(_ name: String) throws -> (folder: URL, run: ChildProcess.Outcome, wav: URL) {
        let folder = try scratchFolder(name)
        let program = folder.appendingPathComponent(name)
        try compileC(root.appendingPathComponent("Examples/\(name)/main.c"), to: program)
        let wav = folder.appendingPathComponent("out.wav")
        let run = try ChildProcess.run(program, [], environment: ["AUHOST_DEVICE": "file:\(wav.path)"], timeout: 60)
        return (folder, run, wav)
    }

    /// The folder that holds libAudioToolbox.so: this test binary's, else .build/debug.
    static var libraryDirectory: URL {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("libAudioToolbox.so").path)
            ? directory : root.appendingPathComponent(".build/debug")
    }

    /// Compiles a C program against include/ and the built library (its RUNPATH names the build folder).
    static func compileC(_ source: URL, to output: URL) throws {
        let build = libraryDirectory
        let cc = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/cc"),
            ["-std=c11", "-Wall", "-Werror", "-Wno-multichar", "-Wno-unused-parameter", "-D_DEFAULT_SOURCE", "-I", root.appendingPathComponent("include").path,
             source.path, "-L", build.path, "-lAudioToolbox", "-Wl,-rpath,\(build.path)", "-lm", "-o", output.path],
            timeout: 120)
        guard cc.status == 0 else { throw CompileError(message: cc.errors) }
    }

    struct CompileError: Error, CustomStringConvertible {
        let message: String
        var description: String { "cc failed: \(message)" }
    }
}

/// The Goertzel algorithm: the amplitude of one frequency in a block of samples.
enum Goertzel {
    static func amplitude(of frequency: Double, in samples: [Float], sampleRate: Double) -> Double {
        let omega = 2 * Double.pi * frequency / sampleRate
        let coefficient = 2 * cos(omega)
        var s1 = 0.0, s2 = 0.0
        // A Hann window keeps a strong neighbour from leaking into an absent tone.
        let count = Double(samples.count)
        for (index, sample) in samples.enumerated() {
            let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(index) / (count - 1))
            let s = Double(sample) * window + coefficient * s1 - s2
            s2 = s1
            s1 = s
        }
        let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
        return 2 * sqrt(max(power, 0)) / (count * 0.5)
    }
}

/// A float WAV file's first channel (libsndfile's WAVE_FORMAT_EXTENSIBLE or plain).
enum WAVSamples {
    struct Malformed: Error {}

    static func readFirstChannel(_ url: URL) throws -> (rate: Double, samples: [Float]) {
        let data = try Data(contentsOf: url)
        func u32(_ at: Int) -> UInt32 { data.subdata(in: at..<(at + 4)).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } }
        func u16(_ at: Int) -> UInt16 { data.subdata(in: at..<(at + 2)).withUnsafeBytes { $0.loadUnaligned(as: UInt16.self) } }
        var offset = 12
        var channels = 0, rate = 0.0, bits = 0
        while offset + 8 <= data.count {
            let id = String(decoding: data[offset..<(offset + 4)], as: UTF8.self)
            let size = Int(u32(offset + 4))
            if id == "fmt " {
                channels = Int(u16(offset + 10))
                rate = Double(u32(offset + 12))
                bits = Int(u16(offset + 22))
            } else if id == "data" {
                guard channels > 0, bits == 32 else { throw Malformed() }
                let frames = min(size, data.count - offset - 8) / (4 * channels)
                let samples = data.subdata(in: (offset + 8)..<(offset + 8 + frames * 4 * channels)).withUnsafeBytes { raw in
                    (0..<frames).map { raw.loadUnaligned(fromByteOffset: $0 * 4 * channels, as: Float.self) }
                }
                return (rate, samples)
            }
            offset += 8 + size + (size & 1)
        }
        throw Malformed()
    }
}
