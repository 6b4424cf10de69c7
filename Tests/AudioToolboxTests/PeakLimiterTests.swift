import AudioToolbox
import Foundation
import Testing

/// Apple's AUPeakLimiter (`aufx lmtr appl`) through the C API: a render callback's sine into
/// the limiter into a GenericOutput pulled with AudioUnitRender. A sine at 0.5 passes
/// unchanged; at 2.0 every output sample is within ±1 and, past the attack, the peaks are
/// between 0.9 and 1; a pre-gain of +6.02 dB doubles 0.25 to 0.5 (within 1e-3); Apple's
/// parameter IDs and ranges; an out-of-range value is refused.
@Suite struct PeakLimiterTests {
    final class Tone {
        var amplitude: Float = 0.5
        var frame = 0
    }

    static let callback: AURenderCallback = { refCon, _, _, _, frames, data in
        let tone = Unmanaged<Tone>.fromOpaque(refCon!).takeUnretainedValue()
        let buffers = UnsafeMutableAudioBufferListPointer(data!)
        for frame in 0..<Int(frames) {
            let sample = tone.amplitude * sinf(2 * Float.pi * 441 * Float(tone.frame + frame) / 44_100)
            for buffer in buffers { buffer.mData!.assumingMemoryBound(to: Float.self)[frame] = sample }
        }
        tone.frame += Int(frames)
        return noErr
    }

    @Test func theLimiterHoldsPeaksAtTheCeilingAndPassesQuietSignals() throws {
        let (graph, limiterNode, limiter, output) = OneUnitGraph.make(kAudioUnitType_Effect, kAudioUnitSubType_PeakLimiter)
        defer { DisposeAUGraph(graph!) }
        var format = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved,
                                                 mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
        let formatSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioUnitSetProperty(limiter, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, formatSize) == noErr)
        #expect(AudioUnitSetProperty(limiter, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, formatSize) == noErr)
        let tone = Tone()
        var callback = AURenderCallbackStruct(inputProc: Self.callback, inputProcRefCon: Unmanaged.passUnretained(tone).toOpaque())
        try withExtendedLifetime(tone) {
            #expect(AUGraphSetNodeInputCallback(graph, limiterNode, 0, &callback) == noErr)
            #expect(AUGraphInitialize(graph) == noErr)
            let outputUnit = try #require(output)

            var info = AudioUnitParameterInfo()
            var size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
            #expect(AudioUnitGetProperty(limiter, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, kLimiterParam_PreGain, &info, &size) == noErr)
            #expect(info.minValue == -40 && info.maxValue == 40 && info.defaultValue == 0)

            let quiet = SequenceRenderTests.render(outputUnit, from: 0, frames: 4096)
            try #require(quiet.count == 4096)
            let expectedQuiet = (0..<4096).map { 0.5 * sinf(2 * Float.pi * 441 * Float($0) / 44_100) }
            #expect(zip(quiet, expectedQuiet).allSatisfy { $0 == $1 }, "a signal under the ceiling passes unchanged")

            tone.amplitude = 2
            let loud = SequenceRenderTests.render(outputUnit, from: 4096, frames: 44_032)
            try #require(loud.count == 44_032)
            #expect(loud.allSatisfy { abs($0) <= 1 }, "every sample within the ceiling")
            let settled = loud[22_050...].map { abs($0) }.max() ?? 0
            #expect(settled > 0.9 && settled <= 1, "peaks at the ceiling after the attack: \(settled)")

            tone.amplitude = 0.25
            #expect(AudioUnitSetParameter(limiter, kLimiterParam_PreGain, kAudioUnitScope_Global, 0, 6.0206, 0) == noErr)
            let louder = SequenceRenderTests.render(outputUnit, from: 48_128, frames: 44_032)
            try #require(louder.count == 44_032)
            let peak = louder[22_050...].map { abs($0) }.max() ?? 0
            #expect(abs(peak - 0.5) < 1e-3, "+6 dB doubles 0.25: \(peak)")
            #expect(AudioUnitSetParameter(limiter, kLimiterParam_PreGain, kAudioUnitScope_Global, 0, 60, 0) == kAudioUnitErr_InvalidParameterValue)
        }
    }
}
