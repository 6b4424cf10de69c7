import AudioToolbox
import Foundation
import Testing

/// Apple's filter effects through the C API (a callback's sine → the filter → GenericOutput,
/// pulled with AudioUnitRender): each one's gain, measured at steady state (Goertzel over the
/// last 16 384 of 32 768 frames), is its design's at the points that define it: a low- or
/// high-pass passes its band (0 ± 0.2 dB), gives its resonance at the cutoff (± 0.3 dB) and
/// cuts a decade away by more than 30 dB; a band-pass is 0 dB at its center and −3 dB (± 0.5)
/// an octave's band apart; a shelf gives half its gain at its cutoff (± 0.3 dB) and none far
/// away (± 0.3 dB); a parametric EQ gives its gain at its center (± 0.2 dB).
@Suite struct AppleFilterTests {
    final class Tone {
        var frequency = 1000.0
        var rate = 44_100.0
        var frame = 0
    }

    static let callback: AURenderCallback = { refCon, _, _, _, frames, data in
        let tone = Unmanaged<Tone>.fromOpaque(refCon!).takeUnretainedValue()
        for frame in 0..<Int(frames) {
            let sample = Float(0.25 * sin(2 * Double.pi * tone.frequency * Double(tone.frame + frame) / tone.rate))
            for buffer in UnsafeMutableAudioBufferListPointer(data!) { buffer.mData!.assumingMemoryBound(to: Float.self)[frame] = sample }
        }
        tone.frame += Int(frames)
        return noErr
    }

    /// The filter's gain in dB at `frequency` with `parameters` (ID → value).
    static func gain(_ subtype: OSType, _ parameters: [AudioUnitParameterID: Float], at frequency: Double) throws -> Double {
        let (graph, node, filter, output) = OneUnitGraph.make(kAudioUnitType_Effect, subtype)
        defer { DisposeAUGraph(graph!) }
        let tone = Tone()
        tone.frequency = frequency
        var callback = AURenderCallbackStruct(inputProc: Self.callback, inputProcRefCon: Unmanaged.passUnretained(tone).toOpaque())
        return try withExtendedLifetime(tone) {
            #expect(AUGraphSetNodeInputCallback(graph, node, 0, &callback) == noErr)
            #expect(AUGraphInitialize(graph) == noErr)
            var rate = 0.0
            var size = UInt32(8)
            #expect(AudioUnitGetProperty(filter, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &rate, &size) == noErr)
            tone.rate = rate
            for (id, value) in parameters { #expect(AudioUnitSetParameter(filter, id, kAudioUnitScope_Global, 0, value, 0) == noErr) }
            let samples = SequenceRenderTests.render(try #require(output), frames: 32_768)
            try #require(samples.count == 32_768)
            let amplitude = Goertzel.amplitude(of: frequency, in: Array(samples[16_384...]), sampleRate: rate)
            return 20 * log10(amplitude / 0.25)
        }
    }

    @Test func eachFilterHasItsDesignedGain() throws {
        let lowPass = kAudioUnitSubType_LowPassFilter, highPass = kAudioUnitSubType_HighPassFilter
        #expect(abs(try Self.gain(lowPass, [0: 1000, 1: 0], at: 100)) < 0.2)
        #expect(abs(try Self.gain(lowPass, [0: 1000, 1: 0], at: 1000)) < 0.3)
        #expect(abs(try Self.gain(lowPass, [0: 1000, 1: 6], at: 1000) - 6) < 0.3)
        #expect(try Self.gain(lowPass, [0: 1000, 1: 0], at: 10_000) < -30)
        #expect(abs(try Self.gain(highPass, [0: 1000, 1: 0], at: 10_000)) < 0.2)
        #expect(abs(try Self.gain(highPass, [0: 1000, 1: 0], at: 1000)) < 0.3)
        #expect(try Self.gain(highPass, [0: 1000, 1: 0], at: 100) < -30)
        let bandPass = kAudioUnitSubType_BandPassFilter
        #expect(abs(try Self.gain(bandPass, [0: 1000, 1: 1200], at: 1000)) < 0.2)
        #expect(abs(try Self.gain(bandPass, [0: 1000, 1: 1200], at: 1000 * sqrt(2)) + 3) < 0.5)
        #expect(abs(try Self.gain(bandPass, [0: 1000, 1: 1200], at: 1000 / sqrt(2)) + 3) < 0.5)
        #expect(abs(try Self.gain(kAudioUnitSubType_LowShelfFilter, [0: 200, 1: 12], at: 200) - 6) < 0.3)
        #expect(abs(try Self.gain(kAudioUnitSubType_LowShelfFilter, [0: 200, 1: 12], at: 8000)) < 0.3)
        #expect(abs(try Self.gain(kAudioUnitSubType_HighShelfFilter, [0: 10_000, 1: -12], at: 10_000) + 6) < 0.3)
        #expect(abs(try Self.gain(kAudioUnitSubType_HighShelfFilter, [0: 10_000, 1: -12], at: 500)) < 0.3)
        #expect(abs(try Self.gain(kAudioUnitSubType_ParametricEQ, [0: 1000, 1: 2, 2: 9], at: 1000) - 9) < 0.2)
        #expect(abs(try Self.gain(kAudioUnitSubType_ParametricEQ, [0: 1000, 1: 2, 2: 9], at: 100)) < 0.3)
    }

    @Test func parametersHaveApplesIDsAndRefuseValuesOutOfRange() throws {
        let (graph, _, filter, _) = OneUnitGraph.make(kAudioUnitType_Effect, kAudioUnitSubType_ParametricEQ)
        defer { DisposeAUGraph(graph!) }
        var ids = [AudioUnitParameterID](repeating: 99, count: 3)
        var size = UInt32(12)
        #expect(AudioUnitGetProperty(filter, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &ids, &size) == noErr && ids == [0, 1, 2])
        var info = AudioUnitParameterInfo()
        size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        #expect(AudioUnitGetProperty(filter, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, 2, &info, &size) == noErr)
        #expect(info.unit == kAudioUnitParameterUnit_Decibels)
        #expect(AudioUnitSetParameter(filter, 2, kAudioUnitScope_Global, 0, 40, 0) == kAudioUnitErr_InvalidParameterValue)
    }
}
