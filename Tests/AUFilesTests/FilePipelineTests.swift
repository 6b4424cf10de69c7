import AUCore
import AUFiles
import AUTestSupport
import Foundation
import Testing

/// The two ends the offline driver uses: a file pulled as chain blocks, and chain blocks
/// pushed into a file.
@Suite struct FilePipelineTests {
    /// A 44.1 kHz mono file pulled by a 48 kHz stereo chain in blocks of 64: exactly
    /// round(44100 × 48/44.1) = 48000 frames, both channels the same 1 kHz sine.
    @Test func inputConvertsRateChannelsAndBlocks() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("mono.wav")
        let source = Signals.sine(frequency: 1000, sampleRate: 44100, frames: 44100, amplitude: 0.5)
        try Signals.write(source, to: path, encoding: AudioFileEncoding(format: .wav, bitDepth: .float32), sampleRate: 44100)

        let input = try AudioFileInput(path: path, sampleRate: 48000, channels: 2, blockSize: 64)
        #expect(input.totalFrames == 48000)
        let block = OwnedAudioBuffers(channels: 2, capacity: 64)
        var collected: [[Float]] = [[], []]
        var shortBlocks = 0
        while true {
            let got = try block.withView { try input.read(into: $0) }
            if got == 0 { break }
            if got < 64 { shortBlocks += 1 }
            for channel in 0..<2 { collected[channel] += block.buffers()[channel][0..<got] }
        }
        #expect(shortBlocks == 0, "48000 = 750 × 64: no block is short before the empty read")
        #expect(collected[0].count == 48000 && input.position == 48000)
        #expect(collected[0] == collected[1])
        let frequency = Analysis.frequency(collected[0], sampleRate: 48000, range: 2400..<45600)
        #expect(abs(frequency - 1000) < 0.01)
    }

    /// A 48 kHz stereo chain written to a 44.1 kHz mono FLAC: the length is exact, the
    /// channels are averaged, and the returned levels are those of the file.
    @Test func outputConvertsAndMeasures() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("out.flac")
        let output = try AudioFileOutput(
            path: path, encoding: AudioFileEncoding(format: .flac, bitDepth: .int24), fileSampleRate: 44100, fileChannels: 1,
            chainSampleRate: 48000, chainChannels: 2, blockSize: 100)
        let chain = Signals.sine(frequency: 1000, sampleRate: 48000, frames: 48000, channels: 2, amplitude: 0.5, fadeFrames: 480)
        try Signals.forEachBlock(of: chain, size: 100) { (view) throws(AudioUnitError) in try output.write(view) }
        #expect(!FileManager.default.fileExists(atPath: path), "nothing at the destination before finish")
        let levels = try output.finish()

        let reader = try AudioFileReader(path: path)
        #expect(reader.info.frames == 44100 && reader.info.channels == 1 && reader.info.sampleRate == 44100)
        let back = try reader.readAll()
        let meter = LevelMeter(channels: 1)
        back.withView { meter.process($0) }
        let fileLevels = meter.levels()
        #expect(abs(levels.rmsDBFS - fileLevels.rmsDBFS) < 0.001)
        #expect(abs(levels.samplePeakDBFS - fileLevels.samplePeakDBFS) < 0.001)
        // The two channels are 0.5 rad apart: their average has amplitude 0.5·cos(0.25); the
        // two 480-frame raised-cosine fades keep 3/8 of their power: 1 - 600/48000 overall.
        let expected = Decibels.fromAmplitude(0.5 * cos(0.25) / 2.0.squareRoot()) + 10 * log10(1 - 600.0 / 48000)
        #expect(abs(fileLevels.rmsDBFS - expected) < 0.01, "RMS \(fileLevels.rmsDBFS) dBFS, expected \(expected)")
    }

    @Test func inputErrorsNameTheFile() {
        let error = #expect(throws: AudioUnitError.self) {
            _ = try AudioFileInput(path: "/nonexistent-\(getpid()).wav", sampleRate: 48000, channels: 2, blockSize: 64)
        }
        #expect(error?.message.hasPrefix("/nonexistent-") == true)
    }
}
