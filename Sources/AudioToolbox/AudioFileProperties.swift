internal import AUCore
internal import AUFiles

// AudioFile's properties and global information.

/// The size of each property an AudioFileID carries and whether it is writable (ChannelLayout
/// on a file being written), or the status.
private func audioFilePropertyInfo(_ file: AudioFileHandle, _ id: UInt32) -> Result<(size: Int, writable: Bool), StatusError> {
    switch id {
    case kAudioFilePropertyDataFormat: .success((MemoryLayout<AudioStreamBasicDescription>.size, false))
    case kAudioFilePropertyFileFormat, kAudioFilePropertyMaximumPacketSize, kAudioFilePropertyPacketSizeUpperBound: .success((4, false))
    case kAudioFilePropertyAudioDataPacketCount, kAudioFilePropertyAudioDataByteCount, kAudioFilePropertyEstimatedDuration: .success((8, false))
    case kAudioFilePropertyChannelLayout: .success((file.channelLayout.byteSize, file.writer != nil))
    case kAudioFilePropertyInfoDictionary: .success((MemoryLayout<OpaquePointer>.size, false))
    case kAudioFilePropertyDataOffset:
        file.dataOffset == nil ? .failure(StatusError(kAudio_UnimplementedError)) : .success((8, false))
    case kAudioFilePropertyMagicCookieData: .failure(StatusError(kAudioFileUnsupportedPropertyError))   // PCM has none
    case kAudioFilePropertyIsOptimized: .failure(StatusError(kAudio_UnimplementedError))
    default: .failure(StatusError(kAudioFileUnsupportedPropertyError))
    }
}

extension AudioFileHandle {
    /// Where the audio data starts in a file being read of a container whose data is one
    /// block (WAVE, RF64, AIFF, AIFC, CAF); nil for the others and for a file being written
    /// (libsndfile places its data when it closes it).
    var dataOffset: Int64? { reader.flatMap { audioDataOffset(path: $0.info.path) } }
}

/// `AudioFileGetPropertyInfo`.
/// - Thread: [control]
@_cdecl("AudioFileGetPropertyInfo")
public func _AudioFileGetPropertyInfo(_ inFile: OpaquePointer?, _ inID: UInt32, _ outSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withAudioFile(inFile) { file in
        let info = try audioFilePropertyInfo(file, inID).get()
        outSize?.pointee = UInt32(info.size)
        outWritable?.pointee = info.writable ? 1 : 0
        return noErr
    }
}

/// `AudioFileGetProperty`: DataFormat, FileFormat, AudioDataPacketCount, AudioDataByteCount,
/// EstimatedDuration, MaximumPacketSize, PacketSizeUpperBound, ChannelLayout (an
/// AudioChannelLayout), InfoDictionary (a CFDictionary the caller releases), DataOffset
/// (WAVE, RF64, AIFF, AIFC and CAF read; else kAudio_UnimplementedError); a size under the
/// property's is kAudioFileBadPropertySizeError; MagicCookieData (PCM has none)
/// kAudioFileUnsupportedPropertyError.
/// - Thread: [control]
@_cdecl("AudioFileGetProperty")
public func _AudioFileGetProperty(_ inFile: OpaquePointer?, _ inID: UInt32, _ ioSize: UnsafeMutablePointer<UInt32>?, _ outData: UnsafeMutableRawPointer?) -> OSStatus {
    withAudioFile(inFile) { file in
        let size = try audioFilePropertyInfo(file, inID).get().size
        guard let ioSize, let outData else { return kAudio_ParamError }
        guard Int(ioSize.pointee) >= size else { return kAudioFileBadPropertySizeError }
        switch inID {
        case kAudioFilePropertyDataFormat: outData.storeBytes(of: file.dataFormat.basicDescription, as: AudioStreamBasicDescription.self)
        case kAudioFilePropertyFileFormat: outData.storeBytes(of: file.fileType, as: UInt32.self)
        case kAudioFilePropertyMaximumPacketSize, kAudioFilePropertyPacketSizeUpperBound: outData.storeBytes(of: UInt32(file.bytesPerPacket), as: UInt32.self)
        case kAudioFilePropertyAudioDataPacketCount: outData.storeBytes(of: UInt64(file.packetCount), as: UInt64.self)
        case kAudioFilePropertyAudioDataByteCount: outData.storeBytes(of: UInt64(file.packetCount * file.bytesPerPacket), as: UInt64.self)
        case kAudioFilePropertyChannelLayout: file.channelLayout.store(outData)
        case kAudioFilePropertyInfoDictionary:
            let seconds = Double(file.packetCount) / file.dataFormat.sampleRate
            outData.storeBytes(of: retainedDictionary(infoDictionary(tags: file.reader?.tags ?? [:], seconds: seconds)), as: OpaquePointer.self)
        case kAudioFilePropertyDataOffset: outData.storeBytes(of: file.dataOffset ?? 0, as: Int64.self)
        default: outData.storeBytes(of: Double(file.packetCount) / file.dataFormat.sampleRate, as: Double.self)
        }
        ioSize.pointee = UInt32(size)
        return noErr
    }
}

/// `AudioFileSetProperty`: ChannelLayout on a file being written, before its first packet
/// (AudioFileHandle.setChannelLayout); the others are read-only, as Apple's InfoDictionary is
/// (kAudioFileOperationNotSupportedError; an unknown one kAudioFileUnsupportedPropertyError).
/// - Thread: [control]
@_cdecl("AudioFileSetProperty")
public func _AudioFileSetProperty(_ inFile: OpaquePointer?, _ inID: UInt32, _ inSize: UInt32, _ inData: UnsafeRawPointer?) -> OSStatus {
    withAudioFile(inFile) { file in
        guard try audioFilePropertyInfo(file, inID).get().writable else { return kAudioFileOperationNotSupportedError }
        guard let inData else { return kAudio_ParamError }
        guard let layout = ChannelLayout.load(inData, size: Int(inSize)) else { return kAudioFileBadPropertySizeError }
        try file.setChannelLayout(layout)
        return noErr
    }
}

/// The file types read (libsndfile's that Apple names: MPEG layers 1–3 with libsndfile 1.1
/// and later) and written (Apple writes no MPEG file either: it has no MP3 encoder).
private func globalTypes(_ id: UInt32) -> [UInt32]? {
    switch id {
    case kAudioFileGlobalInfo_ReadableTypes:
        [kAudioFileWAVEType, kAudioFileAIFFType, kAudioFileAIFCType, kAudioFileCAFType, kAudioFileFLACType, kAudioFileRF64Type, kAudioFileNextType,
         kAudioFileMP3Type, kAudioFileMP2Type, kAudioFileMP1Type]
    case kAudioFileGlobalInfo_WritableTypes: [kAudioFileWAVEType, kAudioFileAIFFType, kAudioFileAIFCType, kAudioFileCAFType, kAudioFileFLACType]
    default: nil
    }
}

/// `AudioFileGetGlobalInfoSize`: ReadableTypes and WritableTypes (others:
/// kAudioFileUnsupportedPropertyError).
/// - Thread: [any]
@_cdecl("AudioFileGetGlobalInfoSize")
public func _AudioFileGetGlobalInfoSize(_ inID: UInt32, _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeMutableRawPointer?, _ outSize: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    guard let outSize else { return kAudio_ParamError }
    guard let types = globalTypes(inID) else { return kAudioFileUnsupportedPropertyError }
    outSize.pointee = UInt32(types.count * 4)
    return noErr
}

/// `AudioFileGetGlobalInfo`: the types as an array of AudioFileTypeID.
/// - Thread: [any]
@_cdecl("AudioFileGetGlobalInfo")
public func _AudioFileGetGlobalInfo(
    _ inID: UInt32, _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeMutableRawPointer?, _ ioSize: UnsafeMutablePointer<UInt32>?, _ outData: UnsafeMutableRawPointer?
) -> OSStatus {
    guard let ioSize, let outData else { return kAudio_ParamError }
    guard let types = globalTypes(inID) else { return kAudioFileUnsupportedPropertyError }
    guard Int(ioSize.pointee) >= types.count * 4 else { return kAudioFileBadPropertySizeError }
    for (index, type) in types.enumerated() { outData.storeBytes(of: type, toByteOffset: index * 4, as: UInt32.self) }
    ioSize.pointee = UInt32(types.count * 4)
    return noErr
}
