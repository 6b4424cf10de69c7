import AudioToolbox
import Foundation
import Testing

/// ExtAudioFileWrapAudioFileID through the C API: an ExtAudioFile over an AudioFileID the
/// program opened reads the file from its start, over one it created writes into it, and
/// either way the AudioFileID stays the program's (ExtAudioFileDispose leaves it open,
/// AudioFileClose after it works); kExtAudioFileProperty_AudioFile gives it back, and for a
/// file opened by URL gives an AudioFileID valid while the ExtAudioFile lives.
@Suite struct ExtAudioFileWrapTests {
    static let pointerSize = UInt32(MemoryLayout<AudioFileID>.size)

    /// Reads `count` float stereo frames with ExtAudioFileRead in the file's own (float interleaved) format.
    static func readFloatFrames(_ file: ExtAudioFileRef?, _ count: Int) -> [Float] {
        var samples = [Float](repeating: 0, count: 2 * count)
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        defer { free(list.unsafeMutablePointer) }
        var frames = UInt32(count)
        let status = samples.withUnsafeMutableBytes { bytes in
            list[0] = AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(bytes.count), mData: bytes.baseAddress)
            return ExtAudioFileRead(file, &frames, list.unsafeMutablePointer)
        }
        #expect(status == noErr && frames == UInt32(count))
        return Array(samples.prefix(2 * Int(frames)))
    }

    @Test func aWrappedFileIsReadFromItsStartAndStaysOpen() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("float48k.wav")
        try ExtAudioFileTests.writeTestFile(url)
        var audioFile: AudioFileID?
        #expect(AudioFileOpenURL(url as NSURL as CFURL, AudioFilePermissions(kAudioFileReadPermission), 0, &audioFile) == noErr)
        // The program's own packet reads move libsndfile's position; the ExtAudioFile reads from frame 0 all the same.
        var packets = [Float](repeating: 0, count: 2 * 3000)
        var count: UInt32 = 3000, bytes: UInt32 = 0
        #expect(packets.withUnsafeMutableBytes { AudioFileReadPackets(audioFile, 0, &bytes, nil, 0, &count, $0.baseAddress) } == noErr && count == 3000)
        var wrapped: ExtAudioFileRef?
        #expect(ExtAudioFileWrapAudioFileID(audioFile, 0, &wrapped) == noErr)
        var back: AudioFileID?
        var size = Self.pointerSize
        #expect(ExtAudioFileGetProperty(wrapped, kExtAudioFileProperty_AudioFile, &size, &back) == noErr && back == audioFile)
        let first = Self.readFloatFrames(wrapped, 1000)
        #expect(first == Array(packets.prefix(2000)), "the first 1000 frames, as AudioFileReadPackets read them")
        // The program reads packets in between; the ExtAudioFile goes on where it was.
        count = 10
        #expect(packets.withUnsafeMutableBytes { AudioFileReadPackets(audioFile, 0, &bytes, nil, 40_000, &count, $0.baseAddress) } == noErr && count == 10)
        #expect(Self.readFloatFrames(wrapped, 1000) == Array(packets[2000..<4000]), "frames 1000 to 1999, after the program moved the file")
        #expect(ExtAudioFileDispose(wrapped) == noErr)
        count = 3
        #expect(packets.withUnsafeMutableBytes { AudioFileReadPackets(audioFile, 0, &bytes, nil, 0, &count, $0.baseAddress) } == noErr && count == 3,
                "the AudioFileID is still open after ExtAudioFileDispose")
        #expect(AudioFileClose(audioFile) == noErr)
        #expect(AudioFileClose(audioFile) == kAudio_ParamError, "closed once, by the program")
    }

    @Test func aWrappedCreatedFileIsWrittenAndAppearsAtAudioFileClose() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("wrapped.caf")
        var format = ExtAudioFileTests.int16BigEndian
        var audioFile: AudioFileID?
        #expect(AudioFileCreateWithURL(url as NSURL as CFURL, kAudioFileCAFType, &format, 0, &audioFile) == noErr)
        var wrapped: ExtAudioFileRef?
        #expect(ExtAudioFileWrapAudioFileID(audioFile, 1, &wrapped) == noErr)
        var client = ExtAudioFileTests.float(rate: 44_100)
        #expect(ExtAudioFileSetProperty(wrapped, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client) == noErr)
        var left = (0..<1000).map { Float($0 - 500) / 1000 }, right = left.map { -$0 }
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(list.unsafeMutablePointer) }
        left.withUnsafeMutableBytes { l in
            right.withUnsafeMutableBytes { r in
                list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 4000, mData: l.baseAddress)
                list[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 4000, mData: r.baseAddress)
                #expect(ExtAudioFileWrite(wrapped, 1000, list.unsafeMutablePointer) == noErr)
            }
        }
        #expect(ExtAudioFileDispose(wrapped) == noErr)
        #expect(!FileManager.default.fileExists(atPath: url.path), "not closed by ExtAudioFileDispose: the file appears at AudioFileClose")
        var packetCount: UInt64 = 0
        var size: UInt32 = 8
        #expect(AudioFileGetProperty(audioFile, kAudioFilePropertyAudioDataPacketCount, &size, &packetCount) == noErr && packetCount == 1000)
        // The program goes on writing packets after the ExtAudioFile's.
        let tail: [Int16] = [Int16(1234).bigEndian, Int16(-1234).bigEndian]
        var one: UInt32 = 1
        #expect(tail.withUnsafeBytes { AudioFileWritePackets(audioFile, 0, 4, nil, 1000, &one, $0.baseAddress) } == noErr)
        #expect(AudioFileClose(audioFile) == noErr)

        var reopened: AudioFileID?
        #expect(AudioFileOpenURL(url as NSURL as CFURL, AudioFilePermissions(kAudioFileReadPermission), 0, &reopened) == noErr)
        defer { AudioFileClose(reopened) }
        var samples = [Int16](repeating: 0, count: 2002)
        var packets: UInt32 = 1001, bytes: UInt32 = 0
        #expect(samples.withUnsafeMutableBytes { AudioFileReadPackets(reopened, 0, &bytes, nil, 0, &packets, $0.baseAddress) } == noErr && packets == 1001)
        let values = samples.map { Int16(bigEndian: $0) }
        let expected: [Int] = (0..<2000).map { index in
            let sample: Float = index % 2 == 0 ? left[index / 2] : right[index / 2]
            return Int((sample * 32768).rounded())
        }
        let worst = zip(values.prefix(2000), expected).map { abs(Int($0) - $1) }.max() ?? 99
        #expect(worst <= 1, "the ExtAudioFile's frames within 1 LSB: \(worst)")
        #expect(values[2000] == 1234 && values[2001] == -1234, "then the program's packet")
    }

    @Test func anOpenedFileGivesItsAudioFileIDWhileItLives() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("float48k.wav")
        try ExtAudioFileTests.writeTestFile(url)
        var file: ExtAudioFileRef?
        #expect(ExtAudioFileOpenURL(url as NSURL as CFURL, &file) == noErr)
        var audioFile: AudioFileID?
        var size = Self.pointerSize
        #expect(ExtAudioFileGetProperty(file, kExtAudioFileProperty_AudioFile, &size, &audioFile) == noErr && audioFile != nil)
        var packetCount: UInt64 = 0
        var eight: UInt32 = 8
        #expect(AudioFileGetProperty(audioFile, kAudioFilePropertyAudioDataPacketCount, &eight, &packetCount) == noErr)
        #expect(packetCount == UInt64(ExtAudioFileTests.frames))
        var outSize: UInt32 = 0
        var writable: DarwinBoolean = true
        #expect(ExtAudioFileGetPropertyInfo(file, kExtAudioFileProperty_AudioFile, &outSize, &writable) == noErr && outSize == Self.pointerSize && !writable.boolValue)
        #expect(ExtAudioFileSetProperty(file, kExtAudioFileProperty_AudioFile, Self.pointerSize, &audioFile) == kAudioUnitErr_PropertyNotWritable)
        var small: UInt32 = 4
        #expect(ExtAudioFileGetProperty(file, kExtAudioFileProperty_AudioFile, &small, &audioFile) == kExtAudioFileError_InvalidPropertySize)
        #expect(ExtAudioFileDispose(file) == noErr)
        #expect(AudioFileGetProperty(audioFile, kAudioFilePropertyAudioDataPacketCount, &eight, &packetCount) == kAudio_ParamError, "gone with its ExtAudioFile")

        var created: ExtAudioFileRef?
        var format = ExtAudioFileTests.int16BigEndian
        let aiff = folder.appendingPathComponent("made.aiff")
        #expect(ExtAudioFileCreateWithURL(aiff as NSURL as CFURL, kAudioFileAIFFType, &format, nil, 0, &created) == noErr)
        #expect(ExtAudioFileGetProperty(created, kExtAudioFileProperty_AudioFile, &size, &audioFile) == noErr)
        var type: UInt32 = 0
        var four: UInt32 = 4
        #expect(AudioFileGetProperty(audioFile, kAudioFilePropertyFileFormat, &four, &type) == noErr && type == kAudioFileAIFFType)
        #expect(ExtAudioFileDispose(created) == noErr)
        #expect(FileManager.default.fileExists(atPath: aiff.path), "an ExtAudioFile that made its AudioFileID closes it")
    }

    @Test func wrongArgumentsGetTheirStatus() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("float48k.wav")
        try ExtAudioFileTests.writeTestFile(url)
        var reading: AudioFileID?, writing: AudioFileID?
        #expect(AudioFileOpenURL(url as NSURL as CFURL, AudioFilePermissions(kAudioFileReadPermission), 0, &reading) == noErr)
        var format = ExtAudioFileTests.int16BigEndian
        #expect(AudioFileCreateWithURL(folder.appendingPathComponent("w.aiff") as NSURL as CFURL, kAudioFileAIFFType, &format, 0, &writing) == noErr)
        var wrapped: ExtAudioFileRef?
        #expect(ExtAudioFileWrapAudioFileID(nil, 0, &wrapped) == kAudio_ParamError)
        #expect(ExtAudioFileWrapAudioFileID(reading, 0, nil) == kAudio_ParamError)
        #expect(ExtAudioFileWrapAudioFileID(reading, 1, &wrapped) == kAudioFilePermissionsError, "opened to read, wrapped to write")
        #expect(ExtAudioFileWrapAudioFileID(writing, 0, &wrapped) == kAudioFilePermissionsError, "created, wrapped to read")
        #expect(AudioFileClose(reading) == noErr && AudioFileClose(writing) == noErr)
        #expect(ExtAudioFileWrapAudioFileID(reading, 0, &wrapped) == kAudio_ParamError, "a closed AudioFileID")
    }
}
