// AudioFormat: information about stream formats, for the formats this library reads and
// writes (linear PCM; FLAC, Opus and MPEG audio through libsndfile).

/// The format IDs libsndfile encodes here (into the file types Apple names) and decodes.
private let encodedFormats: [UInt32] = [kAudioFormatLinearPCM, kAudioFormatFLAC]
private let decodedFormats: [UInt32] = encodedFormats + [kAudioFormatOpus, kAudioFormatMPEGLayer1, kAudioFormatMPEGLayer2, kAudioFormatMPEGLayer3]

/// The list of IDs a property asks for.
private func formatIDs(_ id: UInt32) -> [UInt32] { id == kAudioFormatProperty_EncodeFormatIDs ? encodedFormats : decodedFormats }

/// A property's size for its specifier, or the status.
private func formatPropertySize(_ id: UInt32, _ specifierSize: UInt32, _ specifier: UnsafeRawPointer?) -> Result<Int, StatusError> {
    let asbd = MemoryLayout<AudioStreamBasicDescription>.size
    switch id {
    case kAudioFormatProperty_FormatInfo: return .success(asbd)
    case kAudioFormatProperty_FormatIsVBR, kAudioFormatProperty_FormatIsExternallyFramed:
        guard specifier != nil, Int(specifierSize) == asbd else { return .failure(StatusError(kAudioFormatBadSpecifierSizeError)) }
        return .success(4)
    case kAudioFormatProperty_EncodeFormatIDs, kAudioFormatProperty_DecodeFormatIDs: return .success(formatIDs(id).count * 4)
    case kAudioFormatProperty_FormatName: return .failure(StatusError(kAudio_UnimplementedError))   // a CFString
    default: return .failure(StatusError(kAudioFormatUnsupportedPropertyError))
    }
}

/// `AudioFormatGetPropertyInfo`.
/// - Thread: [any]
@_cdecl("AudioFormatGetPropertyInfo")
public func _AudioFormatGetPropertyInfo(_ inID: UInt32, _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeRawPointer?, _ outSize: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    guard let outSize else { return kAudio_ParamError }
    switch formatPropertySize(inID, inSpecifierSize, inSpecifier) {
    case .failure(let error): return error.status
    case .success(let size):
        outSize.pointee = UInt32(size)
        return noErr
    }
}

/// `AudioFormatGetProperty`: FormatInfo completes a linear PCM description in place (packed,
/// one frame a packet, bytes per frame and packet from the bits, channels and interleaving;
/// other format IDs kAudioFormatUnsupportedDataFormatError, no sample size
/// kAudioFormatUnknownFormatError); FormatIsVBR and FormatIsExternallyFramed of a description
/// (FLAC and Opus are variable); EncodeFormatIDs: linear PCM and FLAC; DecodeFormatIDs: those,
/// Opus and MPEG layers 1–3.
/// - Thread: [any]
@_cdecl("AudioFormatGetProperty")
public func _AudioFormatGetProperty(
    _ inID: UInt32, _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeRawPointer?, _ ioSize: UnsafeMutablePointer<UInt32>?, _ outData: UnsafeMutableRawPointer?
) -> OSStatus {
    guard let ioSize, let outData else { return kAudio_ParamError }
    let size: Int
    switch formatPropertySize(inID, inSpecifierSize, inSpecifier) {
    case .failure(let error): return error.status
    case .success(let found): size = found
    }
    guard Int(ioSize.pointee) >= size else { return kAudioFormatBadPropertySizeError }
    switch inID {
    case kAudioFormatProperty_FormatInfo:
        var format = outData.loadUnaligned(as: AudioStreamBasicDescription.self)
        guard format.mFormatID == kAudioFormatLinearPCM else { return kAudioFormatUnsupportedDataFormatError }
        guard format.mBitsPerChannel > 0, format.mChannelsPerFrame > 0 else { return kAudioFormatUnknownFormatError }
        let sampleBytes = (format.mBitsPerChannel + 7) / 8
        let interleaved = format.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0
        format.mBytesPerFrame = sampleBytes * (interleaved ? format.mChannelsPerFrame : 1)
        format.mFramesPerPacket = 1
        format.mBytesPerPacket = format.mBytesPerFrame
        if format.mBitsPerChannel % 8 == 0 { format.mFormatFlags |= kAudioFormatFlagIsPacked }
        outData.storeBytes(of: format, as: AudioStreamBasicDescription.self)
    case kAudioFormatProperty_FormatIsVBR, kAudioFormatProperty_FormatIsExternallyFramed:
        let format = inSpecifier!.loadUnaligned(as: AudioStreamBasicDescription.self)
        outData.storeBytes(of: UInt32(format.mFormatID == kAudioFormatFLAC || format.mFormatID == kAudioFormatOpus ? 1 : 0), as: UInt32.self)
    default:
        for (index, id) in formatIDs(inID).enumerated() { outData.storeBytes(of: id, toByteOffset: index * 4, as: UInt32.self) }
    }
    ioSize.pointee = UInt32(size)
    return noErr
}
