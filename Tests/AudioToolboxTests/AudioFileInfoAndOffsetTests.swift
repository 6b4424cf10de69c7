import AUCore
import AUFiles
import AudioToolbox
import Foundation
import Testing

/// kAudioFilePropertyInfoDictionary and kAudioFilePropertyDataOffset through the C API: the
/// texts libsndfile wrote into a WAV come back under Apple's kAFInfoDictionary_* keys with
/// the approximate duration, read-only as Apple's; the data offset of a WAV, an AIFF and a
/// CAF points at the bytes AudioFileReadBytes gives; the OSStatus of each wrong argument.
@Suite struct AudioFileInfoAndOffsetTests {
    static let frames = 22_050

    /// A mono 16-bit file at 44.1 kHz of a ramp, written by AUFiles (libsndfile) with `tags`.
    static func writeRamp(_ path: String, _ format: AudioFileFormat, tags: [AudioFileTag: String]) throws {
        let writer = try AudioFileWriter(path: path, encoding: AudioFileEncoding(format: format, bitDepth: .int16), sampleRate: 44_100, channels: 1)
        for (tag, text) in tags { try writer.setTag(tag, text) }
        let block = OwnedAudioBuffers(channels: 1, capacity: frames)
        try withExtendedLifetime(block) { () throws(AudioUnitError) in
            let buffers = block.buffers(frameCount: frames)
            for frame in 0..<frames { buffers.channelPointers[0][frame] = Float(frame % 2000 - 1000) / 32768 }
            try writer.write(buffers)
        }
        try writer.finish()
    }

    static func open(_ path: String) -> AudioFileID? {
        var file: AudioFileID?
        #expect(AudioFileOpenURL(URL(fileURLWithPath: path) as NSURL as CFURL, AudioFilePermissions(kAudioFileReadPermission), 0, &file) == noErr)
        return file
    }

    @Test func theTextsLibsndfileWroteComeBackUnderApplesKeys() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("tagged.wav").path
        try Self.writeRamp(path, .wav, tags: [
            .title: "Ramp", .artist: "AUHost", .album: "Tests", .comment: "a sawtooth", .copyright: "none",
            .genre: "Test", .date: "2026-12-04", .trackNumber: "7", .software: "AUFiles",
        ])
        let file = Self.open(path)
        defer { AudioFileClose(file) }
        var size: UInt32 = 0
        var writable: UInt32 = 1
        #expect(AudioFileGetPropertyInfo(file, kAudioFilePropertyInfoDictionary, &size, &writable) == noErr)
        #expect(size == UInt32(MemoryLayout<OpaquePointer>.size) && writable == 0, "read-only, as Apple's")
        var reference: OpaquePointer?
        #expect(AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, &reference) == noErr)
        let info = try #require(reference.map { Unmanaged<NSDictionary>.fromOpaque(UnsafeRawPointer($0)).takeRetainedValue() as? [String: String] } ?? nil)
        let expected: [String: String] = [
            kAFInfoDictionary_Title: "Ramp", kAFInfoDictionary_Artist: "AUHost", kAFInfoDictionary_Album: "Tests",
            kAFInfoDictionary_Comments: "a sawtooth", kAFInfoDictionary_Copyright: "none", kAFInfoDictionary_Genre: "Test",
            kAFInfoDictionary_RecordedDate: "2026-12-04", kAFInfoDictionary_Year: "2026", kAFInfoDictionary_TrackNumber: "7",
            kAFInfoDictionary_ApproximateDurationInSeconds: "0.500",
        ]
        #expect(info.filter { $0.key != kAFInfoDictionary_EncodingApplication } == expected)
        // libsndfile signs the software text with its own name and version.
        #expect(info[kAFInfoDictionary_EncodingApplication]?.hasPrefix("AUFiles") == true)
        #expect(AudioFileSetProperty(file, kAudioFilePropertyInfoDictionary, size, &reference) == kAudioFileOperationNotSupportedError)
        var small: UInt32 = 4
        #expect(AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &small, &reference) == kAudioFileBadPropertySizeError)
        #expect(AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, nil) == kAudio_ParamError)

        // A file without texts still gives its duration; AIFF keeps no album (AUFiles says so).
        let plain = folder.appendingPathComponent("plain.aiff").path
        #expect(throws: AudioUnitError.self) { try Self.writeRamp(plain, .aiff, tags: [.album: "dropped"]) }
        try Self.writeRamp(plain, .aiff, tags: [:])
        let untagged = Self.open(plain)
        defer { AudioFileClose(untagged) }
        #expect(AudioFileGetProperty(untagged, kAudioFilePropertyInfoDictionary, &size, &reference) == noErr)
        let bare = reference.map { Unmanaged<NSDictionary>.fromOpaque(UnsafeRawPointer($0)).takeRetainedValue() as? [String: String] } ?? nil
        #expect(bare == [kAFInfoDictionary_ApproximateDurationInSeconds: "0.500"])
    }

    @Test func theDataOffsetPointsAtTheAudioBytes() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for format in [AudioFileFormat.wav, .aiff, .caf] {
            let path = folder.appendingPathComponent("ramp.\(format)").path
            try Self.writeRamp(path, format, tags: format == .wav ? [.title: "moves the data"] : [:])
            let file = Self.open(path)
            defer { AudioFileClose(file) }
            var offset: Int64 = -1
            var size: UInt32 = 8
            #expect(AudioFileGetProperty(file, kAudioFilePropertyDataOffset, &size, &offset) == noErr)
            var audio = [UInt8](repeating: 0, count: 4000)
            var bytes: UInt32 = 4000
            #expect(audio.withUnsafeMutableBytes { AudioFileReadBytes(file, 0, 0, &bytes, $0.baseAddress) } == noErr && bytes == 4000)
            let contents = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let start = Int(offset)
            try #require(start > 0 && start + 4000 <= contents.count, "\(format): offset \(offset) in \(contents.count) bytes")
            #expect(Array(contents[start..<(start + 4000)]) == audio, "\(format): the file's bytes at offset \(offset) are its audio data")
            #expect(Array(contents[(start - 2)..<(start + 3998)]) != audio, "\(format): and not 2 bytes earlier")
        }
    }

    @Test func wrongArgumentsGetTheirStatus() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("ramp.flac").path
        try Self.writeRamp(path, .flac, tags: [.title: "compressed"])
        let flac = Self.open(path)
        var offset: Int64 = 0
        var size: UInt32 = 8
        #expect(AudioFileGetProperty(flac, kAudioFilePropertyDataOffset, &size, &offset) == kAudio_UnimplementedError, "FLAC's data is no block of bytes")
        var reference: OpaquePointer?
        #expect(AudioFileGetProperty(flac, kAudioFilePropertyInfoDictionary, &size, &reference) == noErr)
        let info = reference.map { Unmanaged<NSDictionary>.fromOpaque(UnsafeRawPointer($0)).takeRetainedValue() as? [String: String] } ?? nil
        #expect(info?[kAFInfoDictionary_Title] == "compressed", "FLAC's Vorbis comment")
        AudioFileClose(flac)

        var format = ExtAudioFileTests.int16BigEndian
        var writing: AudioFileID?
        #expect(AudioFileCreateWithURL(folder.appendingPathComponent("w.caf") as NSURL as CFURL, kAudioFileCAFType, &format, 0, &writing) == noErr)
        #expect(AudioFileGetProperty(writing, kAudioFilePropertyDataOffset, &size, &offset) == kAudio_UnimplementedError, "placed when the file is closed")
        let wav = folder.appendingPathComponent("ramp.wav").path
        try Self.writeRamp(wav, .wav, tags: [:])
        let reading = Self.open(wav)
        var small: UInt32 = 4
        #expect(AudioFileGetProperty(reading, kAudioFilePropertyDataOffset, &small, &offset) == kAudioFileBadPropertySizeError)
        #expect(AudioFileSetProperty(reading, kAudioFilePropertyDataOffset, 8, &offset) == kAudioFileOperationNotSupportedError)
        #expect(AudioFileClose(reading) == noErr && AudioFileClose(writing) == noErr)
        #expect(AudioFileGetProperty(reading, kAudioFilePropertyDataOffset, &size, &offset) == kAudio_ParamError, "a closed file")
    }
}
