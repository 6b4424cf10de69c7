import AUCore
import AUFiles
import AUTestSupport
import Testing

@Suite struct RoundTripTests {
    /// Every lossless format and bit depth: the samples come back within half a step of
    /// the encoding (16-bit: 0.5/32768, 24-bit: 0.5/8388608) and float exactly; full scale
    /// and beyond clamp to the largest code.
    @Test(arguments: [
        (AudioFileFormat.wav, BitDepth.int16), (.wav, .int24), (.wav, .float32),
        (.aiff, .int16), (.aiff, .int24), (.aiff, .float32),
        (.caf, .int16), (.caf, .int24), (.caf, .float32),
        (.flac, .int16), (.flac, .int24),
    ])
    func losslessRoundTrip(format: AudioFileFormat, depth: BitDepth) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("take.\(format.fileExtension)")
        let frames = 12_345
        let source = Signals.noise(frames: frames, channels: 2, amplitude: 0.99)
        try Signals.write(source, to: path, encoding: AudioFileEncoding(format: format, bitDepth: depth), sampleRate: 44100, block: 1000)

        let reader = try AudioFileReader(path: path, maxFramesPerRead: 777)
        #expect(reader.info.sampleRate == 44100)
        #expect(reader.info.channels == 2)
        #expect(reader.info.frames == frames)
        #expect(reader.info.format == format)
        let back = try reader.readAll()
        let tolerance: Float = switch depth {
        case .int16: 0.5 / 32768
        case .int24: 0.5 / 8_388_608
        case .float32: 0
        }
        var worst: Float = 0
        for channel in 0..<2 {
            for (a, b) in zip(source.buffers()[channel], back.buffers()[channel]) { worst = max(worst, abs(a - b)) }
        }
        #expect(worst <= tolerance, "largest error \(worst) exceeds \(tolerance) for \(format) \(depth)")
        #expect(try reader.read(into: back.buffers(frameCount: 10)) == 0, "reading past the end gives 0 frames")
    }

    @Test(arguments: [BitDepth.int16, .int24])
    func integerFullScaleClampsAndCounts(depth: BitDepth) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("loud.wav")
        let source = OwnedAudioBuffers(channels: 1, capacity: 4)
        let values: [Float] = [1.0, 1.5, -1.0, -2.0]
        for (index, value) in values.enumerated() { source.buffers()[0][index] = value }
        let writer = try AudioFileWriter(path: path, encoding: AudioFileEncoding(format: .wav, bitDepth: depth), sampleRate: 48000, channels: 1)
        try source.withView { try writer.write($0) }
        try writer.finish()
        #expect(writer.clippedSampleCount == 3, "1.0 and 1.5 clamp to the largest code, -2 to -1; -1.0 is exact")
        let back = try AudioFileReader(path: path).readAll()
        let step: Float = depth == .int16 ? 1 / 32768 : 1 / 8_388_608
        #expect(Array(back.buffers()[0]) == [1 - step, 1 - step, -1, -1])
    }

    /// Ogg Vorbis is lossy: compare levels and correlation, never samples.
    @Test func oggVorbisKeepsLevelAndShape() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("take.ogg")
        let frames = 48000
        let source = Signals.sine(frequency: 440, sampleRate: 48000, frames: frames, channels: 2, amplitude: 0.5)
        try Signals.write(source, to: path, encoding: AudioFileEncoding(format: .ogg), block: 4096)

        let reader = try AudioFileReader(path: path)
        #expect(reader.info.format == .ogg)
        #expect(reader.info.encodingName.contains("Vorbis"))
        #expect(reader.info.frames == frames)
        let back = try reader.readAll()
        for channel in 0..<2 {
            let original = Signals.array(source, channel: channel)[4800..<43200]
            let decoded = Signals.array(back, channel: channel)[4800..<43200]
            let levelDifference = Decibels.fromAmplitude(Analysis.rms(decoded)) - Decibels.fromAmplitude(Analysis.rms(original))
            #expect(abs(levelDifference) < 0.2, "RMS differs by \(levelDifference) dB")
            #expect(Analysis.correlation(original, decoded) > 0.999)
        }
    }

    /// Reading in blocks of any size gives the same samples as one read, and the frames
    /// after the end of a short read are zeroed; extra buffer channels are zeroed.
    @Test(arguments: [1, 17, 64, 4096])
    func blockReadsMatchWholeRead(block: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("blocks.flac")
        let source = Signals.noise(frames: 5000, channels: 2, seed: 7)
        try Signals.write(source, to: path, encoding: AudioFileEncoding(format: .flac, bitDepth: .int16))
        let whole = try AudioFileReader(path: path).readAll()

        let reader = try AudioFileReader(path: path, maxFramesPerRead: 64)
        let scratch = OwnedAudioBuffers(channels: 3, capacity: block)
        scratch.buffers()[2].update(repeating: 9)
        var collected: [[Float]] = [[], []]
        while true {
            let view = scratch.buffers()
            let got = try reader.read(into: view)
            for channel in 0..<2 { collected[channel] += view[channel][0..<got] }
            #expect(view[2].allSatisfy { $0 == 0 })
            if got < block {
                #expect(view[0][got...].allSatisfy { $0 == 0 })
                break
            }
        }
        #expect(collected[0] == Signals.array(whole, channel: 0))
        #expect(collected[1] == Signals.array(whole, channel: 1))

        try reader.seek(toFrame: 4990)
        #expect(try reader.read(into: scratch.buffers(frameCount: min(block, 100))) == min(block, 10))
    }
}
