internal import AUCore

// AudioFile's properties and global information.

/// The size of each property an AudioFileID carries (none is writable here), or the status.
private func audioFilePropertySize(_ file: AudioFileHandle, _ id: UInt32) -> Result<Int, StatusError> {
    switch id {
    case kAudioFilePropertyDataFormat: .success(MemoryLayout<AudioStreamBasicDescription>.size)
    case kAudioFilePropertyFileFormat, kAudioFilePropertyMaximumPacketSize, kAudioFilePropertyPacketSizeUpperBound: .success(4)
    case kAudioFilePropertyAudioDataPacketCount, kAudioFilePropertyAudioDataByteCount: .success(8)
    case kAudioFilePropertyEstimatedDuration: .success(8)
    case kAudioFilePropertyMagicCookieData: .failure(StatusError(kAudioFileUnsupportedPropertyError))   // PCM has none
    case kAudioFilePropertyChannelLayout, kAudioFilePropertyInfoDictionary, kAudioFilePropertyDataOffset, kAudioFilePropertyIsOptimized:
        .failure(StatusError(kAudio_UnimplementedError))
    default: .failure(StatusError(kAudioFileUnsupportedPropertyError))
    }
}

/// `AudioFileGetPropertyInfo`.
/// - Thread: [control]
@_cdecl("AudioFileGetPropertyInfo")
public func _AudioFileGetPropertyInfo(_ inFile: OpaquePointer?, _ inID: UInt32, _ outSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withAudioFile(inFile) { file in
        outSize?.pointee = UInt32(try audioFilePropertySize(file, inID).get())
        outWritable?.pointee = 0
        return noErr
    }
}

/// `AudioFileGetProperty`: DataFormat, FileFormat, AudioDataPacketCount, AudioDataByteCount,
/// EstimatedDuration, MaximumPacketSize, PacketSizeUpperBound; a size under the property's
/// is kAudioFileBadPropertySizeError; MagicCookieData (PCM has none)
/// kAudioFileUnsupportedPropertyError; ChannelLayout and InfoDictionary unimplemented.
/// - Thread: [control]
@_cdecl("AudioFileGetProperty")
public func _AudioFileGetProperty(_ inFile: OpaquePointer?, _ inID: UInt32, _ ioSize: UnsafeMutablePointer<UInt32>?, _ outData: UnsafeMutableRawPointer?) -> OSStatus {
    withAudioFile(inFile) { file in
        let size = try audioFilePropertySize(file, inID).get()
        guard let ioSize, let outData else { return kAudio_ParamError }
        guard Int(ioSize.pointee) >= size else { return kAudioFileBadPropertySizeError }
        switch inID {
        case kAudioFilePropertyDataFormat: outData.storeBytes(of: file.dataFormat.basicDescription, as: AudioStreamBasicDescription.self)
        case kAudioFilePropertyFileFormat: outData.storeBytes(of: file.fileType, as: UInt32.self)
        case kAudioFilePropertyMaximumPacketSize, kAudioFilePropertyPacketSizeUpperBound: outData.storeBytes(of: UInt32(file.bytesPerPacket), as: UInt32.self)
        case kAudioFilePropertyAudioDataPacketCount: outData.storeBytes(of: UInt64(file.packetCount), as: UInt64.self)
        case kAudioFilePropertyAudioDataByteCount: outData.storeBytes(of: UInt64(file.packetCount * file.bytesPerPacket), as: UInt64.self)
        default: outData.storeBytes(of: Double(file.packetCount) / file.dataFormat.sampleRate, as: Double.self)
        }
        ioSize.pointee = UInt32(size)
        return noErr
    }
}

/// `AudioFileSetProperty`: no property is writable here (kAudioFileOperationNotSupportedError;
/// an unknown one kAudioFileUnsupportedPropertyError).
/// - Thread: [control]
@_cdecl("AudioFileSetProperty")
public func _AudioFileSetProperty(_ inFile: OpaquePointer?, _ inID: UInt32, _ inSize: UInt32, _ inData: UnsafeRawPointer?) -> OSStatus {
    withAudioFile(inFile) { file in
        _ = try audioFilePropertySize(file, inID).get()
        return kAudioFileOperationNotSupportedError
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
