import AUTestSupport
import Foundation
import Testing

/// The published textbook programs' patterns (Learning Core Audio, chapters 5–7), written in
/// this project's own words in Examples/Textbook*/main.c (the book's code has no licence to
/// copy; the originals were compiled and run unchanged but for their paths, docs/AUDIOTOOLBOX.md
/// lists them). Each is built with cc -Wall -Werror, its one path given as the book gives it
/// (`-DkInputFileLocation=CFSTR("…")`), and run with AUHOST_DEVICE=file:; the audio is
/// checked numerically. The input is two seconds of 330 Hz at 12 000/32 768 (0.366) in 16-bit
/// stereo WAV at 44.1 kHz.
@Suite struct TextbookProgramTests {
    static let toneFrequency = 330.0
    static let toneLevel = 12_000.0 / 32_768.0
    static let inputFrames = 88_200

    /// The input's samples (both channels the same).
    static func inputSample(_ frame: Int) -> Int16 { Int16(12_000 * sin(2 * Double.pi * toneFrequency * Double(frame) / 44_100)) }

    /// Writes the input WAV (16-bit little-endian stereo, 44.1 kHz) to `url`.
    static func writeInput(_ url: URL) throws {
        var data = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + inputFrames * 4)); data.append(contentsOf: Array("WAVEfmt ".utf8))
        u32(16); u16(1); u16(2); u32(44_100); u32(44_100 * 4); u16(4); u16(16)
        data.append(contentsOf: Array("data".utf8)); u32(UInt32(inputFrames * 4))
        for frame in 0..<inputFrames {
            let sample = UInt16(bitPattern: inputSample(frame))
            u16(sample); u16(sample)
        }
        try data.write(to: url)
    }

    /// Builds Examples/`name` with the input's path and runs it in `folder` to a WAV there.
    static func run(_ name: String, in folder: URL) throws -> (run: ChildProcess.Outcome, wav: URL) {
        let input = folder.appendingPathComponent("input.wav")
        try writeInput(input)
        let program = try PlaySequenceExampleTests.compileExample(name, into: folder, defines: ["kInputFileLocation=CFSTR(\"\(input.path)\")"])
        let wav = folder.appendingPathComponent("out.wav")
        let run = try ChildProcess.run(program, [], environment: ["AUHOST_DEVICE": "file:\(wav.path)"], directory: folder, timeout: 60)
        return (run, wav)
    }

    /// CH07_AUGraphSineWave's pattern: the default output unit alone, no format set (Apple's
    /// default, float non-interleaved stereo, is what the callback writes), the C library from
    /// the umbrella header alone. 880 Hz at 0.5 (Goertzel over 4096 frames, within 0.02) at
    /// 0.5 s and 1.5 s, nothing at 440 Hz (< 0.01); about two seconds played.
    @Test func theDefaultOutputPlaysACallbackInTheDefaultFormat() throws {
        let folder = try AudioToolboxBuild.scratchFolder("textbook-sine")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (run, wav) = try Self.run("TextbookSineWave", in: folder)
        #expect(run.status == 0 && run.output.contains("played for at least 2 s"), "\(run.output)\n\(run.errors)")
        let (rate, left) = try WAVSamples.readFirstChannel(wav)
        #expect(rate == 44_100)
        #expect(Double(left.count) / rate > 1.9)
        for start in [0.5, 1.5] {
            let first = Int(start * rate)
            try #require(first + 4096 <= left.count)
            let slice = Array(left[first..<(first + 4096)])
            #expect(abs(Goertzel.amplitude(of: 880, in: slice, sampleRate: rate) - 0.5) < 0.02)
            #expect(Goertzel.amplitude(of: 440, in: slice, sampleRate: rate) < 0.01)
        }
    }

    /// CH07_AUGraphPlayer's pattern: AUAudioFilePlayer → DefaultOutput in an AUGraph, the file
    /// from a CFSTR path. The file's tone at its level (within 0.02) at 0.5 s and 1.5 s of the
    /// file (its first sound is where the playing starts), at its pitch, the graph at the file
    /// device's rate (44.1 kHz: the program set no format).
    @Test func aFilePlayerInAGraphPlaysTheFile() throws {
        let folder = try AudioToolboxBuild.scratchFolder("textbook-fileplayer")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (run, wav) = try Self.run("TextbookFilePlayer", in: folder)
        #expect(run.status == 0 && run.output.contains("playing 2.00 s"), "\(run.output)\n\(run.errors)")
        let (rate, left) = try WAVSamples.readFirstChannel(wav)
        #expect(rate == 44_100, "a graph whose formats the program never set plays at the device's rate")
        let start = try #require(left.firstIndex { abs($0) > 1e-4 }, "the file is heard")
        for second in [0.5, 1.5] {
            let first = start + Int(second * rate)
            try #require(first + 4096 <= left.count, "the whole file played: \(left.count) frames from \(start)")
            let slice = Array(left[first..<(first + 4096)])
            #expect(abs(Goertzel.amplitude(of: Self.toneFrequency, in: slice, sampleRate: rate) - Self.toneLevel) < 0.02)
            #expect(Goertzel.amplitude(of: 2 * Self.toneFrequency, in: slice, sampleRate: rate) < 0.01)
        }
    }

    /// CH05_Player's pattern: the file read packet by packet into an output queue's buffers, the
    /// main thread in CFRunLoopRunInMode. The queue plays at the file's rate, so the output is
    /// the file's samples exactly (16-bit over 32 768, within 1e-6) from its first sound on,
    /// all 88 200 frames in order.
    @Test func anAudioQueuePlaysTheFileSampleForSample() throws {
        let folder = try AudioToolboxBuild.scratchFolder("textbook-queue")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (run, wav) = try Self.run("TextbookQueuePlayer", in: folder)
        #expect(run.status == 0 && run.output.contains("played 88200 packets"), "\(run.output)\n\(run.errors)")
        let (rate, left) = try WAVSamples.readFirstChannel(wav)
        #expect(rate == 44_100)
        // The input's frame 0 is 0: its first sound is frame 1.
        let first = try #require(left.firstIndex { $0 != 0 }, "the file is heard") - 1
        try #require(first >= 0 && first + Self.inputFrames <= left.count, "all of the file: \(left.count) frames from \(first)")
        var largest: Float = 0
        for frame in 0..<Self.inputFrames {
            largest = max(largest, abs(left[first + frame] - Float(Self.inputSample(frame)) / 32_768))
        }
        #expect(largest < 1e-6, "largest difference from the file: \(largest)")
    }

    /// CH06_AudioConverter's and CH06_ExtAudioFileConverter's patterns: the file turned into a
    /// 16-bit big-endian AIFF by an AudioConverter (AudioFileWritePackets given the packet
    /// count as its byte count, as the book's code does) and by an ExtAudioFile with that
    /// client format. Both AIFFs hold the input's 88 200 frames, every sample the same.
    @Test func theConvertersWriteTheFileAsBigEndianAIFF() throws {
        let folder = try AudioToolboxBuild.scratchFolder("textbook-converter")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (run, _) = try Self.run("TextbookConverter", in: folder)
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        #expect(run.output.contains("AudioConverter: 88200 packets") && run.output.contains("ExtAudioFile: 88200 packets"), "\(run.output)")
        for name in ["converter.aif", "extaudiofile.aif"] {
            let samples = try AIFFSamples.readInt16(folder.appendingPathComponent(name))
            #expect(samples.channels == 2, "\(name)")
            try #require(samples.interleaved.count == Self.inputFrames * 2, "\(name): \(samples.interleaved.count / 2) frames")
            let mismatched = (0..<Self.inputFrames).filter { samples.interleaved[2 * $0] != Self.inputSample($0) || samples.interleaved[2 * $0 + 1] != Self.inputSample($0) }
            #expect(mismatched.isEmpty, "\(name): \(mismatched.count) frames differ, the first \(mismatched.first ?? -1)")
        }
    }
}

/// Apple's PlaySoftMIDI pattern (Examples/TextbookSoftMIDI): DLSSynth → PeakLimiter →
/// DefaultOutput, notes sent with MusicDeviceMIDIEvent half a second apart on the program's
/// clock. In each note's stretch (from its nominal start, counted from where the first note
/// sounds, to a quarter second past its nominal end) a window of 8192 frames has its
/// fundamental over its semitone neighbours (more than 4×) and over the previous note's (more
/// than 2×).
@Suite struct TextbookSoftMIDITests {
    @Test func eachNotePlaysThroughTheLimiterInItsHalfSecond() throws {
        let folder = try AudioToolboxBuild.scratchFolder("textbook-softmidi")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (run, wav) = try TextbookProgramTests.run("TextbookSoftMIDI", in: folder)
        #expect(run.status == 0 && run.output.contains("note 72"), "\(run.output)\n\(run.errors)")
        #expect(run.output.contains("AUPeakLimiter"), "CAShow names the limiter: \(run.output)")
        let (rate, left) = try WAVSamples.readFirstChannel(wav)
        let onset = try #require(left.firstIndex { abs($0) > 1e-3 }, "the synth is heard")
        #expect(left.allSatisfy { abs($0) <= 1 }, "the limiter's ceiling")
        let keys = [60, 64, 67, 72]
        func frequency(_ key: Double) -> Double { 440 * pow(2, (key - 69) / 12) }
        // The notes follow the program's usleep clock, which a loaded machine stretches: each
        // note is looked for from its nominal start to a quarter second past its nominal end.
        for (index, key) in keys.enumerated() {
            let from = onset + Int(Double(index) * 0.5 * rate), to = min(left.count - 8192, onset + Int((Double(index) * 0.5 + 0.75) * rate))
            try #require(from <= to, "note \(key) is in the file")
            let heard = stride(from: from, through: to, by: 2048).contains { first in
                let slice = Array(left[first..<(first + 8192)])
                let fundamental = Goertzel.amplitude(of: frequency(Double(key)), in: slice, sampleRate: rate)
                let overNeighbours = [Double(key) - 1, Double(key) + 1].allSatisfy { fundamental > 4 * Goertzel.amplitude(of: frequency($0), in: slice, sampleRate: rate) }
                let overPrevious = index == 0 || fundamental > 2 * Goertzel.amplitude(of: frequency(Double(keys[index - 1])), in: slice, sampleRate: rate)
                return overNeighbours && overPrevious
            }
            #expect(heard, "note \(key): its fundamental over its neighbours and the note before")
        }
    }
}

/// A 16-bit AIFF's interleaved samples, read from its bytes (COMM and SSND chunks, big-endian).
enum AIFFSamples {
    struct Malformed: Error {}

    static func readInt16(_ url: URL) throws -> (channels: Int, interleaved: [Int16]) {
        let bytes = [UInt8](try Data(contentsOf: url))
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        var offset = 12
        var channels = 0, bits = 0
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let size = u32(offset + 4)
            if id == "COMM" {
                channels = Int(bytes[offset + 8]) << 8 | Int(bytes[offset + 9])
                bits = Int(bytes[offset + 14]) << 8 | Int(bytes[offset + 15])
            } else if id == "SSND" {
                guard bits == 16, channels > 0 else { throw Malformed() }
                let start = offset + 16 + u32(offset + 8)
                let end = min(offset + 8 + size, bytes.count)
                let samples = stride(from: start, to: end - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])) }
                return (channels, samples)
            }
            offset += 8 + size + (size & 1)
        }
        throw Malformed()
    }
}
