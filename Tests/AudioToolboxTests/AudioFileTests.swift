import AudioToolbox
import Foundation
import Testing

/// AudioFile through the C API: a 16-bit big-endian AIFF written with AudioFileWritePackets
/// and AudioFileWriteBytes and read back byte for byte with ReadPacketData, ReadPackets and
/// ReadBytes; its properties; the global type lists; the OSStatus of wrong arguments.
@Suite struct AudioFileTests {
    static let aiff16 = ExtAudioFileTests.int16BigEndian

    @Test func packetsAndBytesGoInAndComeBackTheSame() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("ramp.aiff") as NSURL
        var format = Self.aiff16
        var file: AudioFileID?
        #expect(AudioFileCreateWithURL(url as CFURL, kAudioFileAIFFType, &format, 0, &file) == noErr)
        // 1100 stereo frames of a ramp, big-endian as the file holds them.
        let samples: [Int16] = (0..<2200).map { Int16(truncatingIfNeeded: $0 * 29 - 30_000).bigEndian }
        var packets: UInt32 = 1000
        #expect(samples.withUnsafeBytes { AudioFileWritePackets(file, 0, 4000, nil, 0, &packets, $0.baseAddress) } == noErr)
        var bytes: UInt32 = 400
        #expect(samples.withUnsafeBytes { AudioFileWriteBytes(file, 0, 4000, &bytes, $0.baseAddress! + 4000) } == noErr)
        packets = 10
        #expect(samples.withUnsafeBytes { AudioFileWritePackets(file, 0, 40, nil, 5, &packets, $0.baseAddress) } == kAudioFileInvalidPacketOffsetError, "not at the end")
        bytes = 3
        #expect(samples.withUnsafeBytes { AudioFileWriteBytes(file, 0, 4400, &bytes, $0.baseAddress) } == kAudioFileInvalidPacketOffsetError, "no whole packet")
        var count: UInt64 = 0
        var size: UInt32 = 8
        #expect(AudioFileGetProperty(file, kAudioFilePropertyAudioDataPacketCount, &size, &count) == noErr && count == 1100)
        var buffer = [Int16](repeating: 0, count: 8)
        bytes = 16
        #expect(buffer.withUnsafeMutableBytes { AudioFileReadBytes(file, 0, 0, &bytes, $0.baseAddress) } == kAudioFilePermissionsError, "a file being written")
        #expect(AudioFileClose(file) == noErr)
        #expect(AudioFileClose(file) == kAudio_ParamError, "a closed file")

        #expect(_AudioFileOpenURL(OpaquePointer(Unmanaged.passUnretained(url).toOpaque()), Int8(kAudioFileWritePermission), 0, &file) == kAudioFileOperationNotSupportedError)
        #expect(AudioFileOpenURL(url as CFURL, AudioFilePermissions(kAudioFileReadPermission), 0, &file) == noErr)
        defer { AudioFileClose(file) }
        var read = AudioStreamBasicDescription()
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &read) == noErr)
        #expect(read.mSampleRate == 44_100 && read.mBitsPerChannel == 16 && read.mChannelsPerFrame == 2 && read.mBytesPerPacket == 4)
        #expect(read.mFormatFlags & kAudioFormatFlagIsBigEndian != 0 && read.mFormatFlags & kAudioFormatFlagIsSignedInteger != 0)
        var type: UInt32 = 0
        size = 4
        #expect(AudioFileGetProperty(file, kAudioFilePropertyFileFormat, &size, &type) == noErr && type == kAudioFileAIFFType)
        size = 8
        #expect(AudioFileGetProperty(file, kAudioFilePropertyAudioDataByteCount, &size, &count) == noErr && count == 4400)
        var duration = 0.0
        #expect(AudioFileGetProperty(file, kAudioFilePropertyEstimatedDuration, &size, &duration) == noErr && abs(duration - 1100.0 / 44_100) < 1e-9)
        var packetSize: UInt32 = 0
        size = 4
        #expect(AudioFileGetProperty(file, kAudioFilePropertyMaximumPacketSize, &size, &packetSize) == noErr && packetSize == 4)
        #expect(AudioFileGetProperty(file, kAudioFilePropertyPacketSizeUpperBound, &size, &packetSize) == noErr && packetSize == 4)

        var out = [Int16](repeating: 0, count: 2200)
        packets = 2000
        bytes = 400   // room for 100 packets only
        #expect(out.withUnsafeMutableBytes { AudioFileReadPacketData(file, 0, &bytes, nil, 500, &packets, $0.baseAddress) } == noErr)
        #expect(packets == 100 && bytes == 400 && Array(out.prefix(200)) == Array(samples[1000..<1200]))
        var numBytes: UInt32 = 0
        packets = 1100
        #expect(out.withUnsafeMutableBytes { AudioFileReadPackets(file, 0, &numBytes, nil, 0, &packets, $0.baseAddress) } == noErr)
        #expect(packets == 1100 && numBytes == 4400 && out == samples, "every packet as written")
        packets = 10
        #expect(out.withUnsafeMutableBytes { AudioFileReadPackets(file, 0, &numBytes, nil, 1095, &packets, $0.baseAddress) } == noErr && packets == 5)
        var raw = [UInt8](repeating: 0, count: 10)
        bytes = 10
        #expect(raw.withUnsafeMutableBytes { AudioFileReadBytes(file, 0, 2001, &bytes, $0.baseAddress) } == noErr)
        #expect(bytes == 10 && raw == samples.withUnsafeBytes { Array($0[2001..<2011]) }, "bytes from an odd offset")
        #expect(raw.withUnsafeMutableBytes { AudioFileReadBytes(file, 0, 4400, &bytes, $0.baseAddress) } == kAudioFileEndOfFileError)

        size = 4
        #expect(AudioFileGetProperty(file, kAudioFilePropertyMagicCookieData, &size, &raw) == kAudioFileUnsupportedPropertyError)
        #expect(AudioFileGetProperty(file, kAudioFilePropertyIsOptimized, &size, &raw) == kAudio_UnimplementedError)
        size = 2
        #expect(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &read) == kAudioFileBadPropertySizeError)
        #expect(AudioFileSetProperty(file, kAudioFilePropertyDataFormat, 40, &read) == kAudioFileOperationNotSupportedError)
        var writable: UInt32 = 1
        #expect(AudioFileGetPropertyInfo(file, kAudioFilePropertyAudioDataPacketCount, &size, &writable) == noErr && size == 8 && writable == 0)
        #expect(AudioFileGetPropertyInfo(file, 0x1234, &size, &writable) == kAudioFileUnsupportedPropertyError)
        bytes = 4
        #expect(samples.withUnsafeBytes { AudioFileWriteBytes(file, 0, 4400, &bytes, $0.baseAddress) } == kAudioFilePermissionsError, "a file opened to read")
    }

    @Test func globalInfoAndOpeningErrors() throws {
        var size: UInt32 = 0
        #expect(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_WritableTypes, 0, nil, &size) == noErr && size == 20)
        var types = [UInt32](repeating: 0, count: 5)
        #expect(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_WritableTypes, 0, nil, &size, &types) == noErr)
        #expect(Set(types) == [kAudioFileWAVEType, kAudioFileAIFFType, kAudioFileAIFCType, kAudioFileCAFType, kAudioFileFLACType])
        #expect(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_ReadableTypes, 0, nil, &size) == noErr && size >= 20)
        var small: UInt32 = 4
        #expect(AudioFileGetGlobalInfo(kAudioFileGlobalInfo_WritableTypes, 0, nil, &small, &types) == kAudioFileBadPropertySizeError)
        #expect(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_FileTypeName, 0, nil, &size) == kAudioFileUnsupportedPropertyError)
        #expect(AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_WritableTypes, 0, nil, nil) == kAudio_ParamError)

        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var file: AudioFileID?
        let missing = folder.appendingPathComponent("none.wav") as NSURL
        #expect(_AudioFileOpenURL(OpaquePointer(Unmanaged.passUnretained(missing).toOpaque()), Int8(kAudioFileReadPermission), 0, &file) == kAudio_FileNotFoundError)
        #expect(_AudioFileOpenURL(nil, Int8(kAudioFileReadPermission), 0, &file) == kAudio_ParamError)
        var format = Self.aiff16
        let wave = folder.appendingPathComponent("be.wav") as NSURL
        #expect(_AudioFileCreateWithURL(OpaquePointer(Unmanaged.passUnretained(wave).toOpaque()), kAudioFileWAVEType, &format, 0, &file) == kAudioFileUnsupportedDataFormatError)
        #expect(_AudioFileCreateWithURL(OpaquePointer(Unmanaged.passUnretained(wave).toOpaque()), kAudioFileM4AType, &format, 0, &file) == kAudioFileUnsupportedFileTypeError)
        #expect(AudioFileClose(nil) == kAudio_ParamError)
    }
}
