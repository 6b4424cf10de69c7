import AUCore
import AUFiles
import Testing

@Suite struct LevelTests {
    private func measure(_ source: OwnedAudioBuffers, block: Int = 1024) throws -> AudioLevels {
        let meter = LevelMeter(channels: source.channelCount)
        try Signals.forEachBlock(of: source, size: block) { (view) throws(AudioUnitError) in meter.process(view) }
        return meter.levels()
    }

    /// A 1 kHz sine over whole periods (48 samples each, one on the crest): RMS is the peak
    /// less 3.01 dB, within 0.01 dB.
    @Test func sineRMSIsPeakLessThreeDecibels() throws {
        let levels = try measure(Signals.sine(frequency: 1000, sampleRate: 48000, frames: 48000, amplitude: 0.5))
        #expect(abs(levels.samplePeakDBFS - Decibels.fromAmplitude(0.5)) < 0.001)
        #expect(abs(levels.rmsDBFS - (levels.samplePeakDBFS - 3.0103)) < 0.01, "RMS \(levels.rmsDBFS), peak \(levels.samplePeakDBFS)")
        #expect(abs(levels.truePeakDBTP - levels.samplePeakDBFS) < 0.1, "a slow sine has no inter-sample peak to speak of")
        #expect(levels.clippingWarning == nil)
        #expect(levels.description == "peak -6.02 dBFS, RMS -9.03 dBFS, true peak \(Decibels.format(levels.truePeakDBTP)) dBTP")
    }

    /// A sine at fs/4 with a 45° phase has every sample at ±A/√2 while the waveform reaches
    /// ±A between them: the sample peak reads 3.01 dB low, the true peak sees the crest.
    @Test(arguments: [1, 100, 4096])
    func truePeakSeesInterSamplePeak(block: Int) throws {
        let amplitude = 0.5
        let source = Signals.sine(frequency: 12000, sampleRate: 48000, frames: 4800, amplitude: amplitude, phase: Double.pi / 4, fadeFrames: 480)
        let levels = try measure(source, block: block)
        #expect(abs(levels.samplePeakDBFS - Decibels.fromAmplitude(amplitude / 2.0.squareRoot())) < 0.001)
        #expect(levels.truePeakDBTP - levels.samplePeakDBFS > 2.5, "true peak \(levels.truePeakDBTP) dBTP vs sample peak \(levels.samplePeakDBFS) dBFS")
        #expect(abs(levels.truePeakDBTP - Decibels.fromAmplitude(amplitude)) < 0.3)
    }

    @Test func clippingPredicates() throws {
        let hot = try measure(Signals.sine(frequency: 12000, sampleRate: 48000, frames: 4800, amplitude: 1.2, phase: Double.pi / 4, fadeFrames: 480))
        #expect(!hot.isClipping, "samples are at 0.85")
        #expect(hot.exceedsTruePeak())
        #expect(hot.clippingWarning?.hasPrefix("possible inter-sample clipping") == true)

        let full = OwnedAudioBuffers(channels: 2, capacity: 10)
        full.buffers()[1][3] = -1
        let clipped = try measure(full)
        #expect(clipped.isClipping)
        #expect(clipped.channels[0].samplePeakDBFS == -.infinity)
        #expect(clipped.clippingWarning == "clipping: sample peak 0.00 dBFS reaches full scale")
    }

    @Test func silenceIsMinusInfinity() throws {
        let levels = try measure(OwnedAudioBuffers(channels: 1, capacity: 100))
        #expect(levels.rmsDBFS == -.infinity && levels.truePeakDBTP == -.infinity)
        #expect(levels.description == "peak -inf dBFS, RMS -inf dBFS, true peak -inf dBTP")
    }
}

@Suite struct TailDetectorTests {
    /// A 1 kHz sine decaying 60 dB per second from 0 dBFS falls below -90 dBFS at 1.5 s;
    /// with a 0.5 s window the tail ends at 2.0 s (within one period), whatever the block.
    @Test(arguments: [64, 4096])
    func endsAfterTheQuietWindow(block: Int) throws {
        let rate = 48000.0
        let source = Signals.sine(frequency: 1000, sampleRate: rate, frames: 3 * 48000, amplitude: 1, phase: Double.pi / 2)
        for frame in 0..<source.capacity {
            source.buffers()[0][frame] *= Float(Decibels.toAmplitude(-60 * Double(frame) / rate))
        }
        var detector = TailDetector(sampleRate: rate, thresholdDBFS: -90, windowSeconds: 0.5, capSeconds: 10)
        var kept = 0
        try Signals.forEachBlock(of: source, size: block) { (view) throws(AudioUnitError) in kept += detector.accept(view) }
        #expect(detector.isFinished && !detector.endedAtCap)
        #expect(abs(kept - 96000) <= 48, "tail of \(kept) frames")
        #expect(detector.tailFrames == kept)
    }

    @Test func stopsAtTheCap() throws {
        var detector = TailDetector(thresholdDBFS: -90, windowFrames: 100, capFrames: 1000)
        let loud = Signals.sine(frequency: 100, sampleRate: 48000, frames: 4800, amplitude: 0.5)
        #expect(loud.withView { detector.accept($0) } == 1000)
        #expect(detector.isFinished && detector.endedAtCap)
        #expect(loud.withView { detector.accept($0) } == 0)
    }
}
