import AudioToolbox
import CSndfile
import Foundation
import Testing

/// Compressed files through ExtAudioFile and AudioFile (libsndfile): FLAC written and read
/// back bit for bit; Ogg Opus and MPEG layer 3 (libsndfile's own encoders make the files)
/// read into a PCM client format under Apple's format and file type IDs; garbage and
/// truncated files answer a status, never a crash.
@Suite struct CompressedFileTests {
    /// 16-bit stereo test samples: a 440 Hz sine left, a 1 kHz sine right, at half scale.
    static func int16Samples(frames: Int, rate: Double) -> [Int16] {
        (0..<frames).flatMap { frame -> [Int16] in
            [440.0, 1000.0].map { Int16((0.5 * 32_767 * sin(2 * .pi * $0 * Double(frame) / rate)).rounded()) }
        }
    }

    /// A mono sine of `seconds` at `frequency` and half scale written by libsndfile in `format`.
    static func writeWithLibsndfile(_ url: URL, format: Int32, rate: Int32, frequency: Double, seconds: Double = 1) throws {
        var info = SF_INFO()
        info.samplerate = rate
        info.channels = 1
        info.format = format
        let file = try #require(sf_open(url.path, Int32(SFM_WRITE), &info), "libsndfile writes format \(String(format, radix: 16))")
        let samples = (0..<Int(seconds * Double(rate))).map { Float(0.5 * sin(2 * .pi * frequency * Double($0) / Double(rate))) }
        #expect(sf_writef_float(file, samples, sf_count_t(samples.count)) == sf_count_t(samples.count))
        #expect(sf_close(file) == 0)
    }

    /// A mono float client format at `rate`.
    static func monoFloat(_ rate: Double) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                    mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)
    }

    /// Every frame of `url` read through ExtAudioFile as mono float at its own rate, its file
    /// data format, and the status of the read that ended it.
    static func readMono(_ url: URL) throws -> (samples: [Float], format: AudioStreamBasicDescription, end: OSStatus) {
        var file: ExtAudioFileRef?
        let opened = ExtAudioFileOpenURL(url as NSURL as CFURL, &file)
        try #require(opened == noErr, "ExtAudioFileOpenURL: \(opened)")
        defer { ExtAudioFileDispose(file) }
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileDataFormat, &size, &format) == noErr)
        var client = monoFloat(format.mSampleRate)
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, size, &client) == noErr)
        var samples: [Float] = []
        var chunk = [Float](repeating: 0, count: 4096)
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        defer { free(list.unsafeMutablePointer) }
        while true {
            var count: UInt32 = 4096
            let status = chunk.withUnsafeMutableBytes { bytes in
                list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 16_384, mData: bytes.baseAddress)
                return ExtAudioFileRead(file, &count, list.unsafeMutablePointer)
            }
            guard status == noErr, count > 0 else { return (samples, format, status) }
            samples += chunk.prefix(Int(count))
        }
    }

    @Test func flacIsWrittenAndReadBackBitForBit() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("round-trip.flac")
        let frames = 44_100 + 77
        let written = Self.int16Samples(frames: frames, rate: 44_100)
        var flac = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatFLAC, mFormatFlags: 1, mBytesPerPacket: 0, mFramesPerPacket: 0,
                                               mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        var int16 = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                                mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2, mBitsPerChannel: 16, mReserved: 0)
        var file: ExtAudioFileRef?
        #expect(ExtAudioFileCreateWithURL(url as NSURL as CFURL, kAudioFileFLACType, &flac, nil, 0, &file) == noErr)
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &int16) == noErr)
        var copy = written
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        defer { free(list.unsafeMutablePointer) }
        copy.withUnsafeMutableBytes { bytes in
            list[0] = AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(bytes.count), mData: bytes.baseAddress)
            #expect(ExtAudioFileWrite(file, UInt32(frames), list.unsafeMutablePointer) == noErr)
        }
        #expect(ExtAudioFileDispose(file) == noErr)

        #expect(ExtAudioFileOpenURL(url as NSURL as CFURL, &file) == noErr)
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileDataFormat, &size, &format) == noErr)
        #expect(format.mFormatID == kAudioFormatFLAC && format.mFormatFlags == 1 && format.mChannelsPerFrame == 2 && format.mSampleRate == 44_100)
        var length: Int64 = 0
        size = 8
        #expect(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileLengthFrames, &size, &length) == noErr && length == Int64(frames))
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &int16) == noErr)
        var read = [Int16](repeating: 0, count: 2 * frames + 2)
        var count = UInt32(frames + 1)
        read.withUnsafeMutableBytes { bytes in
            list[0] = AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(bytes.count), mData: bytes.baseAddress)
            #expect(ExtAudioFileRead(file, &count, list.unsafeMutablePointer) == noErr)
        }
        #expect(count == UInt32(frames))
        #expect(Array(read.prefix(2 * frames)) == written, "every 16-bit sample as written")
        #expect(ExtAudioFileDispose(file) == noErr)

        var audioFile: AudioFileID?
        #expect(AudioFileOpenURL(url as NSURL as CFURL, kAudioFileReadPermission, 0, &audioFile) == noErr)
        var type: UInt32 = 0
        size = 4
        #expect(AudioFileGetProperty(audioFile!, kAudioFilePropertyFileFormat, &size, &type) == noErr && type == kAudioFileFLACType)
        var bytes: UInt32 = 16
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(AudioFileReadBytes(audioFile!, false, 0, &bytes, &buffer) == kAudioFileOperationNotSupportedError, "compressed data is decoded by ExtAudioFile")
        #expect(AudioFileClose(audioFile!) == noErr)
    }

    /// Opus (48 kHz) and MPEG layer 3 (44.1 kHz), each a 1 kHz sine at half scale: decoded,
    /// the sine fits what is read to within 3 % (lossy), at its level within 3 %.
    @Test func opusAndMP3AreReadUnderApplesIDs() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(name: String, format: Int32, rate: Int32, formatID: UInt32, fileType: UInt32)] = [
            ("sine.opus", Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS), 48_000, kAudioFormatOpus, 0),
            ("sine.mp3", Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III), 44_100, kAudioFormatMPEGLayer3, kAudioFileMP3Type),
        ]
        for item in cases {
            let url = folder.appendingPathComponent(item.name)
            try Self.writeWithLibsndfile(url, format: item.format, rate: item.rate, frequency: 1000)
            let (samples, format, _) = try Self.readMono(url)
            #expect(format.mFormatID == item.formatID && format.mSampleRate == Double(item.rate) && format.mChannelsPerFrame == 1, "\(item.name)")
            #expect(abs(samples.count - Int(item.rate)) < Int(item.rate) / 20, "\(item.name): \(samples.count) frames of about \(item.rate)")
            try #require(samples.count > Int(item.rate) / 2)
            let middle = samples[(samples.count / 4)..<(samples.count * 3 / 4)]
            let (amplitude, residual) = SamplerAudioFilesTests.fit(middle, frequency: 1000, sampleRate: Double(item.rate))
            #expect(residual < 0.03 && abs(amplitude - 0.5) < 0.015, "\(item.name): amplitude \(amplitude), \(residual * 100) % left over")
            var audioFile: AudioFileID?
            #expect(AudioFileOpenURL(url as NSURL as CFURL, kAudioFileReadPermission, 0, &audioFile) == noErr)
            var type: UInt32 = 1
            var size: UInt32 = 4
            #expect(AudioFileGetProperty(audioFile!, kAudioFilePropertyFileFormat, &size, &type) == noErr && type == item.fileType, "\(item.name): type \(type)")
            #expect(AudioFileClose(audioFile!) == noErr)
        }
        // Apple writes no MPEG file (it has no MP3 encoder), nor does this library.
        var mp3 = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatMPEGLayer3, mFormatFlags: 0, mBytesPerPacket: 0, mFramesPerPacket: 1152,
                                              mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        var file: ExtAudioFileRef?
        #expect(ExtAudioFileCreateWithURL(folder.appendingPathComponent("out.mp3") as NSURL as CFURL, kAudioFileMP3Type, &mp3, nil, 0, &file) == kAudioFileUnsupportedFileTypeError)
        var size: UInt32 = 0
        #expect(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_ReadableTypes, 0, nil, &size) == noErr)
        var types = [UInt32](repeating: 0, count: Int(size) / 4)
        #expect(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_ReadableTypes, 0, nil, &size, &types) == noErr && types.contains(kAudioFileMP3Type))
        #expect(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_WritableTypes, 0, nil, &size) == noErr)
        types = [UInt32](repeating: 0, count: Int(size) / 4)
        #expect(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_WritableTypes, 0, nil, &size, &types) == noErr && types.contains(kAudioFileFLACType) && !types.contains(kAudioFileMP3Type))
    }

    /// A FLAC, an Opus and an MP3 file cut in half, and garbage after each one's magic bytes.
    @Test func truncatedAndGarbageCompressedFilesAnswerAStatus() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, format, rate) in [("a.flac", Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16), Int32(44_100)), ("a.opus", Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS), 48_000),
                                     ("a.mp3", Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III), 44_100)] {
            let whole = folder.appendingPathComponent(name)
            try Self.writeWithLibsndfile(whole, format: format, rate: rate, frequency: 440)
            let bytes = try Data(contentsOf: whole)
            let cut = folder.appendingPathComponent("cut-" + name)
            try bytes.prefix(bytes.count / 2).write(to: cut)
            var file: ExtAudioFileRef?
            let opened = ExtAudioFileOpenURL(cut as NSURL as CFURL, &file)
            if opened == noErr {
                ExtAudioFileDispose(file)
                let (samples, _, end) = try Self.readMono(cut)
                #expect(end == noErr || end == kAudioFileInvalidFileError, "\(name) cut in half: read ends with \(end)")
                #expect(samples.count < Int(rate), "\(name) cut in half: \(samples.count) frames, fewer than the whole file's")
            } else {
                #expect(opened == kAudioFileInvalidFileError, "\(name) cut in half: \(opened)")
            }
            let garbage = folder.appendingPathComponent("garbage-" + name)
            var random = SystemRandomNumberGenerator()
            try Data(bytes.prefix(4) + (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }).write(to: garbage)
            let status = ExtAudioFileOpenURL(garbage as NSURL as CFURL, &file)
            #expect(status == kAudioFileInvalidFileError || status == kAudioFileUnsupportedFileTypeError, "garbage after \(name)'s magic: \(status)")
            if status == noErr { ExtAudioFileDispose(file) }
        }
    }
}
