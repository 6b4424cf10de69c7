import AUCore
@testable import AUFiles
import AUTestSupport
import Foundation
import Testing

/// Outputs past 4 GiB: WAV is written as RF64 (a plain WAV when it ends smaller), AIFF,
/// whose sizes are 32-bit, is refused before it starts; the decision is tested on sizes,
/// without writing gigabytes.
@Suite struct LargeOutputTests {
    @Test func wavIsWrittenAsRF64WithItsAutomaticDowngrade() throws {
        let wav = try AudioFileEncoding(format: .wav, bitDepth: .int24)
        #expect(wav.sndfileFormat & SndfileCode.typeMask == 0x22_0000, "SF_FORMAT_RF64")
    }

    @Test func aSmallWAVComesOutAPlainRIFFWave() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("small.wav")
        let writer = try AudioFileWriter(path: path, encoding: try AudioFileEncoding(format: .wav, bitDepth: .int16), sampleRate: 48_000, channels: 2)
        let block = OwnedAudioBuffers(channels: 2, capacity: 1000)
        try block.withView { try writer.write($0) }
        try writer.finish()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF")
        #expect(String(decoding: bytes[8..<12], as: UTF8.self) == "WAVE")
        let riffSize = bytes[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
        #expect(riffSize == bytes.count - 8, "the RIFF size is the file's")
        let info = try AudioFileReader(path: path, maxFramesPerRead: 16).info
        #expect(info.frames == 1000)
        #expect(info.containerName.contains("WAV"))
    }

    @Test func theSizeDecidesWhatAContainerHolds() throws {
        let hour192k8ch = 3600 * 192_000
        let wav = try AudioFileEncoding(format: .wav, bitDepth: .float32)
        let aiff = try AudioFileEncoding(format: .aiff, bitDepth: .float32)
        let bytes = wav.expectedBytes(frames: hour192k8ch, channels: 8)
        #expect(bytes > 4 << 30)
        #expect(wav.holds(bytes: bytes), "RF64 holds it")
        #expect(!aiff.holds(bytes: bytes), "AIFF's 32-bit sizes do not")
        #expect(aiff.holds(bytes: aiff.expectedBytes(frames: 48_000, channels: 2)))
        #expect(wav.expectedBytes(frames: .max, channels: 8) == .max, "no overflow")
    }
}
