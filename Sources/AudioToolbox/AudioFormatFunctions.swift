// AudioFormat: information about stream formats, for the formats this library reads and
// writes (linear PCM; FLAC through libsndfile).

/// The format IDs libsndfile encodes and decodes here.
private let codedFormats: [UInt32] = [kAudioFormatLinearPCM, kAudioFormatFLAC]

/// A property's size for its specifier, or the status.
private func formatPropertySize(_ id: UInt32, _ specifierSize: UInt32, _ specifier: UnsafeRawPointer?) -> Result<Int, StatusError> {
    let asbd = MemoryLayout<AudioStreamBasicDescription>.size
    switch id {
    case kAudioFormatProperty_FormatInfo: return .success(asbd)
    case kAudioFormatProperty_FormatIsVBR, kAudioFormatProperty_FormatIsExternallyFramed:
        guard specifier != nil, Int(specifierSize) == asbd else { return .failure(StatusError(kAudioFormatBadSpecifierSizeError)) }
        return .success(4)
    case kAudioFormatProperty_EncodeFormatIDs, kAudioFormatProperty_DecodeFormatIDs: return .success(codedFormats.count * 4)
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
/// (FLAC is variable); EncodeFormatIDs and DecodeFormatIDs: linear PCM and FLAC.
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
        outData.storeBytes(of: UInt32(format.mFormatID == kAudioFormatFLAC ? 1 : 0), as: UInt32.self)
    default:
        for (index, id) in codedFormats.enumerated() { outData.storeBytes(of: id, toByteOffset: index * 4, as: UInt32.self) }
    }
    ioSize.pointee = UInt32(size)
    return noErr
}
