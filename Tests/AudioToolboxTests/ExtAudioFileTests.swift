import AUCore
import AUFiles
import AudioToolbox
import Foundation
import Testing

/// ExtAudioFile through the C API: a 48 kHz float WAV written and read back as 44.1 kHz
/// 16-bit big-endian interleaved (length exact, every sample within 1 LSB of libsamplerate's
/// best conversion of the same file), seek and tell, and the OSStatus of wrong arguments.
@Suite struct ExtAudioFileTests {
    static let frames = 48_000 + 123

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("extaudiofile-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func float(rate: Double, channels: UInt32 = 2) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagsCanonical | kAudioFormatFlagIsNonInterleaved,
                                    mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: channels, mBitsPerChannel: 32, mReserved: 0)
    }

    static let int16BigEndian = AudioStreamBasicDescription(
        mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked | kAudioFormatFlagIsBigEndian,
        mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2, mBitsPerChannel: 16, mReserved: 0)

    /// The largest difference, in 16-bit steps, between interleaved stereo `samples` and
    /// `reference` (float channels) quantized to 16 bits.
    static func largestDifference(_ samples: [Int16], _ reference: [[Float]]) -> Int {
        var worst = 0
        for frame in 0..<min(reference[0].count, samples.count / 2) {
            for channel in 0..<2 {
                let expected = max(-32768, min(32767, (Double(reference[channel][frame]) * 32768).rounded()))
                worst = max(worst, abs(Int(samples[2 * frame + channel]) - Int(expected)))
            }
        }
        return worst
    }

    /// Writes `frames` frames of 440 Hz (left) and 1 kHz (right) at 48 kHz, 32-bit float.
    static func writeTestFile(_ url: URL) throws {
        var format = float(rate: 48_000)
        var file: ExtAudioFileRef?
        #expect(ExtAudioFileCreateWithURL(url as NSURL as CFURL, kAudioFileWAVEType, &format, nil, kAudioFileFlags_EraseFile, &file) == noErr)
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &format) == noErr)
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(list.unsafeMutablePointer) }
        var left = [Float](repeating: 0, count: 1000), right = left
        var written = 0
        while written < frames {
            let count = min(1000, frames - written)
            for index in 0..<count {
                left[index] = 0.5 * Float(sin(2 * Double.pi * 440 * Double(written + index) / 48_000))
                right[index] = 0.5 * Float(sin(2 * Double.pi * 1000 * Double(written + index) / 48_000))
            }
            left.withUnsafeMutableBytes { l in
                right.withUnsafeMutableBytes { r in
                    list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(count * 4), mData: l.baseAddress)
                    list[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(count * 4), mData: r.baseAddress)
                    #expect(ExtAudioFileWrite(file, UInt32(count), list.unsafeMutablePointer) == noErr)
                }
            }
            written += count
        }
        #expect(ExtAudioFileDispose(file) == noErr)
    }

    /// Reads the whole file in the 16-bit big-endian interleaved client format, 1000 frames a call.
    static func readInt16BigEndian(_ file: ExtAudioFileRef?) -> [Int16] {
        var samples: [Int16] = []
        var chunk = [Int16](repeating: 0, count: 2000)
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        defer { free(list.unsafeMutablePointer) }
        while true {
            var count: UInt32 = 1000
            let status = chunk.withUnsafeMutableBytes { bytes in
                list[0] = AudioBuffer(mNumberChannels: 2, mDataByteSize: 4000, mData: bytes.baseAddress)
                return ExtAudioFileRead(file, &count, list.unsafeMutablePointer)
            }
            guard status == noErr, count > 0 else { return samples }
            samples += chunk.prefix(Int(count) * 2).map { Int16(bigEndian: $0) }
        }
    }

    @Test func aFloatFileReadsAs441kHz16BitBigEndianExactly() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("float48k.wav")
        try Self.writeTestFile(url)

        var file: ExtAudioFileRef?
        #expect(ExtAudioFileOpenURL(url as NSURL as CFURL, &file) == noErr)
        defer { ExtAudioFileDispose(file) }
        var fileFormat = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat) == noErr)
        #expect(fileFormat.mSampleRate == 48_000 && fileFormat.mChannelsPerFrame == 2 && fileFormat.mBitsPerChannel == 32)
        #expect(fileFormat.mFormatFlags & kAudioFormatFlagIsFloat != 0 && fileFormat.mFormatID == kAudioFormatLinearPCM)
        var length: Int64 = 0
        size = 8
        #expect(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileLengthFrames, &size, &length) == noErr && length == Int64(Self.frames))
        var client = Self.int16BigEndian
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client) == noErr)
        var readBack = AudioStreamBasicDescription()
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(ExtAudioFileGetProperty(file, kExtAudioFileProperty_ClientDataFormat, &size, &readBack) == noErr && readBack.mFormatFlags == client.mFormatFlags)
        let samples = Self.readInt16BigEndian(file)
        let expectedFrames = Int((Double(Self.frames) * 44_100 / 48_000).rounded())
        #expect(samples.count == 2 * expectedFrames, "\(samples.count / 2) frames, expected \(expectedFrames)")
        var tell: Int64 = 0
        #expect(ExtAudioFileTell(file, &tell) == noErr && tell == Int64(expectedFrames))

        // The reference: libsamplerate's best converter over the same file, quantized to 16 bits.
        let reader = try AudioFileReader(path: url.path)
        let all = try reader.readAll()
        let converter = try SampleRateConverter(channels: 2, inputRate: 48_000, outputRate: 44_100, quality: .best, maxInputFrames: Self.frames)
        var reference: [[Float]] = [[], []]
        let collect: (AudioBuffers) throws(AudioUnitError) -> Void = { out in for c in 0..<2 { reference[c] += out[c] } }
        try withExtendedLifetime(all) { () throws(AudioUnitError) in
            try converter.process(all.buffers(frameCount: Self.frames), emit: collect)
            try converter.finish(emit: collect)
        }
        #expect(reference[0].count == expectedFrames)
        let worst = Self.largestDifference(samples, reference)
        #expect(worst <= 1, "largest difference from libsamplerate's best conversion: \(worst) LSB")
        #expect(samples.map { abs(Int($0)) }.max()! > 15_000, "the sine is there at half scale")

        // Seek back to client frame 22050 and read the same samples again.
        #expect(ExtAudioFileSeek(file, 22_050) == noErr)
        #expect(ExtAudioFileTell(file, &tell) == noErr && tell == 22_050)
        let again = Self.readInt16BigEndian(file)
        #expect(again.count == samples.count - 2 * 22_050)
        // The converter starts again at the seek: past its filter's first frames (1000 here)
        // the samples are the same ones.
        let drift = zip(again[2000..<8000], samples[(2 * 22_050 + 2000)..<(2 * 22_050 + 8000)]).map { (one: Int16, other: Int16) in abs(Int(one) - Int(other)) }.max() ?? 99
        #expect(drift <= 2, "after a seek the samples are the same ones: \(drift) LSB apart")
        #expect(ExtAudioFileSeek(file, Int64(expectedFrames) * 4) == kExtAudioFileError_InvalidSeek)
    }

    @Test func wrongArgumentsGetTheirStatus() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("float48k.wav")
        try Self.writeTestFile(url)
        var file: ExtAudioFileRef?
        #expect(ExtAudioFileOpenURL(folder.appendingPathComponent("none.wav") as NSURL as CFURL, &file) == kAudio_FileNotFoundError)
        let text = folder.appendingPathComponent("text.wav")
        try Data("not audio at all".utf8).write(to: text)
        #expect(ExtAudioFileOpenURL(text as NSURL as CFURL, &file) == kAudioFileUnsupportedFileTypeError)
        #expect(_ExtAudioFileOpenURL(nil, &file) == kAudio_ParamError)

        var format = Self.float(rate: 48_000)
        #expect(ExtAudioFileCreateWithURL(url as NSURL as CFURL, kAudioFileWAVEType, &format, nil, 0, &file) == kAudioFilePermissionsError, "exists, no EraseFile")
        #expect(ExtAudioFileCreateWithURL(folder.appendingPathComponent("a.mp3") as NSURL as CFURL, kAudioFileMP3Type, &format, nil, 0, &file) == kAudioFileUnsupportedFileTypeError)
        var aac = format
        aac.mFormatID = kAudioFormatMPEG4AAC
        #expect(ExtAudioFileCreateWithURL(folder.appendingPathComponent("a.caf") as NSURL as CFURL, kAudioFileCAFType, &aac, nil, 0, &file) == kAudioFileUnsupportedDataFormatError)
        var bigEndianWave = Self.int16BigEndian
        #expect(ExtAudioFileCreateWithURL(folder.appendingPathComponent("b.wav") as NSURL as CFURL, kAudioFileWAVEType, &bigEndianWave, nil, 0, &file) == kAudioFileUnsupportedDataFormatError)

        #expect(ExtAudioFileOpenURL(url as NSURL as CFURL, &file) == noErr)
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        var aacClient = aac
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, size, &aacClient) == kExtAudioFileError_NonPCMClientFormat)
        var mono = Self.float(rate: 44_100, channels: 1)
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, size, &mono) == kExtAudioFileError_InvalidDataFormat)
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, 4, &mono) == kExtAudioFileError_InvalidPropertySize)
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_FileDataFormat, size, &mono) == kAudioUnitErr_PropertyNotWritable)
        var outSize: UInt32 = 0
        var writable: DarwinBoolean = true
        #expect(ExtAudioFileGetPropertyInfo(file, kExtAudioFileProperty_ClientDataFormat, &outSize, &writable) == noErr && outSize == size && writable.boolValue)
        #expect(ExtAudioFileGetPropertyInfo(file, 0x1234, &outSize, &writable) == kExtAudioFileError_InvalidProperty)
        #expect(ExtAudioFileGetPropertyInfo(file, kExtAudioFileProperty_CodecManufacturer, &outSize, &writable) == kAudio_UnimplementedError)
        var small: UInt32 = 4
        var asbd = AudioStreamBasicDescription()
        #expect(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileDataFormat, &small, &asbd) == kExtAudioFileError_InvalidPropertySize)
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(list.unsafeMutablePointer) }
        #expect(ExtAudioFileWrite(file, 10, list.unsafeMutablePointer) == kExtAudioFileError_InvalidOperationOrder, "a file opened to read")
        var frames: UInt32 = 10
        list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 8, mData: nil)
        #expect(ExtAudioFileRead(file, &frames, list.unsafeMutablePointer) == kAudio_ParamError, "buffers too small")
        #expect(ExtAudioFileRead(file, nil, list.unsafeMutablePointer) == kAudio_ParamError)
        #expect(ExtAudioFileTell(file, nil) == kAudio_ParamError)
        #expect(ExtAudioFileSeek(file, -1) == kExtAudioFileError_InvalidSeek)
        #expect(ExtAudioFileDispose(file) == noErr)
        #expect(ExtAudioFileDispose(file) == kAudio_ParamError, "a disposed file")

        var created: ExtAudioFileRef?
        #expect(ExtAudioFileCreateWithURL(folder.appendingPathComponent("c.aiff") as NSURL as CFURL, kAudioFileAIFFType, &bigEndianWave, nil, 0, &created) == noErr)
        #expect(ExtAudioFileSeek(created, 0) == kExtAudioFileError_InvalidOperationOrder, "a file being written")
        #expect(ExtAudioFileRead(created, &frames, list.unsafeMutablePointer) == kExtAudioFileError_InvalidOperationOrder)
        #expect(ExtAudioFileWriteAsync(created, 0, nil) == noErr, "the priming call")
        #expect(ExtAudioFileDispose(created) == noErr)
        var reopened: ExtAudioFileRef?
        #expect(ExtAudioFileOpenURL(folder.appendingPathComponent("c.aiff") as NSURL as CFURL, &reopened) == noErr)
        var length: Int64 = -1
        var eight: UInt32 = 8
        #expect(ExtAudioFileGetProperty(reopened, kExtAudioFileProperty_FileLengthFrames, &eight, &length) == noErr && length == 0)
        var aiffFormat = AudioStreamBasicDescription()
        var formatSize = size
        #expect(ExtAudioFileGetProperty(reopened, kExtAudioFileProperty_FileDataFormat, &formatSize, &aiffFormat) == noErr)
        #expect(aiffFormat.mBitsPerChannel == 16 && aiffFormat.mFormatFlags & kAudioFormatFlagIsBigEndian != 0)
        #expect(ExtAudioFileDispose(reopened) == noErr)
    }
}
