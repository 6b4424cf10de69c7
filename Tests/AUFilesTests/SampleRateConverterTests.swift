import AUCore
import AUFiles
import Testing

@Suite struct SampleRateConverterTests {
    /// Converts all of `source` in blocks of `block` frames.
    private func convert(
        _ source: OwnedAudioBuffers, from inputRate: Double, to outputRate: Double, block: Int,
        quality: SampleRateQuality = .best
    ) throws -> [[Float]] {
        let converter = try SampleRateConverter(
            channels: source.channelCount, inputRate: inputRate, outputRate: outputRate, quality: quality, maxInputFrames: min(block, 4096))
        let collector = Signals.Collector(channels: source.channelCount)
        try Signals.forEachBlock(of: source, size: block) { (view) throws(AudioUnitError) in
            try converter.process(view) { collector.append($0) }
        }
        try converter.finish { collector.append($0) }
        #expect(converter.outputFrames == collector.channels[0].count)
        return collector.channels
    }

    /// 44.1 → 48 kHz keeps a 1 kHz sine at 1 kHz (zero crossings), keeps its level, and
    /// gives exactly round(44100 × 48000/44100) = 48000 frames, for any block size.
    @Test(arguments: [17, 512, 4096, 10000])
    func upsamplingKeepsFrequencyLevelAndLength(block: Int) throws {
        let source = Signals.sine(frequency: 1000, sampleRate: 44100, frames: 44100, channels: 2, amplitude: 0.5)
        let output = try convert(source, from: 44100, to: 48000, block: block)
        for channel in 0..<2 {
            #expect(output[channel].count == 48000)
            let frequency = Analysis.frequency(output[channel], sampleRate: 48000, range: 2400..<45600)
            #expect(abs(frequency - 1000) < 0.01, "measured \(frequency) Hz")
            let level = Decibels.fromAmplitude(Analysis.rms(output[channel][2400..<45600]))
            #expect(abs(level - Decibels.fromAmplitude(0.5 / 2.0.squareRoot())) < 0.01, "RMS \(level) dBFS")
        }
    }

    @Test func blockSizeDoesNotChangeTheSamples() throws {
        let source = Signals.noise(frames: 20000, channels: 1, amplitude: 0.5, seed: 3)
        let small = try convert(source, from: 48000, to: 44100, block: 17, quality: .medium)
        let large = try convert(source, from: 48000, to: 44100, block: 4096, quality: .medium)
        #expect(small[0].count == 18375)
        #expect(zip(small[0], large[0]).allSatisfy { abs($0 - $1) < 1e-6 })
    }

    /// libsamplerate's sinc converters are delay-compensated: an impulse at input frame
    /// 4410 comes out at round(4410 × 48000 / 44100) = 4800.
    @Test(arguments: [SampleRateQuality.best, .medium])
    func timingIsAligned(quality: SampleRateQuality) throws {
        let source = OwnedAudioBuffers(channels: 1, capacity: 8820)
        source.buffers()[0][4410] = 1
        let output = try convert(source, from: 44100, to: 48000, block: 1000, quality: quality)
        let peak = output[0].indices.max { abs(output[0][$0]) < abs(output[0][$1]) }
        #expect(peak == 4800)
        #expect(output[0].count == 9600)
    }

    @Test(arguments: [(1001, 44100.0, 48000.0, 1090), (1, 48000.0, 44100.0, 1), (12345, 96000.0, 44100.0, 5671)])
    func lengthIsRoundedProduct(frames: Int, from: Double, to: Double, expected: Int) throws {
        let output = try convert(Signals.noise(frames: frames, channels: 2), from: from, to: to, block: 256)
        #expect(output[0].count == expected)
        #expect(output[1].count == expected)
    }

    @Test func equalRatesPassThrough() throws {
        let source = Signals.noise(frames: 3000, channels: 2)
        let output = try convert(source, from: 48000, to: 48000, block: 700)
        #expect(output[0] == Signals.array(source, channel: 0))
    }

    @Test func impossibleRatioIsAClearError() {
        let error = #expect(throws: AudioUnitError.self) {
            _ = try SampleRateConverter(channels: 1, inputRate: 1000, outputRate: 768_000)
        }
        #expect(error?.message == "cannot convert 1000.0 Hz to 768000.0 Hz; expected positive rates at most 256 times apart")
    }
}

@Suite struct ChannelMapperTests {
    private func map(_ input: [[Float]], to outputs: Int) -> [[Float]] {
        let frames = input[0].count
        let source = OwnedAudioBuffers(channels: input.count, capacity: frames)
        for (channel, samples) in input.enumerated() { _ = source.buffers()[channel].update(fromContentsOf: samples) }
        let target = OwnedAudioBuffers(channels: outputs, capacity: frames)
        source.withView { input in target.withView { ChannelMapper(from: input.channelCount, to: outputs).map(input, into: $0) } }
        return (0..<outputs).map { Signals.array(target, channel: $0) }
    }

    @Test func monoToStereoDuplicates() {
        #expect(map([[0.5, -0.25]], to: 2) == [[0.5, -0.25], [0.5, -0.25]])
    }

    @Test func stereoToMonoAverages() {
        #expect(map([[1, 0.5], [0, -0.5]], to: 1) == [[0.5, 0]])
    }

    @Test func generalRules() {
        #expect(map([[1], [2]], to: 4) == [[1], [2], [1], [2]])
        #expect(map([[1], [2], [3], [4]], to: 2) == [[2], [3]])
        #expect(map([[1], [2], [3]], to: 2) == [[2], [2]])
        #expect(map([[1], [2], [3]], to: 3) == [[1], [2], [3]])
        #expect(ChannelMapper(from: 2, to: 1).description == "stereo → mono: average")
    }
}
