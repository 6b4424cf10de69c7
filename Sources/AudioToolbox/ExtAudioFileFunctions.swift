import Foundation
internal import AUCore
internal import AUFiles

// ExtAudioFile's C functions over AUFiles (libsndfile) and libsamplerate: WAV, AIFF, AIFC,
// CAF and FLAC written, whatever libsndfile reads read; the client format any linear PCM.

/// The file data format (ASBD) of a file libsndfile opened, from its container and encoding:
/// linear PCM as it is stored; compressed data under Apple's format IDs (FLAC `flac` with
/// Apple's source bit-depth flag, Opus `opus` in 960-frame packets, MPEG layer 3 `.mp3` in
/// 1152-frame packets, layers 1 and 2 `.mp1` / `.mp2`) and Ogg Vorbis as `vorb` (Apple
/// has none); the rest (ADPCM, GSM...) as libsndfile's decoded linear PCM.
func fileDataFormat(_ info: AudioFileInfo) -> StreamFormat {
    let encoding = info.encodingName.lowercased()
    let bigEndian = info.format == .aiff || info.format == .caf
    var flags: UInt32 = kAudioFormatFlagIsPacked | (bigEndian ? kAudioFormatFlagIsBigEndian : 0)
    var bits = 16
    if encoding.contains("float") {
        flags |= kAudioFormatFlagIsFloat
        bits = encoding.contains("64") ? 64 : 32
    } else {
        if !encoding.contains("unsigned") { flags |= kAudioFormatFlagIsSignedInteger }
        bits = [8, 16, 24, 32].first { encoding.contains("\($0) bit") } ?? 16
    }
    let compressed: (id: AUCore.FourCharCode, flags: UInt32, framesPerPacket: Int)? = switch info.codec {
    case .linearPCM, .otherCompressed: nil
    // kAppleLosslessFormatFlag_16BitSourceData … _32BitSourceData, as Apple's FLAC decoder gives them.
    case .flac: ("flac", [16: 1, 20: 2, 24: 3, 32: 4][bits] ?? 0, 0)
    case .vorbis: ("vorb", 0, 0)
    case .opus: ("opus", 0, 960)
    case .mpeg(let layer): (layer == 3 ? ".mp3" : layer == 2 ? ".mp2" : ".mp1", 0, layer == 1 ? 384 : 1152)
    }
    if let compressed {
        return StreamFormat(
            sampleRate: info.sampleRate, formatID: compressed.id, formatFlags: FormatFlags(rawValue: compressed.flags), bytesPerPacket: 0,
            framesPerPacket: compressed.framesPerPacket, bytesPerFrame: 0, channelsPerFrame: info.channels, bitsPerChannel: 0)
    }
    let bytes = bits / 8 * info.channels
    return StreamFormat(
        sampleRate: info.sampleRate, formatID: "lpcm", formatFlags: FormatFlags(rawValue: flags), bytesPerPacket: bytes, framesPerPacket: 1,
        bytesPerFrame: bytes, channelsPerFrame: info.channels, bitsPerChannel: bits)
}

/// The encoding libsndfile writes for Apple's file type and data format, or the status:
/// kAudioFileUnsupportedFileTypeError for a type it does not write,
/// kAudioFileUnsupportedDataFormatError for a format the type cannot hold here (compressed
/// formats but FLAC, 8- and 32-bit integers, little-endian AIFF, big-endian WAVE).
func fileEncoding(type: UInt32, format: AudioStreamBasicDescription) -> Result<AudioFileEncoding, StatusError> {
    let container: AudioFileFormat
    switch type {
    case kAudioFileWAVEType: container = .wav
    case kAudioFileAIFFType, kAudioFileAIFCType: container = .aiff
    case kAudioFileCAFType: container = .caf
    case kAudioFileFLACType: container = .flac
    default: return .failure(StatusError(kAudioFileUnsupportedFileTypeError))
    }
    let bigEndian = format.mFormatFlags & kAudioFormatFlagIsBigEndian != 0
    let depth: BitDepth?
    switch (format.mFormatID, format.mBitsPerChannel, format.mFormatFlags & kAudioFormatFlagIsFloat != 0) {
    case (kAudioFormatLinearPCM, 16, false): depth = .int16
    case (kAudioFormatLinearPCM, 24, false): depth = .int24
    case (kAudioFormatLinearPCM, 32, true): depth = .float32
    case (kAudioFormatFLAC, _, _) where container == .flac: depth = format.mFormatFlags == 3 ? .int24 : .int16
    default: depth = nil
    }
    guard let depth, !(container == .wav && bigEndian), !(type == kAudioFileAIFFType && !bigEndian && depth != .float32),
          format.mSampleRate > 0, format.mChannelsPerFrame > 0,
          let encoding = try? AudioFileEncoding(format: container, bitDepth: depth)
    else { return .failure(StatusError(kAudioFileUnsupportedDataFormatError)) }
    return .success(encoding)
}

/// `ExtAudioFileOpenURL`: a file to read; kAudio_FileNotFoundError when missing,
/// kAudioFileUnsupportedFileTypeError for what libsndfile does not read,
/// kAudioFileInvalidFileError for a damaged file.
/// - Thread: [control]
@_cdecl("ExtAudioFileOpenURL")
public func _ExtAudioFileOpenURL(_ inURL: OpaquePointer?, _ outFile: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    guard let outFile, let path = filePath(of: inURL) else { return kAudio_ParamError }
    apiLock.lock()
    defer { apiLock.unlock() }
    do {
        let audioFile = try AudioFileHandle.opening(path)
        outFile.pointee = ExtAudioFileHandle.live.register(try ExtAudioFileHandle(audioFile: audioFile, owns: true))
        _ = AudioFileHandle.live.register(audioFile)
        return noErr
    } catch {
        return status(of: error)
    }
}

/// `ExtAudioFileWrapAudioFileID`: an ExtAudioFile over an AudioFileID the program opened
/// (`inForWriting` 0) or created (1); the AudioFileID stays the program's: ExtAudioFileDispose
/// writes what the converter holds and leaves it open, for the program's AudioFileClose.
/// A NULL or closed AudioFileID is kAudio_ParamError; one open the other way
/// kAudioFilePermissionsError.
/// - Thread: [control]
@_cdecl("ExtAudioFileWrapAudioFileID")
public func _ExtAudioFileWrapAudioFileID(_ inFileID: OpaquePointer?, _ inForWriting: UInt8, _ outFile: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    withAudioFile(inFileID) { audioFile in
        guard let outFile else { return kAudio_ParamError }
        guard (inForWriting != 0 ? audioFile.writer != nil : audioFile.reader != nil) else { return kAudioFilePermissionsError }
        outFile.pointee = ExtAudioFileHandle.live.register(try ExtAudioFileHandle(audioFile: audioFile, owns: false))
        return noErr
    }
}

/// A reader of the file at `path`, or the status Apple gives (ExtAudioFileOpenURL,
/// AudioFileOpenURL), the reason on standard error.
func openForReading(_ path: String) throws(StatusError) -> AudioFileReader {
    do {
        return try AudioFileReader(path: path)
    } catch {
        FileHandle.standardError.write(Data("AudioToolbox: \(error.message)\n".utf8))
        switch error.code {
        case .invalidFilePath: throw StatusError(AtomicFile.NodeKind(path: path) == .missing ? kAudio_FileNotFoundError : kAudioFilePermissionsError)
        case .unknownFileType, .formatNotSupported: throw StatusError(kAudioFileUnsupportedFileTypeError)
        default: throw StatusError(kAudioFileInvalidFileError)
        }
    }
}

/// `ExtAudioFileCreateWithURL`: a new file of `inFileType` in `inStreamDesc`'s data format
/// (written atomically: it appears whole at ExtAudioFileDispose). An existing file is kept
/// (kAudioFilePermissionsError) unless `inFlags` has kAudioFileFlags_EraseFile; a channel
/// layout is written as kAudioFilePropertyChannelLayout is (its errors are
/// AudioFileHandle.setChannelLayout's).
/// - Thread: [control]
@_cdecl("ExtAudioFileCreateWithURL")
public func _ExtAudioFileCreateWithURL(
    _ inURL: OpaquePointer?, _ inFileType: UInt32, _ inStreamDesc: UnsafePointer<AudioStreamBasicDescription>?,
    _ inChannelLayout: UnsafePointer<AudioChannelLayout>?, _ inFlags: UInt32, _ outFile: UnsafeMutablePointer<OpaquePointer?>?
) -> OSStatus {
    guard let outFile, let path = filePath(of: inURL), let inStreamDesc else { return kAudio_ParamError }
    apiLock.lock()
    defer { apiLock.unlock() }
    do {
        let audioFile = try AudioFileHandle.creating(path, type: inFileType, format: inStreamDesc.pointee, flags: inFlags)
        if let inChannelLayout {
            // Apple's AudioChannelLayout is variable-sized: its descriptions follow it.
            let layout = UnsafeRawPointer(inChannelLayout)
            let count = layout.loadUnaligned(as: UInt32.self) == kAudioChannelLayoutTag_UseChannelDescriptions ? Int(layout.loadUnaligned(fromByteOffset: 8, as: UInt32.self)) : 0
            let size = MemoryLayout<AudioChannelLayout>.offset(of: \.mChannelDescriptions)! + count * MemoryLayout<AudioChannelDescription>.stride
            guard let value = ChannelLayout.load(layout, size: size) else { throw StatusError(kAudio_ParamError) }
            do {
                try audioFile.setChannelLayout(value)
            } catch {
                audioFile.writer?.cancel()
                throw error
            }
        }
        outFile.pointee = ExtAudioFileHandle.live.register(try ExtAudioFileHandle(audioFile: audioFile, owns: true))
        _ = AudioFileHandle.live.register(audioFile)
        return noErr
    } catch {
        return status(of: error)
    }
}

/// A writer of a new file at `path` of Apple's `type` and data `format`, or the status
/// (ExtAudioFileCreateWithURL, AudioFileCreateWithURL): an existing file is kept
/// (kAudioFilePermissionsError) unless `flags` has kAudioFileFlags_EraseFile.
func createWriter(_ path: String, type: UInt32, format: AudioStreamBasicDescription, flags: UInt32) throws(StatusError) -> AudioFileWriter {
    let encoding = try fileEncoding(type: type, format: format).get()
    let erase = flags & kAudioFileFlags_EraseFile != 0
    if !erase, AtomicFile.NodeKind(path: path) != .missing { throw StatusError(kAudioFilePermissionsError) }
    do {
        return try AudioFileWriter(path: path, encoding: encoding, sampleRate: format.mSampleRate, channels: Int(format.mChannelsPerFrame), overwrite: erase)
    } catch {
        FileHandle.standardError.write(Data("AudioToolbox: \(error.message)\n".utf8))
        throw StatusError(error.code == .formatNotSupported ? kAudioFileUnsupportedDataFormatError : kAudioFilePermissionsError)
    }
}

/// `ExtAudioFileDispose`: a written file is finished (it appears whole) and closed, unless
/// its AudioFileID is the program's (ExtAudioFileWrapAudioFileID).
/// - Thread: [control]
@_cdecl("ExtAudioFileDispose")
public func _ExtAudioFileDispose(_ inFile: OpaquePointer?) -> OSStatus {
    withHandle(ExtAudioFileHandle.live, inFile) { file in
        ExtAudioFileHandle.live.unregister(file)
        try file.close()
        return noErr
    }
}

/// `ExtAudioFileRead`: up to `*ioNumberFrames` client frames into `ioData` (one buffer
/// interleaved, one a channel otherwise, each large enough); `*ioNumberFrames` becomes the
/// count read, 0 at the end of the file. Data the decoder cannot read (a damaged or cut
/// compressed file) is kAudioFileInvalidFileError, `*ioNumberFrames` 0, the reason on
/// standard error.
/// - Thread: [control]
@_cdecl("ExtAudioFileRead")
public func _ExtAudioFileRead(_ inFile: OpaquePointer?, _ ioNumberFrames: UnsafeMutablePointer<UInt32>?, _ ioData: UnsafeMutablePointer<AudioBufferList>?) -> OSStatus {
    withHandle(ExtAudioFileHandle.live, inFile) { file in
        guard let ioNumberFrames, let ioData else { return kAudio_ParamError }
        do {
            ioNumberFrames.pointee = UInt32(try file.read(frames: Int(ioNumberFrames.pointee), into: ioData))
        } catch let error as AudioUnitError where error.code == .invalidFile {
            FileHandle.standardError.write(Data("AudioToolbox: \(error.message)\n".utf8))
            ioNumberFrames.pointee = 0
            return kAudioFileInvalidFileError
        }
        return noErr
    }
}

/// `ExtAudioFileWrite`: `inNumberFrames` client frames from `ioData`.
/// - Thread: [control]
@_cdecl("ExtAudioFileWrite")
public func _ExtAudioFileWrite(_ inFile: OpaquePointer?, _ inNumberFrames: UInt32, _ ioData: UnsafePointer<AudioBufferList>?) -> OSStatus {
    withHandle(ExtAudioFileHandle.live, inFile) { file in
        guard let ioData else { return kAudio_ParamError }
        try file.write(frames: Int(inNumberFrames), from: ioData)
        return noErr
    }
}

/// `ExtAudioFileWriteAsync`: written at once on the calling thread (ExtAudioFileWrite), not
/// from a render callback; a call with 0 frames and NULL data (Apple's priming call) does
/// nothing.
/// - Thread: [control]
@_cdecl("ExtAudioFileWriteAsync")
public func _ExtAudioFileWriteAsync(_ inFile: OpaquePointer?, _ inNumberFrames: UInt32, _ ioData: UnsafePointer<AudioBufferList>?) -> OSStatus {
    if inNumberFrames == 0 && ioData == nil { return withHandle(ExtAudioFileHandle.live, inFile) { _ in noErr } }
    return _ExtAudioFileWrite(inFile, inNumberFrames, ioData)
}

/// `ExtAudioFileSeek`: to a client frame of a file being read (kExtAudioFileError_InvalidSeek
/// past the end, kExtAudioFileError_InvalidOperationOrder on a file being written).
/// - Thread: [control]
@_cdecl("ExtAudioFileSeek")
public func _ExtAudioFileSeek(_ inFile: OpaquePointer?, _ inFrameOffset: Int64) -> OSStatus {
    withHandle(ExtAudioFileHandle.live, inFile) { file in
        try file.seek(toClientFrame: Int(inFrameOffset))
        return noErr
    }
}

/// `ExtAudioFileTell`: the client frame the next read returns.
/// - Thread: [control]
@_cdecl("ExtAudioFileTell")
public func _ExtAudioFileTell(_ inFile: OpaquePointer?, _ outFrameOffset: UnsafeMutablePointer<Int64>?) -> OSStatus {
    withHandle(ExtAudioFileHandle.live, inFile) { file in
        guard let outFrameOffset else { return kAudio_ParamError }
        outFrameOffset.pointee = Int64(file.clientPosition)
        return noErr
    }
}

/// The size and writability of the properties carried: FileDataFormat, ClientDataFormat
/// (writable), FileLengthFrames, FileChannelLayout (writable), ClientChannelLayout
/// (writable), AudioFile; the others Apple defines are kAudio_UnimplementedError, an unknown
/// ID kExtAudioFileError_InvalidProperty.
private func extAudioFilePropertyInfo(_ file: ExtAudioFileHandle, _ id: UInt32) -> Result<(size: Int, writable: Bool), StatusError> {
    switch id {
    case kExtAudioFileProperty_FileDataFormat: .success((MemoryLayout<AudioStreamBasicDescription>.size, false))
    case kExtAudioFileProperty_ClientDataFormat: .success((MemoryLayout<AudioStreamBasicDescription>.size, true))
    case kExtAudioFileProperty_FileLengthFrames: .success((8, false))
    case kExtAudioFileProperty_FileChannelLayout: .success((file.fileLayout.byteSize, true))
    case kExtAudioFileProperty_ClientChannelLayout: .success(((file.clientLayout ?? file.fileLayout).byteSize, true))
    case kExtAudioFileProperty_AudioFile: .success((MemoryLayout<OpaquePointer>.size, false))
    case kExtAudioFileProperty_CodecManufacturer, kExtAudioFileProperty_AudioConverter, kExtAudioFileProperty_FileMaxPacketSize,
         kExtAudioFileProperty_ClientMaxPacketSize, kExtAudioFileProperty_ConverterConfig, kExtAudioFileProperty_IOBufferSizeBytes,
         kExtAudioFileProperty_IOBuffer, kExtAudioFileProperty_PacketTable:
        .failure(StatusError(kAudio_UnimplementedError))
    default: .failure(StatusError(kExtAudioFileError_InvalidProperty))
    }
}

/// `ExtAudioFileGetPropertyInfo`.
/// - Thread: [control]
@_cdecl("ExtAudioFileGetPropertyInfo")
public func _ExtAudioFileGetPropertyInfo(_ inFile: OpaquePointer?, _ inID: UInt32, _ outSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    withHandle(ExtAudioFileHandle.live, inFile) { file in storePropertyInfo(try extAudioFilePropertyInfo(file, inID).get(), outSize, outWritable) }
}

/// `ExtAudioFileGetProperty`: `*ioSize` must be the property's size at least
/// (kExtAudioFileError_InvalidPropertySize otherwise). FileChannelLayout is the file's
/// (the one set over it, else AudioFileHandle.channelLayout), ClientChannelLayout the one
/// set or the file's, AudioFile
/// the AudioFileID (the ExtAudioFile's own while it lives, or the one wrapped).
/// - Thread: [control]
@_cdecl("ExtAudioFileGetProperty")
public func _ExtAudioFileGetProperty(_ inFile: OpaquePointer?, _ inID: UInt32, _ ioSize: UnsafeMutablePointer<UInt32>?, _ outData: UnsafeMutableRawPointer?) -> OSStatus {
    withHandle(ExtAudioFileHandle.live, inFile) { file in
        let info = try extAudioFilePropertyInfo(file, inID).get()
        guard let ioSize, let outData else { return kAudio_ParamError }
        guard Int(ioSize.pointee) >= info.size else { return kExtAudioFileError_InvalidPropertySize }
        switch inID {
        case kExtAudioFileProperty_FileDataFormat: outData.storeBytes(of: file.fileFormat.basicDescription, as: AudioStreamBasicDescription.self)
        case kExtAudioFileProperty_ClientDataFormat: outData.storeBytes(of: file.clientFormat.basicDescription, as: AudioStreamBasicDescription.self)
        case kExtAudioFileProperty_FileChannelLayout: file.fileLayout.store(outData)
        case kExtAudioFileProperty_ClientChannelLayout: (file.clientLayout ?? file.fileLayout).store(outData)
        case kExtAudioFileProperty_AudioFile: outData.storeBytes(of: cPointer(file.audioFile), as: OpaquePointer.self)
        default: outData.storeBytes(of: Int64(file.fileLengthFrames), as: Int64.self)
        }
        ioSize.pointee = UInt32(info.size)
        return noErr
    }
}

/// `ExtAudioFileSetProperty`: ClientDataFormat (linear PCM, the file's channel count, any
/// rate; kExtAudioFileError_NonPCMClientFormat, kExtAudioFileError_InvalidDataFormat);
/// FileChannelLayout (ExtAudioFileHandle.setFileLayout);
/// ClientChannelLayout (ExtAudioFileHandle.setClientLayout); a read-only one is
/// kAudioUnitErr_PropertyNotWritable.
/// - Thread: [control]
@_cdecl("ExtAudioFileSetProperty")
public func _ExtAudioFileSetProperty(_ inFile: OpaquePointer?, _ inID: UInt32, _ inSize: UInt32, _ inData: UnsafeRawPointer?) -> OSStatus {
    withHandle(ExtAudioFileHandle.live, inFile) { file in
        let info = try extAudioFilePropertyInfo(file, inID).get()
        guard info.writable else { return kAudioUnitErr_PropertyNotWritable }
        guard let inData else { return kAudio_ParamError }
        switch inID {
        case kExtAudioFileProperty_FileChannelLayout, kExtAudioFileProperty_ClientChannelLayout:
            guard let layout = ChannelLayout.load(inData, size: Int(inSize)) else { return kExtAudioFileError_InvalidPropertySize }
            if inID == kExtAudioFileProperty_ClientChannelLayout {
                try file.setClientLayout(layout)
            } else {
                try file.setFileLayout(layout)
            }
        default:
            guard Int(inSize) == info.size else { return kExtAudioFileError_InvalidPropertySize }
            try file.setClientFormat(StreamFormat(inData.loadUnaligned(as: AudioStreamBasicDescription.self)))
        }
        return noErr
    }
}
