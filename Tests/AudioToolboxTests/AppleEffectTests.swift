import AudioToolbox
import Foundation
import Testing

/// AUDelay, AUReverb2, AUDynamicsProcessor and AUNBandEQ through the C API (a callback's
/// signal → the effect → GenericOutput, pulled with AudioUnitRender), each measured against
/// what its parameters say:
/// - AUDelay, all wet, 0.1 s, feedback 50 %: silence until the delay's frame exactly, then
///   echoes one delay apart whose sums (the low-pass passes DC whole) are 1, 0.5, 0.25
///   (± 1e-3); a mix of 50 % passes the input at cos(π/4) (± 1e-4), of 0 % unchanged.
/// - AUReverb2, all wet: the decay time measured from an impulse (Schroeder's backward
///   integral, −5 to −25 dB, times 3) is the decay time set (± 10 %) at 0.5 s and 1.5 s; all
///   dry with a gain of +6.02 dB doubles the input (± 1e-4).
/// - AUDynamicsProcessor: a 1 kHz sine at −6 dBFS over a threshold of −20 dB with 10 dB of head
///   room comes out at T + H·tanh((L − T)/H) (± 0.3 dB) and the CompressionAmount meter says the
///   gain taken away (± 0.3 dB); a sine at −40 dBFS passes at 0 dB (± 0.1), +6 dB with an overall gain of 6.
/// - AUNBandEQ: a parametric band's gain at its frequency (± 0.2 dB) and none a decade away
///   (± 0.3), a Butterworth low-pass band's −3.01 dB at its cutoff (± 0.3), the global gain
///   alone (± 0.05 dB); bands past NumberOfBands do not sound; NumberOfBands and
///   MaxNumberOfBands as Apple defines them.
@Suite struct AppleEffectTests {
    /// The signal a render callback plays: `sample(frame)` on every channel.
    final class Source {
        let sample: (Int) -> Float
        var frame = 0
        init(_ sample: @escaping (Int) -> Float) { self.sample = sample }
    }

    static let callback: AURenderCallback = { refCon, _, _, _, frames, data in
        let source = Unmanaged<Source>.fromOpaque(refCon!).takeUnretainedValue()
        for frame in 0..<Int(frames) {
            let sample = source.sample(source.frame + frame)
            for buffer in UnsafeMutableAudioBufferListPointer(data!) { buffer.mData!.assumingMemoryBound(to: Float.self)[frame] = sample }
        }
        source.frame += Int(frames)
        return noErr
    }

    /// What ``render(_:_:frames:before:after:signal:)`` measured: the left channel and the rate.
    struct Rendered {
        var samples: [Float]
        var rate: Double
    }

    /// Renders `frames` of Apple's effect `subtype` playing `signal(rate)`, with `parameters`
    /// set once initialized; `before` runs on the effect before initialization, `after` after the render.
    static func render(
        _ subtype: OSType, _ parameters: [AudioUnitParameterID: Float], frames: Int,
        before: (AudioUnit) -> Void = { _ in }, after: (AudioUnit) -> Void = { _ in }, signal: (Double) -> (Int) -> Float
    ) throws -> Rendered {
        let (graph, node, effect, output) = OneUnitGraph.make(kAudioUnitType_Effect, subtype)
        defer { DisposeAUGraph(graph!) }
        let unit = try #require(effect), outputUnit = try #require(output)
        before(unit)
        var rate = 0.0
        var size = UInt32(8)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &rate, &size) == noErr)
        let source = Source(signal(rate))
        var callback = AURenderCallbackStruct(inputProc: Self.callback, inputProcRefCon: Unmanaged.passUnretained(source).toOpaque())
        return try withExtendedLifetime(source) {
            #expect(AUGraphSetNodeInputCallback(graph, node, 0, &callback) == noErr)
            #expect(AUGraphInitialize(graph) == noErr)
            for (id, value) in parameters { #expect(AudioUnitSetParameter(unit, id, kAudioUnitScope_Global, 0, value, 0) == noErr, "parameter \(id) = \(value)") }
            let samples = SequenceRenderTests.render(outputUnit, frames: frames)
            try #require(samples.count >= frames)
            after(unit)
            return Rendered(samples: Array(samples.prefix(frames)), rate: rate)
        }
    }

    static func impulse(_: Double) -> (Int) -> Float { { $0 == 0 ? 1 : 0 } }

    static func sine(_ frequency: Double, amplitude: Float) -> (Double) -> (Int) -> Float {
        { rate in { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / rate)) } }
    }

    /// The gain in dB at `frequency` of a steady sine of `amplitude`, over the second half of `frames`.
    static func gain(_ rendered: Rendered, at frequency: Double, amplitude: Double) throws -> Double {
        let half = rendered.samples.count / 2
        let amplitudeOut = Goertzel.amplitude(of: frequency, in: Array(rendered.samples[half...]), sampleRate: rendered.rate)
        return 20 * log10(amplitudeOut / amplitude)
    }

    @Test func theDelayEchoesAtItsTimeAndItsFeedbackHalvesEachEcho() throws {
        let wet = try Self.render(kAudioUnitSubType_Delay, [kDelayParam_WetDryMix: 100, kDelayParam_DelayTime: 0.1, kDelayParam_Feedback: 50,
                                                            kDelayParam_LopassCutoff: 22_050], frames: 32_768, signal: Self.impulse)
        let delay = Int((0.1 * wet.rate).rounded())
        try #require(wet.samples.count > 4 * delay)
        #expect(wet.samples[..<delay].allSatisfy { abs($0) < 1e-6 }, "nothing before the echo")
        #expect(wet.samples.firstIndex { abs($0) > 0.1 } == delay, "the first echo at frame \(delay)")
        for (echo, expected) in [(1, 1.0), (2, 0.5), (3, 0.25)] {
            let sum = wet.samples[(echo * delay)..<((echo + 1) * delay)].reduce(0.0) { $0 + Double($1) }
            #expect(abs(sum - expected) < 1e-3, "echo \(echo) sums to \(sum), expected \(expected)")
        }
        let half = try Self.render(kAudioUnitSubType_Delay, [kDelayParam_WetDryMix: 50], frames: 1024, signal: Self.impulse)
        #expect(abs(try #require(half.samples.first) - Float(cos(Double.pi / 4))) < 1e-4)
        let dry = try Self.render(kAudioUnitSubType_Delay, [kDelayParam_WetDryMix: 0], frames: 4096, signal: Self.sine(440, amplitude: 0.5))
        let expected = (0..<4096).map { Self.sine(440, amplitude: 0.5)(dry.rate)($0) }
        #expect(dry.samples == expected, "all dry passes the input unchanged")
    }

    /// The decay time of `samples`: Schroeder's backward integral from −5 to −25 dB, times 3.
    static func decayTime(_ samples: [Float], rate: Double) -> Double? {
        var remaining = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        let total = remaining
        var start: Int?
        for (index, sample) in samples.enumerated() {
            let level = 10 * log10(max(remaining, 1e-300) / total)
            if start == nil, level <= -5 { start = index }
            if let start, level <= -25 { return 3 * Double(index - start) / rate }
            remaining -= Double(sample) * Double(sample)
        }
        return nil
    }

    @Test(arguments: [Float(0.5), 1.5])
    func theReverbDecaysInTheTimeSet(_ decay: Float) throws {
        let rendered = try Self.render(kAudioUnitSubType_Reverb2, [kReverb2Param_DryWetMix: 100, kReverb2Param_DecayTimeAt0Hz: decay,
                                                                   kReverb2Param_DecayTimeAtNyquist: decay], frames: 4 * 44_100, signal: Self.impulse)
        let measured = try #require(Self.decayTime(rendered.samples, rate: rendered.rate), "the response never fell 25 dB")
        #expect(abs(measured - Double(decay)) < 0.1 * Double(decay), "decays in \(measured) s, set \(decay) s")
    }

    @Test func theReverbAllDryIsTheInputTimesItsGain() throws {
        let rendered = try Self.render(kAudioUnitSubType_Reverb2, [kReverb2Param_DryWetMix: 0, kReverb2Param_Gain: 6.0206], frames: 4096,
                                       signal: Self.sine(440, amplitude: 0.25))
        let expected = (0..<4096).map { 2 * Self.sine(440, amplitude: 0.25)(rendered.rate)($0) }
        #expect(zip(rendered.samples, expected).allSatisfy { abs($0 - $1) < 1e-4 })
    }

    @Test func theDynamicsProcessorCompressesToItsCurveAndMetersIt() throws {
        let threshold: Double = -20, headRoom: Double = 10, level = 20 * log10(0.5)
        let expected = threshold + headRoom * tanh((level - threshold) / headRoom) - level
        var compression: AudioUnitParameterValue = 0
        let loud = try Self.render(kAudioUnitSubType_DynamicsProcessor, [kDynamicsProcessorParam_Threshold: Float(threshold),
                                   kDynamicsProcessorParam_HeadRoom: Float(headRoom), kDynamicsProcessorParam_ReleaseTime: 3],
                                   frames: 44_032, after: { unit in
            #expect(AudioUnitGetParameter(unit, kDynamicsProcessorParam_CompressionAmount, kAudioUnitScope_Global, 0, &compression) == noErr)
        }, signal: Self.sine(1000, amplitude: 0.5))
        let gain = try Self.gain(loud, at: 1000, amplitude: 0.5)
        #expect(abs(gain - expected) < 0.3, "a sine at \(level) dBFS comes out \(gain) dB, expected \(expected) dB")
        #expect(abs(Double(compression) - expected) < 0.3, "CompressionAmount \(compression) dB, expected \(expected) dB")
        let quiet = try Self.render(kAudioUnitSubType_DynamicsProcessor, [:], frames: 44_032, signal: Self.sine(1000, amplitude: 0.01))
        #expect(abs(try Self.gain(quiet, at: 1000, amplitude: 0.01)) < 0.1, "under the threshold the gain is 0 dB")
        let lifted = try Self.render(kAudioUnitSubType_DynamicsProcessor, [kDynamicsProcessorParam_OverallGain: 6], frames: 44_032,
                                     signal: Self.sine(1000, amplitude: 0.01))
        #expect(abs(try Self.gain(lifted, at: 1000, amplitude: 0.01) - 6) < 0.1)
    }

    /// The gain in dB of AUNBandEQ at `frequency` with `parameters`, `bands` bands (nil: as made).
    static func equalizerGain(_ parameters: [AudioUnitParameterID: Float], at frequency: Double, bands: UInt32? = nil) throws -> Double {
        let rendered = try Self.render(kAudioUnitSubType_NBandEQ, parameters, frames: 32_768, before: { unit in
            guard var bands else { return }
            #expect(AudioUnitSetProperty(unit, kAUNBandEQProperty_NumberOfBands, kAudioUnitScope_Global, 0, &bands, 4) == noErr)
        }, signal: Self.sine(frequency, amplitude: 0.25))
        return try Self.gain(rendered, at: frequency, amplitude: 0.25)
    }

    @Test func theNBandEQsBandsHaveTheirDesignedGain() throws {
        let parametric: [AudioUnitParameterID: Float] = [kAUNBandEQParam_BypassBand: 0, kAUNBandEQParam_FilterType: Float(kAUNBandEQFilterType_Parametric),
                                                         kAUNBandEQParam_Frequency: 1000, kAUNBandEQParam_Gain: 9, kAUNBandEQParam_Bandwidth: 1]
        #expect(abs(try Self.equalizerGain(parametric, at: 1000) - 9) < 0.2)
        #expect(abs(try Self.equalizerGain(parametric, at: 100)) < 0.3)
        let lowPass: [AudioUnitParameterID: Float] = [kAUNBandEQParam_BypassBand + 5: 0, kAUNBandEQParam_Frequency + 5: 2000,
                                                      kAUNBandEQParam_FilterType + 5: Float(kAUNBandEQFilterType_2ndOrderButterworthLowPass)]
        #expect(abs(try Self.equalizerGain(lowPass, at: 2000) + 3.01) < 0.3)
        #expect(abs(try Self.equalizerGain(lowPass, at: 200)) < 0.2)
        #expect(abs(try Self.equalizerGain([kAUNBandEQParam_GlobalGain: -6], at: 1000) + 6) < 0.05)
        #expect(abs(try Self.equalizerGain(lowPass, at: 2000, bands: 5)) < 0.05, "band 5 does not run when there are 5 bands")
    }

    @Test func theNBandEQsBandCountIsSetBeforeInitialization() throws {
        let (graph, _, effect, _) = OneUnitGraph.make(kAudioUnitType_Effect, kAudioUnitSubType_NBandEQ)
        defer { DisposeAUGraph(graph!) }
        let unit = try #require(effect)
        var count: UInt32 = 0, size = UInt32(4)
        #expect(AudioUnitGetProperty(unit, kAUNBandEQProperty_MaxNumberOfBands, kAudioUnitScope_Global, 0, &count, &size) == noErr && count == 16)
        #expect(AudioUnitGetProperty(unit, kAUNBandEQProperty_NumberOfBands, kAudioUnitScope_Global, 0, &count, &size) == noErr && count == 16)
        count = 17
        #expect(AudioUnitSetProperty(unit, kAUNBandEQProperty_NumberOfBands, kAudioUnitScope_Global, 0, &count, 4) == kAudioUnitErr_InvalidPropertyValue)
        count = 4
        #expect(AudioUnitSetProperty(unit, kAUNBandEQProperty_NumberOfBands, kAudioUnitScope_Global, 0, &count, 4) == noErr)
        #expect(AudioUnitSetProperty(unit, kAUNBandEQProperty_MaxNumberOfBands, kAudioUnitScope_Global, 0, &count, 4) == kAudioUnitErr_PropertyNotWritable)
        #expect(AudioUnitSetProperty(unit, kAUNBandEQProperty_NumberOfBands, kAudioUnitScope_Input, 0, &count, 4) == kAudioUnitErr_InvalidScope)
        #expect(AUGraphInitialize(graph) == noErr)
        #expect(AudioUnitSetProperty(unit, kAUNBandEQProperty_NumberOfBands, kAudioUnitScope_Global, 0, &count, 4) == kAudioUnitErr_Initialized)
        #expect(AudioUnitGetProperty(unit, kAUNBandEQProperty_NumberOfBands, kAudioUnitScope_Global, 0, &count, &size) == noErr && count == 4)
    }

    /// Apple's IDs, ranges and defaults of a few parameters of each effect.
    @Test(arguments: [
        (kAudioUnitSubType_Delay, kDelayParam_DelayTime, Float(0), Float(2), Float(1)),
        (kAudioUnitSubType_Delay, kDelayParam_Feedback, -100, 100, 50),
        (kAudioUnitSubType_Reverb2, kReverb2Param_DryWetMix, 0, 100, 100),
        (kAudioUnitSubType_Reverb2, kReverb2Param_MaxDelayTime, 0.0001, 1, 0.05),
        (kAudioUnitSubType_Reverb2, kReverb2Param_DecayTimeAtNyquist, 0.001, 20, 0.5),
        (kAudioUnitSubType_DynamicsProcessor, kDynamicsProcessorParam_Threshold, -40, 20, -20),
        (kAudioUnitSubType_DynamicsProcessor, kDynamicsProcessorParam_ReleaseTime, 0.01, 3, 0.05),
        (kAudioUnitSubType_NBandEQ, kAUNBandEQParam_Gain + 15, -96, 24, 0),
        (kAudioUnitSubType_NBandEQ, kAUNBandEQParam_Bandwidth, 0.05, 5, 0.5),
    ])
    func parametersHaveApplesIDsRangesAndDefaults(_ subtype: OSType, _ id: AudioUnitParameterID, _ min: Float, _ max: Float, _ value: Float) throws {
        let (graph, _, effect, _) = OneUnitGraph.make(kAudioUnitType_Effect, subtype)
        defer { DisposeAUGraph(graph!) }
        var info = AudioUnitParameterInfo()
        var size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        #expect(AudioUnitGetProperty(effect, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, id, &info, &size) == noErr)
        #expect(info.minValue == min && info.maxValue == max && info.defaultValue == value, "\(info)")
    }

    @Test func theDynamicsProcessorsMetersAreReadOnly() throws {
        let (graph, _, effect, _) = OneUnitGraph.make(kAudioUnitType_Effect, kAudioUnitSubType_DynamicsProcessor)
        defer { DisposeAUGraph(graph!) }
        let unit = try #require(effect)
        for meter in [kDynamicsProcessorParam_CompressionAmount, kDynamicsProcessorParam_InputAmplitude, kDynamicsProcessorParam_OutputAmplitude] {
            var info = AudioUnitParameterInfo()
            var size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
            #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, meter, &info, &size) == noErr)
            #expect(info.flags & kAudioUnitParameterFlag_IsWritable == 0, "meter \(meter) is read-only")
            #expect(AudioUnitSetParameter(unit, meter, kAudioUnitScope_Global, 0, -10, 0) != noErr)
        }
    }
}
