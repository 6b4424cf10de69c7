import Foundation
internal import AUCore
internal import AUFiles

// AudioFile over AUFiles (libsndfile): a file's audio data as packets and bytes of its data
// format (linear PCM: a packet is a frame, in the file's sample type and byte order).
// Files are read from any position, and written from start to end (the file appears whole
// at AudioFileClose, as AUFiles writes every file).

/// An `AudioFileID`.
final class AudioFileHandle: @unchecked Sendable {
    static let live = LiveHandles<AudioFileHandle>()

    let reader: AudioFileReader?
    let writer: AudioFileWriter?
    let fileType: UInt32
    let dataFormat: StreamFormat
    /// The data format's codec; nil for compressed data (FLAC, Vorbis, Opus, MPEG), not read
    /// as packets (ExtAudioFile decodes it).
    let codec: PCMBufferCodec?
    private let block: OwnedAudioBuffers
    static let blockFrames = 4096

    /// The layout given while writing (kAudioFilePropertyChannelLayout), before the first packet.
    private var writtenLayout: ChannelLayout?

    init(reader: AudioFileReader?, writer: AudioFileWriter?, fileType: UInt32, dataFormat: StreamFormat) {
        self.reader = reader
        self.writer = writer
        self.fileType = fileType
        self.dataFormat = dataFormat
        codec = PCMBufferCodec(dataFormat).flatMap { $0.format.isInterleaved ? $0 : nil }
        block = OwnedAudioBuffers(channels: dataFormat.channelsPerFrame, capacity: Self.blockFrames)
    }

    /// The file at `path` opened for reading, or the status Apple gives (AudioFileOpenURL,
    /// ExtAudioFileOpenURL).
    static func opening(_ path: String) throws(StatusError) -> AudioFileHandle {
        let reader = try openForReading(path)
        let type: UInt32 = switch (reader.info.format, reader.info.codec) {
        case (.wav, _): kAudioFileWAVEType
        case (.aiff, _): kAudioFileAIFFType
        case (.caf, _): kAudioFileCAFType
        case (.flac, _): kAudioFileFLACType
        case (_, .mpeg(let layer)): layer == 3 ? kAudioFileMP3Type : layer == 2 ? kAudioFileMP2Type : kAudioFileMP1Type
        default: 0   // Ogg and the others: Apple has no type for them
        }
        return AudioFileHandle(reader: reader, writer: nil, fileType: type, dataFormat: fileDataFormat(reader.info))
    }

    /// A new file at `path` of Apple's `type` and data `format`, or the status Apple gives
    /// (AudioFileCreateWithURL, ExtAudioFileCreateWithURL).
    static func creating(_ path: String, type: UInt32, format: AudioStreamBasicDescription, flags: UInt32) throws(StatusError) -> AudioFileHandle {
        let writer = try createWriter(path, type: type, format: format, flags: flags)
        return AudioFileHandle(reader: nil, writer: writer, fileType: type, dataFormat: StreamFormat(format))
    }

    var packetCount: Int { reader?.info.frames ?? writer?.framesWritten ?? 0 }

    /// The file's channel layout: from its channel map (a file read) or as given (a file
    /// written), else Apple's default for its channel count.
    var channelLayout: ChannelLayout {
        reader?.channelMap.map(ChannelLayout.init(positions:)) ?? writtenLayout ?? .standard(channels: dataFormat.channelsPerFrame)
    }

    /// Gives a file being written `layout` (its channel map), before the first packet:
    /// kAudio_ParamError for another channel count; kAudioFileOperationNotSupportedError for
    /// a file being read, after the first packet, for a layout of channels libsndfile names
    /// no position for, or a format that keeps no map (FLAC, AIFF).
    func setChannelLayout(_ layout: ChannelLayout) throws(StatusError) {
        guard let writer, writer.framesWritten == 0 else { throw StatusError(kAudioFileOperationNotSupportedError) }
        guard layout.channelCount == dataFormat.channelsPerFrame else { throw StatusError(kAudio_ParamError) }
        guard let positions = layout.positions else { throw StatusError(kAudioFileOperationNotSupportedError) }
        do {
            try writer.setChannelMap(positions)
        } catch {
            FileHandle.standardError.write(Data("AudioToolbox: \(error.message)\n".utf8))
            throw StatusError(kAudioFileOperationNotSupportedError)
        }
        writtenLayout = layout
    }
    var bytesPerPacket: Int { dataFormat.bytesPerFrame }

    /// Reads `count` packets from `start` (fewer at the end) into `out`; returns how many.
    func readPackets(from start: Int, count: Int, into out: UnsafeMutableRawPointer) throws -> Int {
        guard let reader else { throw StatusError(kAudioFilePermissionsError) }
        guard let codec else { throw StatusError(kAudioFileOperationNotSupportedError) }
        guard start >= 0 else { throw StatusError(kAudioFileInvalidPacketOffsetError) }
        let available = max(0, min(count, reader.info.frames - start))
        guard available > 0 else { return 0 }
        try reader.seek(toFrame: start)
        var done = 0
        while done < available {
            let wanted = min(Self.blockFrames, available - done)
            let got = try reader.read(into: block.buffers(frameCount: wanted))
            guard got > 0 else { break }
            codec.encode(block.buffers(frameCount: got), frames: got, into: [out + done * bytesPerPacket])
            done += got
        }
        return done
    }

    /// Appends `count` packets from `bytes` at packet `start`, which must be the file's end.
    func writePackets(at start: Int, count: Int, from bytes: UnsafeRawPointer) throws {
        guard let writer else { throw StatusError(kAudioFilePermissionsError) }
        guard let codec else { throw StatusError(kAudioFileOperationNotSupportedError) }
        guard start == writer.framesWritten else { throw StatusError(kAudioFileInvalidPacketOffsetError) }
        var done = 0
        while done < count {
            let chunk = min(Self.blockFrames, count - done)
            let view = block.buffers(frameCount: chunk)
            codec.decode([bytes + done * bytesPerPacket], frames: chunk, into: view)
            try writer.write(view)
            done += chunk
        }
    }
}

/// Runs `body` with the live audio file of `pointer`.
func withAudioFile(_ pointer: OpaquePointer?, _ body: (AudioFileHandle) throws -> OSStatus) -> OSStatus {
    withHandle(AudioFileHandle.live, pointer, body)
}

/// `AudioFileOpenURL`: read permission (writing an existing file:
/// kAudioFileOperationNotSupportedError); the type hint is not needed (libsndfile reads the
/// header). Missing: kAudio_FileNotFoundError; not audio: kAudioFileUnsupportedFileTypeError.
/// - Thread: [control]
@_cdecl("AudioFileOpenURL")
public func _AudioFileOpenURL(_ inURL: OpaquePointer?, _ inPermissions: Int8, _ inTypeHint: UInt32, _ outFile: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    guard let outFile, let path = filePath(of: inURL), (1...3).contains(inPermissions) else { return kAudio_ParamError }
    guard inPermissions == kAudioFileReadPermission else { return kAudioFileOperationNotSupportedError }
    apiLock.lock()
    defer { apiLock.unlock() }
    do {
        outFile.pointee = AudioFileHandle.live.register(try AudioFileHandle.opening(path))
        return noErr
    } catch {
        return error.status
    }
}

/// `AudioFileCreateWithURL`: as ExtAudioFileCreateWithURL (types, formats, EraseFile).
/// - Thread: [control]
@_cdecl("AudioFileCreateWithURL")
public func _AudioFileCreateWithURL(
    _ inURL: OpaquePointer?, _ inFileType: UInt32, _ inFormat: UnsafePointer<AudioStreamBasicDescription>?, _ inFlags: UInt32,
    _ outFile: UnsafeMutablePointer<OpaquePointer?>?
) -> OSStatus {
    guard let outFile, let path = filePath(of: inURL), let inFormat else { return kAudio_ParamError }
    apiLock.lock()
    defer { apiLock.unlock() }
    do {
        outFile.pointee = AudioFileHandle.live.register(try AudioFileHandle.creating(path, type: inFileType, format: inFormat.pointee, flags: inFlags))
        return noErr
    } catch {
        return error.status
    }
}

/// `AudioFileClose`: a written file is finished (it appears whole).
/// - Thread: [control]
@_cdecl("AudioFileClose")
public func _AudioFileClose(_ inFile: OpaquePointer?) -> OSStatus {
    withAudioFile(inFile) { file in
        AudioFileHandle.live.unregister(file)
        try file.writer?.finish()
        return noErr
    }
}

/// `AudioFileReadPacketData`: up to `*ioNumPackets` packets from `inStartingPacket` (fewer at
/// the end, 0 past it), `*ioNumBytes` bytes at most; PCM needs no packet descriptions.
/// - Thread: [control]
@_cdecl("AudioFileReadPacketData")
public func _AudioFileReadPacketData(
    _ inFile: OpaquePointer?, _ inUseCache: UInt8, _ ioNumBytes: UnsafeMutablePointer<UInt32>?, _ outDescriptions: OpaquePointer?,
    _ inStartingPacket: Int64, _ ioNumPackets: UnsafeMutablePointer<UInt32>?, _ outBuffer: UnsafeMutableRawPointer?
) -> OSStatus {
    guard let ioNumBytes else { return kAudio_ParamError }
    return readPackets(inFile, inStartingPacket, ioNumPackets, outBuffer, byteLimit: Int(ioNumBytes.pointee), outBytes: ioNumBytes)
}

/// `AudioFileReadPackets`: the older form, whose buffer holds `*ioNumPackets` packets.
/// - Thread: [control]
@_cdecl("AudioFileReadPackets")
public func _AudioFileReadPackets(
    _ inFile: OpaquePointer?, _ inUseCache: UInt8, _ outNumBytes: UnsafeMutablePointer<UInt32>?, _ outDescriptions: OpaquePointer?,
    _ inStartingPacket: Int64, _ ioNumPackets: UnsafeMutablePointer<UInt32>?, _ outBuffer: UnsafeMutableRawPointer?
) -> OSStatus {
    guard let outNumBytes else { return kAudio_ParamError }
    return readPackets(inFile, inStartingPacket, ioNumPackets, outBuffer, byteLimit: .max, outBytes: outNumBytes)
}

/// Reads packets for both forms: as many as `*ioNumPackets` and `byteLimit` allow.
private func readPackets(
    _ inFile: OpaquePointer?, _ start: Int64, _ ioNumPackets: UnsafeMutablePointer<UInt32>?, _ outBuffer: UnsafeMutableRawPointer?,
    byteLimit: Int, outBytes: UnsafeMutablePointer<UInt32>
) -> OSStatus {
    withAudioFile(inFile) { file in
        guard let ioNumPackets, let outBuffer else { return kAudio_ParamError }
        let fitting = min(Int(ioNumPackets.pointee), byteLimit / max(1, file.bytesPerPacket))
        let read = try file.readPackets(from: Int(start), count: fitting, into: outBuffer)
        ioNumPackets.pointee = UInt32(read)
        outBytes.pointee = UInt32(read * file.bytesPerPacket)
        return noErr
    }
}

/// `AudioFileReadBytes`: `*ioNumBytes` bytes of audio data from `inStartingByte` (fewer at
/// the end; past it kAudioFileEndOfFileError).
/// - Thread: [control]
@_cdecl("AudioFileReadBytes")
public func _AudioFileReadBytes(
    _ inFile: OpaquePointer?, _ inUseCache: UInt8, _ inStartingByte: Int64, _ ioNumBytes: UnsafeMutablePointer<UInt32>?, _ outBuffer: UnsafeMutableRawPointer?
) -> OSStatus {
    withAudioFile(inFile) { file in
        guard let ioNumBytes, let outBuffer, inStartingByte >= 0 else { return kAudio_ParamError }
        let size = file.bytesPerPacket
        guard size > 0 else { return kAudioFileOperationNotSupportedError }
        let total = file.packetCount * size
        guard Int(inStartingByte) < total || ioNumBytes.pointee == 0 else { return kAudioFileEndOfFileError }
        let end = min(total, Int(inStartingByte) + Int(ioNumBytes.pointee))
        let firstPacket = Int(inStartingByte) / size, lastPacket = (end + size - 1) / size
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: max(1, (lastPacket - firstPacket) * size), alignment: 16)
        defer { scratch.deallocate() }
        _ = try file.readPackets(from: firstPacket, count: lastPacket - firstPacket, into: scratch)
        outBuffer.copyMemory(from: scratch + (Int(inStartingByte) - firstPacket * size), byteCount: end - Int(inStartingByte))
        ioNumBytes.pointee = UInt32(end - Int(inStartingByte))
        return noErr
    }
}

/// `AudioFileWritePackets`: `*ioNumPackets` packets at `inStartingPacket`, which must be the
/// end of what was written (kAudioFileInvalidPacketOffsetError otherwise). As on Apple, a
/// format of constant packet size (all linear PCM here) takes its byte count from the packets
/// and does not read `inNumBytes`: published code (Learning Core Audio's CH06_AudioConverter)
/// passes the packet count there and works.
/// - Thread: [control]
@_cdecl("AudioFileWritePackets")
public func _AudioFileWritePackets(
    _ inFile: OpaquePointer?, _ inUseCache: UInt8, _ inNumBytes: UInt32, _ inDescriptions: OpaquePointer?, _ inStartingPacket: Int64,
    _ ioNumPackets: UnsafeMutablePointer<UInt32>?, _ inBuffer: UnsafeRawPointer?
) -> OSStatus {
    withAudioFile(inFile) { file in
        guard let ioNumPackets, let inBuffer else { return kAudio_ParamError }
        try file.writePackets(at: Int(inStartingPacket), count: Int(ioNumPackets.pointee), from: inBuffer)
        return noErr
    }
}

/// `AudioFileWriteBytes`: whole packets at the end of what was written.
/// - Thread: [control]
@_cdecl("AudioFileWriteBytes")
public func _AudioFileWriteBytes(
    _ inFile: OpaquePointer?, _ inUseCache: UInt8, _ inStartingByte: Int64, _ ioNumBytes: UnsafeMutablePointer<UInt32>?, _ inBuffer: UnsafeRawPointer?
) -> OSStatus {
    withAudioFile(inFile) { file in
        guard let ioNumBytes, let inBuffer else { return kAudio_ParamError }
        let size = max(1, file.bytesPerPacket)
        guard Int(inStartingByte) % size == 0, Int(ioNumBytes.pointee) % size == 0 else { return kAudioFileInvalidPacketOffsetError }
        try file.writePackets(at: Int(inStartingByte) / size, count: Int(ioNumBytes.pointee) / size, from: inBuffer)
        return noErr
    }
}
