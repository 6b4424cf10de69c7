import AUCore
import AUFiles
import AudioToolbox
import Foundation
import Testing

/// AudioConverter for linear PCM through the C API: 48 kHz float non-interleaved to 44.1 kHz
/// 16-bit big-endian interleaved with FillComplexBuffer (length exact, within 1 LSB of
/// libsamplerate's best conversion), ConvertBuffer and ConvertComplexBuffer at one rate,
/// properties, Reset, and the OSStatus of wrong arguments.
@Suite struct AudioConverterTests {
    /// What the input procedure reads from: two channels of samples and how far it got.
    final class Source {
        var left: [Float], right: [Float]
        var position = 0
        var failWith: OSStatus = noErr
        init(frames: Int) {
            left = (0..<frames).map { 0.5 * Float(sin(2 * Double.pi * 440 * Double($0) / 48_000)) }
            right = (0..<frames).map { 0.5 * Float(sin(2 * Double.pi * 1000 * Double($0) / 48_000)) }
        }
    }

    static let input: AudioConverterComplexInputDataProc = { _, ioPacketsPointer, ioData, _, userData in
        let ioPackets = ioPacketsPointer!
        let source = Unmanaged<Source>.fromOpaque(userData!).takeUnretainedValue()
        if source.failWith != noErr {
            ioPackets.pointee = 0
            return source.failWith
        }
        let count = min(Int(ioPackets.pointee), 700, source.left.count - source.position)
        let list = UnsafeMutableAudioBufferListPointer(ioData)!
        source.left.withUnsafeMutableBufferPointer { l in
            list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(count * 4), mData: l.baseAddress! + source.position)
        }
        source.right.withUnsafeMutableBufferPointer { r in
            list[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(count * 4), mData: r.baseAddress! + source.position)
        }
        source.position += count
        ioPackets.pointee = UInt32(count)
        return noErr
    }

    static func convert(_ converter: AudioConverterRef?, _ source: Source, chunk: UInt32 = 1000) -> (samples: [Int16], status: OSStatus) {
        var samples: [Int16] = []
        var buffer = [Int16](repeating: 0, count: Int(chunk) * 2)
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        defer { free(list.unsafeMutablePointer) }
        while true {
            var packets = chunk
            let status = buffer.withUnsafeMutableBytes { bytes in
                list[0] = AudioBuffer(mNumberChannels: 2, mDataByteSize: chunk * 4, mData: bytes.baseAddress)
                return AudioConverterFillComplexBuffer(converter, Self.input, Unmanaged.passUnretained(source).toOpaque(), &packets, list.unsafeMutablePointer, nil)
            }
            samples += buffer.prefix(Int(packets) * 2).map { Int16(bigEndian: $0) }
            if status != noErr || packets == 0 { return (samples, status) }
        }
    }

    @Test func fillComplexBufferResamplesToBigEndian16BitExactly() throws {
        var from = ExtAudioFileTests.float(rate: 48_000)
        var to = ExtAudioFileTests.int16BigEndian
        var converter: AudioConverterRef?
        #expect(AudioConverterNew(&from, &to, &converter) == noErr)
        defer { AudioConverterDispose(converter) }
        let frames = 48_000 + 123
        let (samples, status) = Self.convert(converter, Source(frames: frames))
        #expect(status == noErr)
        let expectedFrames = Int((Double(frames) * 44_100 / 48_000).rounded())
        #expect(samples.count == 2 * expectedFrames, "\(samples.count / 2) frames, expected \(expectedFrames)")

        let source = Source(frames: frames)
        let reference = OwnedAudioBuffers(channels: 2, capacity: frames)
        let view = reference.buffers(frameCount: frames)
        for frame in 0..<frames { view.channelPointers[0][frame] = source.left[frame]; view.channelPointers[1][frame] = source.right[frame] }
        let resampler = try SampleRateConverter(channels: 2, inputRate: 48_000, outputRate: 44_100, quality: .best, maxInputFrames: frames)
        var expected: [[Float]] = [[], []]
        let collect: (AudioBuffers) throws(AudioUnitError) -> Void = { out in for c in 0..<2 { expected[c] += out[c] } }
        try withExtendedLifetime(reference) { () throws(AudioUnitError) in
            try resampler.process(view, emit: collect)
            try resampler.finish(emit: collect)
        }
        let worst = ExtAudioFileTests.largestDifference(samples, expected)
        #expect(worst <= 1, "largest difference from libsamplerate's best conversion: \(worst) LSB")

        // Reset: the same input converts to the same output again.
        #expect(AudioConverterReset(converter) == noErr)
        let (again, _) = Self.convert(converter, Source(frames: frames))
        #expect(again == samples)
        // A status from the input procedure stops the call and comes back.
        #expect(AudioConverterReset(converter) == noErr)
        let failing = Source(frames: frames)
        failing.failWith = 0x7374_6F70   // 'stop'
        #expect(Self.convert(converter, failing).status == 0x7374_6F70)
    }

    @Test func convertBufferAndComplexBufferAtOneRate() throws {
        var int16 = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                                mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2, mBitsPerChannel: 16, mReserved: 0)
        var float32 = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                                  mBytesPerPacket: 8, mFramesPerPacket: 1, mBytesPerFrame: 8, mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
        var converter: AudioConverterRef?
        #expect(AudioConverterNew(&int16, &float32, &converter) == noErr)
        defer { AudioConverterDispose(converter) }
        var input: [Int16] = [16384, -16384, 32767, -32768, 0, 1]
        var output = [Float](repeating: 9, count: 6)
        var size = UInt32(24)
        #expect(AudioConverterConvertBuffer(converter, 12, &input, &size, &output) == noErr && size == 24)
        #expect(output == [0.5, -0.5, Float(32767) / 32768, -1, 0, Float(1) / 32768])
        #expect(AudioConverterConvertBuffer(converter, 11, &input, &size, &output) == kAudioConverterErr_InvalidInputSize)
        size = 8
        #expect(AudioConverterConvertBuffer(converter, 12, &input, &size, &output) == kAudioConverterErr_InvalidOutputSize)
        #expect(AudioConverterConvertBuffer(converter, 12, nil, &size, &output) == kAudio_ParamError)

        // ConvertComplexBuffer: the same through buffer lists.
        let inList = AudioBufferList.allocate(maximumBuffers: 1), outList = AudioBufferList.allocate(maximumBuffers: 1)
        defer { free(inList.unsafeMutablePointer); free(outList.unsafeMutablePointer) }
        output = [Float](repeating: 9, count: 6)
        input.withUnsafeMutableBytes { i in
            output.withUnsafeMutableBytes { o in
                inList[0] = AudioBuffer(mNumberChannels: 2, mDataByteSize: 12, mData: i.baseAddress)
                outList[0] = AudioBuffer(mNumberChannels: 2, mDataByteSize: 24, mData: o.baseAddress)
                #expect(AudioConverterConvertComplexBuffer(converter, 3, inList.unsafeMutablePointer, outList.unsafeMutablePointer) == noErr)
                #expect(AudioConverterConvertComplexBuffer(converter, 4, inList.unsafeMutablePointer, outList.unsafeMutablePointer) == kAudioConverterErr_InvalidInputSize)
            }
        }
        #expect(output == [0.5, -0.5, Float(32767) / 32768, -1, 0, Float(1) / 32768])

        var resampling: AudioConverterRef?
        var float48 = float32
        float48.mSampleRate = 48_000
        #expect(AudioConverterNew(&int16, &float48, &resampling) == noErr)
        defer { AudioConverterDispose(resampling) }
        size = 24
        #expect(AudioConverterConvertBuffer(resampling, 12, &input, &size, &output) == kAudioConverterErr_OperationNotSupported)
    }

    @Test func propertiesAndWrongArguments() throws {
        var from = ExtAudioFileTests.float(rate: 48_000)
        var to = ExtAudioFileTests.int16BigEndian
        var converter: AudioConverterRef?
        #expect(AudioConverterNew(nil, &to, &converter) == kAudio_ParamError)
        var aac = to
        aac.mFormatID = kAudioFormatMPEG4AAC
        #expect(AudioConverterNew(&from, &aac, &converter) == kAudioConverterErr_FormatNotSupported)
        var mono = ExtAudioFileTests.float(rate: 48_000, channels: 1)
        #expect(AudioConverterNew(&from, &mono, &converter) == kAudioConverterErr_FormatNotSupported)
        #expect(AudioConverterNew(&from, &to, &converter) == noErr)
        var description = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioConverterGetProperty(converter, kAudioConverterCurrentOutputStreamDescription, &size, &description) == noErr)
        #expect(description.mSampleRate == 44_100 && description.mBitsPerChannel == 16)
        #expect(AudioConverterGetProperty(converter, kAudioConverterCurrentInputStreamDescription, &size, &description) == noErr && description.mSampleRate == 48_000)
        var quality = kAudioConverterQuality_Medium
        #expect(AudioConverterSetProperty(converter, kAudioConverterSampleRateConverterQuality, 4, &quality) == noErr)
        quality = 0
        size = 4
        #expect(AudioConverterGetProperty(converter, kAudioConverterSampleRateConverterQuality, &size, &quality) == noErr && quality == kAudioConverterQuality_Medium)
        var packet: UInt32 = 0
        #expect(AudioConverterGetProperty(converter, kAudioConverterPropertyMaximumOutputPacketSize, &size, &packet) == noErr && packet == 4)
        var outSize: UInt32 = 0
        var writable: DarwinBoolean = false
        #expect(AudioConverterGetPropertyInfo(converter, kAudioConverterSampleRateConverterQuality, &outSize, &writable) == noErr && outSize == 4 && writable.boolValue)
        #expect(AudioConverterGetPropertyInfo(converter, kAudioConverterPrimeInfo, &outSize, &writable) == kAudioConverterErr_PropertyNotSupported)
        size = 2
        #expect(AudioConverterGetProperty(converter, kAudioConverterCurrentOutputStreamDescription, &size, &description) == kAudioConverterErr_BadPropertySizeError)
        #expect(AudioConverterSetProperty(converter, kAudioConverterSampleRateConverterQuality, 2, &quality) == kAudioConverterErr_BadPropertySizeError)
        #expect(AudioConverterSetProperty(converter, kAudioConverterCurrentOutputStreamDescription, size, &description) == kAudioUnitErr_PropertyNotWritable)
        var packets: UInt32 = 10
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        defer { free(list.unsafeMutablePointer) }
        #expect(AudioConverterFillComplexBuffer(converter, nil, nil, &packets, list.unsafeMutablePointer, nil) == kAudio_ParamError)
        list[0] = AudioBuffer(mNumberChannels: 2, mDataByteSize: 4, mData: nil)
        #expect(AudioConverterFillComplexBuffer(converter, Self.input, nil, &packets, list.unsafeMutablePointer, nil) == kAudioConverterErr_InvalidOutputSize)
        #expect(AudioConverterDispose(converter) == noErr)
        #expect(AudioConverterReset(converter) == kAudio_ParamError, "a disposed converter")
    }
}
