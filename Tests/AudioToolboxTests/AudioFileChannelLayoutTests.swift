import AudioToolbox
import Foundation
import Testing

/// Channel layouts through the C API: kAudioFilePropertyChannelLayout written before the
/// first packet (libsndfile's channel map: WAV's channel mask, CAF's layout chunk) and read
/// back, a file without a map given Apple's default, kExtAudioFileProperty_FileChannelLayout
/// and ClientChannelLayout (another order of the file's channels remapped, reading and
/// writing), ExtAudioFileCreateWithURL with a layout, and the OSStatus of each wrong argument.
@Suite struct AudioFileChannelLayoutTests {
    static let descriptionsOffset = MemoryLayout<AudioChannelLayout>.offset(of: \.mChannelDescriptions)!

    /// A layout of `tag` in Apple's bytes (no descriptions).
    static func tagged(_ tag: AudioChannelLayoutTag) -> [UInt8] {
        var layout = AudioChannelLayout()
        layout.mChannelLayoutTag = tag
        return withUnsafeBytes(of: &layout) { Array($0.prefix(descriptionsOffset)) }
    }

    /// A layout of one description a label, in Apple's bytes.
    static func described(_ labels: [AudioChannelLabel]) -> [UInt8] {
        var bytes = tagged(kAudioChannelLayoutTag_UseChannelDescriptions)
        withUnsafeBytes(of: UInt32(labels.count)) { bytes.replaceSubrange(8..<12, with: $0) }
        for label in labels {
            var description = AudioChannelDescription(mChannelLabel: label, mChannelFlags: 0, mCoordinates: (0, 0, 0))
            bytes += withUnsafeBytes(of: &description) { Array($0) }
        }
        return bytes
    }

    /// The tag and labels of a layout in Apple's bytes.
    static func parse(_ bytes: [UInt8]) -> (tag: AudioChannelLayoutTag, labels: [AudioChannelLabel]) {
        bytes.withUnsafeBytes { raw in
            let tag = raw.loadUnaligned(as: UInt32.self)
            let count = Int(raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            let stride = MemoryLayout<AudioChannelDescription>.stride
            let labels = (0..<count).compactMap { index -> AudioChannelLabel? in
                let offset = descriptionsOffset + index * stride
                return offset + 4 <= raw.count ? raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self) : nil
            }
            return (tag, labels)
        }
    }

    /// An AudioFileID's channel layout, read with the size GetPropertyInfo gives.
    static func layout(of file: AudioFileID?) -> (tag: AudioChannelLayoutTag, labels: [AudioChannelLabel])? {
        var size: UInt32 = 0
        guard AudioFileGetPropertyInfo(file, kAudioFilePropertyChannelLayout, &size, nil) == noErr else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard bytes.withUnsafeMutableBytes({ AudioFileGetProperty(file, kAudioFilePropertyChannelLayout, &size, $0.baseAddress) }) == noErr else { return nil }
        return parse(bytes)
    }

    /// An ExtAudioFile's layout property `id`.
    static func layout(of file: ExtAudioFileRef?, _ id: ExtAudioFilePropertyID) -> (tag: AudioChannelLayoutTag, labels: [AudioChannelLabel])? {
        var size: UInt32 = 0
        guard ExtAudioFileGetPropertyInfo(file, id, &size, nil) == noErr else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard bytes.withUnsafeMutableBytes({ ExtAudioFileGetProperty(file, id, &size, $0.baseAddress) }) == noErr else { return nil }
        return parse(bytes)
    }

    static func format(channels: UInt32, bigEndian: Bool) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked | (bigEndian ? kAudioFormatFlagIsBigEndian : 0),
            mBytesPerPacket: 2 * channels, mFramesPerPacket: 1, mBytesPerFrame: 2 * channels, mChannelsPerFrame: channels, mBitsPerChannel: 16, mReserved: 0)
    }

    /// Creates `name` of `type` with `channels`, gives it `layout` (the status returned), writes 100 silent packets and closes it.
    static func write(_ folder: URL, _ name: String, _ type: AudioFileTypeID, channels: UInt32, layout: [UInt8]?) -> OSStatus {
        var format = format(channels: channels, bigEndian: type != kAudioFileWAVEType)
        var file: AudioFileID?
        guard AudioFileCreateWithURL(folder.appendingPathComponent(name) as NSURL as CFURL, type, &format, 0, &file) == noErr else { return -1 }
        var status: OSStatus = noErr
        if let layout { status = layout.withUnsafeBytes { AudioFileSetProperty(file, kAudioFilePropertyChannelLayout, UInt32($0.count), $0.baseAddress) } }
        let silence = [Int16](repeating: 0, count: 100 * Int(channels))
        var packets: UInt32 = 100
        #expect(silence.withUnsafeBytes { AudioFileWritePackets(file, 0, UInt32($0.count), nil, 0, &packets, $0.baseAddress) } == noErr)
        #expect(AudioFileClose(file) == noErr)
        return status
    }

    static func open(_ folder: URL, _ name: String) -> AudioFileID? {
        var file: AudioFileID?
        #expect(AudioFileOpenURL(folder.appendingPathComponent(name) as NSURL as CFURL, AudioFilePermissions(kAudioFileReadPermission), 0, &file) == noErr)
        return file
    }

    @Test func aLayoutWrittenBeforeTheFirstPacketIsReadBack() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let surround = Self.tagged(kAudioChannelLayoutTag_MPEG_5_1_A)
        let centerAndLFE = Self.described([kAudioChannelLabel_Center, kAudioChannelLabel_LFEScreen])
        for type in [kAudioFileWAVEType, kAudioFileCAFType] {
            let suffix = type == kAudioFileWAVEType ? "wav" : "caf"
            #expect(Self.write(folder, "51.\(suffix)", type, channels: 6, layout: surround) == noErr)
            let file = Self.open(folder, "51.\(suffix)")
            let read = Self.layout(of: file)
            #expect(read?.tag == kAudioChannelLayoutTag_MPEG_5_1_A, "\(suffix): 5.1 (L R C LFE Ls Rs) read back as its tag, not \(String(describing: read))")
            AudioFileClose(file)
        }
        #expect(Self.write(folder, "c-lfe.wav", kAudioFileWAVEType, channels: 2, layout: centerAndLFE) == noErr)
        let file = Self.open(folder, "c-lfe.wav")
        let read = Self.layout(of: file)
        #expect(read?.tag == kAudioChannelLayoutTag_UseChannelDescriptions && read?.labels == [kAudioChannelLabel_Center, kAudioChannelLabel_LFEScreen],
                "a layout no tag names comes back as descriptions: \(String(describing: read))")
        AudioFileClose(file)
    }

    @Test func aFileWithoutAMapHasApplesDefaultLayout() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (channels, tag) in [(UInt32(1), kAudioChannelLayoutTag_Mono), (2, kAudioChannelLayoutTag_Stereo), (3, kAudioChannelLayoutTag_Unknown | 3)] {
            #expect(Self.write(folder, "\(channels).aiff", kAudioFileAIFFType, channels: channels, layout: nil) == noErr)
            let file = Self.open(folder, "\(channels).aiff")
            #expect(Self.layout(of: file)?.tag == tag, "\(channels) channels")
            AudioFileClose(file)
            var ext: ExtAudioFileRef?
            #expect(ExtAudioFileOpenURL(folder.appendingPathComponent("\(channels).aiff") as NSURL as CFURL, &ext) == noErr)
            #expect(Self.layout(of: ext, kExtAudioFileProperty_FileChannelLayout)?.tag == tag)
            #expect(Self.layout(of: ext, kExtAudioFileProperty_ClientChannelLayout)?.tag == tag, "the client's is the file's until set")
            ExtAudioFileDispose(ext)
        }
    }

    /// Sets an ExtAudioFile's client layout; the status.
    static func setClientLayout(_ file: ExtAudioFileRef?, _ layout: [UInt8], size: Int? = nil) -> OSStatus {
        layout.withUnsafeBytes { ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientChannelLayout, UInt32(size ?? $0.count), $0.baseAddress) }
    }

    /// The next 6-channel 16-bit frame read through ExtAudioFile.
    static func readNextFrame(_ file: ExtAudioFileRef?) -> [Int16] {
        var frame = [Int16](repeating: 0, count: 6)
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        defer { free(list.unsafeMutablePointer) }
        var count: UInt32 = 1
        let status = frame.withUnsafeMutableBytes { bytes in
            list[0] = AudioBuffer(mNumberChannels: 6, mDataByteSize: 12, mData: bytes.baseAddress)
            return ExtAudioFileRead(file, &count, list.unsafeMutablePointer)
        }
        #expect(status == noErr && count == 1)
        return frame.map { Int16(bigEndian: $0) }
    }

    @Test func extAudioFileLayoutsAndRemapping() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("made.caf")
        var format = Self.format(channels: 6, bigEndian: true)
        var file: ExtAudioFileRef?
        let surround = Self.tagged(kAudioChannelLayoutTag_MPEG_5_1_A)   // L R C LFE Ls Rs
        let reordered = Self.tagged(kAudioChannelLayoutTag_MPEG_5_1_C)  // L C R Ls Rs LFE
        let created = surround.withUnsafeBytes {
            ExtAudioFileCreateWithURL(url as NSURL as CFURL, kAudioFileCAFType, &format, $0.baseAddress?.assumingMemoryBound(to: AudioChannelLayout.self), 0, &file)
        }
        #expect(created == noErr)
        #expect(Self.layout(of: file, kExtAudioFileProperty_FileChannelLayout)?.tag == kAudioChannelLayoutTag_MPEG_5_1_A)
        // Written in the client's order (L C R Ls Rs LFE = 1000 … 6000), stored in the file's.
        #expect(Self.setClientLayout(file, reordered) == noErr)
        let frame: [Int16] = ([1000, 2000, 3000, 4000, 5000, 6000, 1100, 2100, 3100, 4100, 5100, 6100] as [Int16]).map { $0.bigEndian }
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        defer { free(list.unsafeMutablePointer) }
        frame.withUnsafeBytes { bytes in
            list[0] = AudioBuffer(mNumberChannels: 6, mDataByteSize: 24, mData: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            #expect(ExtAudioFileWrite(file, 2, list.unsafeMutablePointer) == noErr)
        }
        #expect(Self.setClientLayout(file, surround) == kExtAudioFileError_InvalidOperationOrder, "after the first frame")
        #expect(ExtAudioFileDispose(file) == noErr)

        var audioFile: AudioFileID?
        #expect(AudioFileOpenURL(url as NSURL as CFURL, AudioFilePermissions(kAudioFileReadPermission), 0, &audioFile) == noErr)
        var stored = [Int16](repeating: 0, count: 6)
        var packets: UInt32 = 1, bytes: UInt32 = 0
        #expect(stored.withUnsafeMutableBytes { AudioFileReadPackets(audioFile, 0, &bytes, nil, 0, &packets, $0.baseAddress) } == noErr)
        #expect(stored.map { Int16(bigEndian: $0) } == [1000, 3000, 2000, 6000, 4000, 5000], "L R C LFE Ls Rs in the file")
        AudioFileClose(audioFile)

        #expect(ExtAudioFileOpenURL(url as NSURL as CFURL, &file) == noErr)
        defer { ExtAudioFileDispose(file) }
        #expect(Self.layout(of: file, kExtAudioFileProperty_FileChannelLayout)?.tag == kAudioChannelLayoutTag_MPEG_5_1_A, "written by ExtAudioFileCreateWithURL")
        var outSize: UInt32 = 0
        var writable: DarwinBoolean = false
        #expect(ExtAudioFileGetPropertyInfo(file, kExtAudioFileProperty_ClientChannelLayout, &outSize, &writable) == noErr && writable.boolValue)
        // Read in another order of the file's channels: remapped.
        #expect(Self.setClientLayout(file, reordered) == noErr)
        #expect(Self.layout(of: file, kExtAudioFileProperty_ClientChannelLayout)?.tag == kAudioChannelLayoutTag_MPEG_5_1_C, "read back as set")
        #expect(Self.readNextFrame(file) == [1000, 2000, 3000, 4000, 5000, 6000], "L C R Ls Rs LFE as the client asked")
        let byLabels = Self.described([kAudioChannelLabel_LFEScreen, kAudioChannelLabel_Left, kAudioChannelLabel_Right, kAudioChannelLabel_Center,
                                       kAudioChannelLabel_LeftSurround, kAudioChannelLabel_RightSurround])
        #expect(Self.setClientLayout(file, byLabels) == noErr)
        let client = Self.layout(of: file, kExtAudioFileProperty_ClientChannelLayout)
        #expect(client?.tag == kAudioChannelLayoutTag_UseChannelDescriptions && client?.labels.first == kAudioChannelLabel_LFEScreen)
        #expect(Self.readNextFrame(file) == [6100, 1100, 3100, 2100, 4100, 5100], "the next frame as LFE L R C Ls Rs by descriptions")
        // An unknown layout of 6 channels: the file's order.
        #expect(Self.setClientLayout(file, Self.tagged(kAudioChannelLayoutTag_Unknown | 6)) == noErr)
        #expect(Self.layout(of: file, kExtAudioFileProperty_ClientChannelLayout)?.tag == kAudioChannelLayoutTag_Unknown | 6)
        #expect(ExtAudioFileSeek(file, 0) == noErr)
        #expect(Self.readNextFrame(file) == [1000, 3000, 2000, 6000, 4000, 5000])

        #expect(Self.setClientLayout(file, Self.tagged(kAudioChannelLayoutTag_Stereo)) == kExtAudioFileError_InvalidChannelMap, "2 channels for a 6-channel file")
        #expect(Self.setClientLayout(file, Self.tagged(kAudioChannelLayoutTag_Unknown | 2)) == kExtAudioFileError_InvalidChannelMap, "2 unknown channels for 6")
        let twice = Self.described([kAudioChannelLabel_Left, kAudioChannelLabel_Left, kAudioChannelLabel_Center, kAudioChannelLabel_LFEScreen,
                                    kAudioChannelLabel_LeftSurround, kAudioChannelLabel_RightSurround])
        #expect(Self.setClientLayout(file, twice) == kExtAudioFileError_InvalidChannelMap, "Left twice, no Right")
        #expect(Self.setClientLayout(file, Self.tagged(kAudioChannelLayoutTag_MPEG_7_1_C)) == kExtAudioFileError_InvalidChannelMap, "8 channels")
        #expect(Self.setClientLayout(file, surround, size: 4) == kExtAudioFileError_InvalidPropertySize)
        #expect(surround.withUnsafeBytes { ExtAudioFileSetProperty(file, kExtAudioFileProperty_FileChannelLayout, UInt32($0.count), $0.baseAddress) } == kExtAudioFileError_InvalidOperationOrder,
                "a file being read, after its client layout")
        var small: UInt32 = 4
        var few = [UInt8](repeating: 0, count: 4)
        #expect(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileChannelLayout, &small, &few) == kExtAudioFileError_InvalidPropertySize)
    }

    @Test func aLayoutSetOverARead5_1FileIsTheOneRemappedFrom() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 6 channels without a map (AIFF keeps none): 1000 … 6000 as the file holds them.
        let url = folder.appendingPathComponent("six.aiff")
        var format = Self.format(channels: 6, bigEndian: true)
        var audioFile: AudioFileID?
        #expect(AudioFileCreateWithURL(url as NSURL as CFURL, kAudioFileAIFFType, &format, 0, &audioFile) == noErr)
        let frame: [Int16] = ([1000, 2000, 3000, 4000, 5000, 6000] as [Int16]).map { $0.bigEndian }
        var one: UInt32 = 1
        #expect(frame.withUnsafeBytes { AudioFileWritePackets(audioFile, 0, 12, nil, 0, &one, $0.baseAddress) } == noErr)
        #expect(AudioFileClose(audioFile) == noErr)
        var file: ExtAudioFileRef?
        #expect(ExtAudioFileOpenURL(url as NSURL as CFURL, &file) == noErr)
        defer { ExtAudioFileDispose(file) }
        #expect(Self.layout(of: file, kExtAudioFileProperty_FileChannelLayout)?.tag == kAudioChannelLayoutTag_Unknown | 6)
        let set = Self.tagged(kAudioChannelLayoutTag_MPEG_5_1_A)
        #expect(Self.tagged(kAudioChannelLayoutTag_Stereo).withUnsafeBytes {
            ExtAudioFileSetProperty(file, kExtAudioFileProperty_FileChannelLayout, UInt32($0.count), $0.baseAddress)
        } == kExtAudioFileError_InvalidChannelMap, "2 channels for 6")
        #expect(set.withUnsafeBytes { ExtAudioFileSetProperty(file, kExtAudioFileProperty_FileChannelLayout, UInt32($0.count), $0.baseAddress) } == noErr)
        #expect(Self.layout(of: file, kExtAudioFileProperty_FileChannelLayout)?.tag == kAudioChannelLayoutTag_MPEG_5_1_A, "the layout set over the file's")
        #expect(Self.setClientLayout(file, Self.tagged(kAudioChannelLayoutTag_MPEG_5_1_C)) == noErr)
        #expect(Self.readNextFrame(file) == [1000, 3000, 2000, 5000, 6000, 4000], "remapped from the layout set: L C R Ls Rs LFE")
    }

    @Test func wrongArgumentsGetTheirStatus() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stereo = Self.tagged(kAudioChannelLayoutTag_Stereo)
        #expect(Self.write(folder, "three.wav", kAudioFileWAVEType, channels: 3, layout: stereo) == kAudio_ParamError, "2 channels for 3")
        #expect(Self.write(folder, "discrete.wav", kAudioFileWAVEType, channels: 2, layout: Self.tagged(kAudioChannelLayoutTag_Unknown | 2)) == kAudioFileOperationNotSupportedError,
                "channels libsndfile names no position for")
        #expect(Self.write(folder, "short.wav", kAudioFileWAVEType, channels: 2, layout: Array(stereo.prefix(6))) == kAudioFileBadPropertySizeError)
        var format = Self.format(channels: 2, bigEndian: false)
        var file: AudioFileID?
        #expect(AudioFileCreateWithURL(folder.appendingPathComponent("late.wav") as NSURL as CFURL, kAudioFileWAVEType, &format, 0, &file) == noErr)
        var writable: UInt32 = 0
        #expect(AudioFileGetPropertyInfo(file, kAudioFilePropertyChannelLayout, nil, &writable) == noErr && writable == 1)
        let silence = [Int16](repeating: 0, count: 20)
        var packets: UInt32 = 10
        #expect(silence.withUnsafeBytes { AudioFileWritePackets(file, 0, 40, nil, 0, &packets, $0.baseAddress) } == noErr)
        #expect(stereo.withUnsafeBytes { AudioFileSetProperty(file, kAudioFilePropertyChannelLayout, UInt32($0.count), $0.baseAddress) } == kAudioFileOperationNotSupportedError,
                "after the first packet")
        #expect(AudioFileSetProperty(file, kAudioFilePropertyChannelLayout, 12, nil) == kAudio_ParamError)
        #expect(AudioFileClose(file) == noErr)

        let reading = Self.open(folder, "late.wav")
        #expect(AudioFileGetPropertyInfo(reading, kAudioFilePropertyChannelLayout, nil, &writable) == noErr && writable == 0)
        #expect(stereo.withUnsafeBytes { AudioFileSetProperty(reading, kAudioFilePropertyChannelLayout, UInt32($0.count), $0.baseAddress) } == kAudioFileOperationNotSupportedError,
                "a file being read")
        var size: UInt32 = 4
        var bytes = [UInt8](repeating: 0, count: 4)
        #expect(AudioFileGetProperty(reading, kAudioFilePropertyChannelLayout, &size, &bytes) == kAudioFileBadPropertySizeError)
        AudioFileClose(reading)

        var flac = AudioStreamBasicDescription(mSampleRate: 48_000, mFormatID: kAudioFormatFLAC, mFormatFlags: 1, mBytesPerPacket: 0, mFramesPerPacket: 0,
                                               mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        var ext: ExtAudioFileRef?
        let created = stereo.withUnsafeBytes {
            ExtAudioFileCreateWithURL(folder.appendingPathComponent("a.flac") as NSURL as CFURL, kAudioFileFLACType, &flac, $0.baseAddress?.assumingMemoryBound(to: AudioChannelLayout.self), 0, &ext)
        }
        #expect(created == kAudioFileOperationNotSupportedError, "FLAC keeps no channel map")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("a.flac").path))
    }
}
