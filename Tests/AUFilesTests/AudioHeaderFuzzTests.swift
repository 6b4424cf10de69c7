import AUCore
import AUFiles
import AUTestSupport
import Foundation
import Testing

/// A seeded mutation fuzzer over audio file headers: small valid WAV, AIFF, FLAC and CAF
/// files written with ``AudioFileWriter`` get their first 128 bytes mutated (and are
/// truncated), and each goes through ``AudioFileReader`` and is read to the end. Every variant
/// must fail to open, fail to read, or read; a trap ends the test run. A corrupt header may
/// claim billions of frames (FLAC's STREAMINFO does): `readAll` must not allocate them.
/// A few seconds by default; `AUHOST_FUZZ_ITERATIONS=N` runs N variants (and
/// `AUHOST_FUZZ_SEED` another seed).
@Suite struct AudioHeaderFuzzTests {
    /// Small valid files, one per container and sample format.
    static func corpus(in folder: TemporaryFolder) throws -> [(name: String, bytes: [UInt8])] {
        let encodings: [(String, AudioFileFormat, BitDepth)] = [
            ("wav", .wav, .int16), ("wav", .wav, .float32), ("aiff", .aiff, .int24),
            ("flac", .flac, .int16), ("caf", .caf, .float32), ("caf", .caf, .int16),
        ]
        return try encodings.enumerated().map { index, entry in
            let path = folder.file("original-\(index).\(entry.0)")
            let encoding = try AudioFileEncoding(format: entry.1, bitDepth: entry.2)
            try Signals.write(Signals.sine(frequency: 440, sampleRate: 48000, frames: 300, channels: 2), to: path, encoding: encoding)
            return (entry.0, [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        }
    }

    @Test func everyMutantOpensAndReadsOrIsAnAudioUnitError() throws {
        var (iterations, random, isLong) = Fuzz.settings(defaultIterations: 1_500, defaultSeed: 14)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let corpus = try Self.corpus(in: folder)
        var outcomes: [String: Int] = [:]
        var mostClaimed = 0
        for iteration in 0..<iterations {
            let original = corpus.randomElement(using: &random)!
            var bytes = original.bytes
            for _ in 0..<Int.random(in: 1...3, using: &random) { bytes = Fuzz.mutateBytes(bytes, within: 0..<128, using: &random) }
            let path = folder.file("variant-\(iteration % 8).\(original.name)")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let reader: AudioFileReader
            do {
                reader = try AudioFileReader(path: path)
            } catch {
                outcomes["open error: \(error.code)", default: 0] += 1
                continue
            }
            mostClaimed = max(mostClaimed, reader.info.frames)
            do {
                let all = try reader.readAll()
                #expect(all.channelCount == reader.info.channels)
                outcomes["read", default: 0] += 1
            } catch {
                outcomes["read error: \(error.code)", default: 0] += 1
            }
        }
        #expect(outcomes.values.reduce(0, +) == iterations)
        #expect(outcomes["read", default: 0] > 0)
        if isLong { print(Fuzz.report("audio header fuzz", iterations: iterations, outcomes) + "; most frames claimed \(mostClaimed)") }
    }

    /// The fuzzer's finding: a FLAC whose STREAMINFO claims about a billion frames opens
    /// (libsndfile believes it), and `readAll` reads what is there and reports the
    /// shortfall instead of allocating 8 GB per channel for the promise.
    @Test func aLyingFLACHeaderIsAReadErrorNotAHugeAllocation() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("lying.flac")
        try Signals.write(Signals.sine(frequency: 440, sampleRate: 48000, frames: 300, channels: 2), to: path, encoding: try AudioFileEncoding(format: .flac, bitDepth: .int16))
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // "fLaC", a block header, then STREAMINFO: the total sample count's low 32 bits are bytes 22...25.
        try #require(bytes.count > 26 && bytes[0..<4].elementsEqual("fLaC".utf8))
        bytes[22] = 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = try AudioFileReader(path: path)
        #expect(reader.info.frames > 1 << 30)
        let error = #expect(throws: AudioUnitError.self) { _ = try reader.readAll() }
        #expect(error?.message.contains("file ended after 300 frames") == true, "\(String(describing: error))")
    }
}
