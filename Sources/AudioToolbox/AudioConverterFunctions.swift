internal import AUCore
internal import AUFiles
import Glibc

// AudioConverter for linear PCM: any PCM source format to any PCM destination format with
// the same channel count (sample type, byte order, interleaving through PCMBufferCodec; the
// rate through libsamplerate, best quality unless the quality property says otherwise).

/// An `AudioConverterRef`.
final class ConverterHandle: @unchecked Sendable {
    static let live = LiveHandles<ConverterHandle>()

    let source: PCMBufferCodec
    let destination: PCMBufferCodec
    var quality: SampleRateQuality = .best
    private(set) var resampler: SampleRateConverter
    private var pending: PendingFrames
    private var inputEnded = false
    private let block: OwnedAudioBuffers
    static let blockFrames = 4096

    init(source: PCMBufferCodec, destination: PCMBufferCodec) throws(AudioUnitError) {
        self.source = source
        self.destination = destination
        resampler = try SampleRateConverter(channels: source.channels, inputRate: source.format.sampleRate, outputRate: destination.format.sampleRate)
        pending = PendingFrames(channels: source.channels)
        block = OwnedAudioBuffers(channels: source.channels, capacity: Self.blockFrames)
    }

    var resamples: Bool { source.format.sampleRate != destination.format.sampleRate }

    /// Forgets buffered frames and the filter's state (`AudioConverterReset`).
    func reset() throws(AudioUnitError) {
        resampler = try SampleRateConverter(channels: source.channels, inputRate: source.format.sampleRate,
                                            outputRate: destination.format.sampleRate, quality: quality)
        pending.removeAll()
        inputEnded = false
    }

    /// Converts `frames` frames between two buffer lists without resampling.
    func convert(frames: Int, from input: [UnsafeRawPointer], to output: [UnsafeMutableRawPointer]) {
        var done = 0
        while done < frames {
            let count = min(Self.blockFrames, frames - done)
            let view = block.buffers(frameCount: count)
            source.decode(input.map { $0 + done * source.format.bytesPerFrame }, frames: count, into: view)
            destination.encode(view, frames: count, into: output.map { $0 + done * destination.format.bytesPerFrame })
            done += count
        }
    }

    /// `AudioConverterFillComplexBuffer`: up to `frames` output frames into `output`, pulling
    /// input from `proc`; returns the frames produced and the status the input procedure
    /// returned, if it stopped the conversion.
    func fill(
        frames: Int, output: UnsafeMutablePointer<AudioBufferList>, proc: AudioConverterComplexInputDataProc, userData: UnsafeMutableRawPointer?
    ) throws -> (Int, OSStatus) {
        let scratch = OwnedAudioBuffers(channels: source.channels, capacity: Self.blockFrames)
        let input = AudioBufferList.allocate(maximumBuffers: source.format.isInterleaved ? 1 : source.channels)
        defer { free(input.unsafeMutablePointer) }
        var produced = 0
        while produced < frames {
            if pending.count > 0 {
                produced += pending.drain(frames - produced, to: destination, list: output, offset: produced, scratch: scratch)
                continue
            }
            if inputEnded { break }
            for index in 0..<input.count { input[index] = AudioBuffer(mNumberChannels: 0, mDataByteSize: 0, mData: nil) }
            var packets = UInt32(Self.blockFrames)
            let status = proc(OpaquePointer(Unmanaged.passUnretained(self).toOpaque()), &packets, input.unsafeMutablePointer, nil, userData)
            let count = min(Int(packets), Self.blockFrames)
            if count > 0 {
                guard let pointers = source.pointers(input.unsafeMutablePointer, offset: 0, frames: count) else {
                    throw StatusError(kAudioConverterErr_InvalidInputSize)
                }
                let view = block.buffers(frameCount: count)
                source.decode(pointers.map { UnsafeRawPointer($0) }, frames: count, into: view)
                try resampler.process(view) { (emitted: AudioBuffers) throws(AudioUnitError) in self.pending.append(emitted) }
            }
            if status != noErr { return (produced, status) }
            if count == 0 {
                try resampler.finish { (emitted: AudioBuffers) throws(AudioUnitError) in self.pending.append(emitted) }
                inputEnded = true
            }
        }
        return (produced, noErr)
    }
}

/// `AudioConverterNew`: linear PCM to linear PCM with one channel count;
/// kAudioConverterErr_FormatNotSupported otherwise.
/// - Thread: [control]
@_cdecl("AudioConverterNew")
public func _AudioConverterNew(
    _ inSource: UnsafePointer<AudioStreamBasicDescription>?, _ inDestination: UnsafePointer<AudioStreamBasicDescription>?,
    _ outConverter: UnsafeMutablePointer<OpaquePointer?>?
) -> OSStatus {
    guard let inSource, let inDestination, let outConverter else { return kAudio_ParamError }
    guard let source = PCMBufferCodec(StreamFormat(inSource.pointee)), let destination = PCMBufferCodec(StreamFormat(inDestination.pointee)),
          source.channels == destination.channels, source.format.sampleRate > 0, destination.format.sampleRate > 0,
          let handle = try? ConverterHandle(source: source, destination: destination)
    else { return kAudioConverterErr_FormatNotSupported }
    return newHandle(ConverterHandle.live, outConverter) { handle }
}

/// `AudioConverterDispose`.
/// - Thread: [control]
@_cdecl("AudioConverterDispose")
public func _AudioConverterDispose(_ inConverter: OpaquePointer?) -> OSStatus {
    withHandle(ConverterHandle.live, inConverter) { converter in
        ConverterHandle.live.unregister(converter)
        return noErr
    }
}

/// `AudioConverterReset`.
/// - Thread: [control]
@_cdecl("AudioConverterReset")
public func _AudioConverterReset(_ inConverter: OpaquePointer?) -> OSStatus {
    withHandle(ConverterHandle.live, inConverter) { converter in
        try converter.reset()
        return noErr
    }
}

/// `AudioConverterConvertBuffer`: interleaved (one-buffer) formats at one rate; a size that
/// is no whole number of frames is kAudioConverterErr_InvalidInputSize, an output too small
/// kAudioConverterErr_InvalidOutputSize, a rate change kAudioConverterErr_OperationNotSupported.
/// - Thread: [control]
@_cdecl("AudioConverterConvertBuffer")
public func _AudioConverterConvertBuffer(
    _ inConverter: OpaquePointer?, _ inSize: UInt32, _ inData: UnsafeRawPointer?, _ ioOutSize: UnsafeMutablePointer<UInt32>?,
    _ outData: UnsafeMutableRawPointer?
) -> OSStatus {
    withHandle(ConverterHandle.live, inConverter) { converter in
        guard let inData, let ioOutSize, let outData else { return kAudio_ParamError }
        guard !converter.resamples, converter.source.format.isInterleaved, converter.destination.format.isInterleaved else {
            return kAudioConverterErr_OperationNotSupported
        }
        let inFrame = converter.source.format.bytesPerFrame, outFrame = converter.destination.format.bytesPerFrame
        guard Int(inSize) % inFrame == 0 else { return kAudioConverterErr_InvalidInputSize }
        let frames = Int(inSize) / inFrame
        guard Int(ioOutSize.pointee) >= frames * outFrame else { return kAudioConverterErr_InvalidOutputSize }
        converter.convert(frames: frames, from: [inData], to: [outData])
        ioOutSize.pointee = UInt32(frames * outFrame)
        return noErr
    }
}

/// `AudioConverterConvertComplexBuffer`: `inNumberPCMFrames` frames between buffer lists at
/// one rate (a rate change: kAudioConverterErr_OperationNotSupported).
/// - Thread: [control]
@_cdecl("AudioConverterConvertComplexBuffer")
public func _AudioConverterConvertComplexBuffer(
    _ inConverter: OpaquePointer?, _ inFrames: UInt32, _ inData: UnsafePointer<AudioBufferList>?, _ outData: UnsafeMutablePointer<AudioBufferList>?
) -> OSStatus {
    withHandle(ConverterHandle.live, inConverter) { converter in
        guard let inData, let outData else { return kAudio_ParamError }
        guard !converter.resamples else { return kAudioConverterErr_OperationNotSupported }
        guard let input = converter.source.pointers(UnsafeMutablePointer(mutating: inData), offset: 0, frames: Int(inFrames)) else {
            return kAudioConverterErr_InvalidInputSize
        }
        guard let output = converter.destination.pointers(outData, offset: 0, frames: Int(inFrames)) else { return kAudioConverterErr_InvalidOutputSize }
        converter.convert(frames: Int(inFrames), from: input.map { UnsafeRawPointer($0) }, to: output)
        return noErr
    }
}

/// `AudioConverterFillComplexBuffer`: fills `outData` with up to `*ioPackets` frames,
/// calling `inProc` for input (it points `ioData`'s buffers at its samples); input of 0
/// packets ends the stream (the filter's tail is flushed: the output's length is the input's
/// times the rate ratio, rounded). A status the procedure returns stops the call and is
/// returned, with the frames produced so far in `*ioPackets` (what it had given stays).
/// - Thread: [control]
@_cdecl("AudioConverterFillComplexBuffer")
public func _AudioConverterFillComplexBuffer(
    _ inConverter: OpaquePointer?, _ inProc: AudioConverterComplexInputDataProc?, _ inUserData: UnsafeMutableRawPointer?,
    _ ioPackets: UnsafeMutablePointer<UInt32>?, _ outData: UnsafeMutablePointer<AudioBufferList>?,
    _ outPacketDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?
) -> OSStatus {
    withHandle(ConverterHandle.live, inConverter) { converter in
        guard let inProc, let ioPackets, let outData else { return kAudio_ParamError }
        guard converter.destination.pointers(outData, offset: 0, frames: Int(ioPackets.pointee)) != nil else {
            return kAudioConverterErr_InvalidOutputSize
        }
        let (produced, status) = try converter.fill(frames: Int(ioPackets.pointee), output: outData, proc: inProc, userData: inUserData)
        ioPackets.pointee = UInt32(produced)
        return status
    }
}

/// The properties carried: the stream descriptions (read-only), the sample-rate converter's
/// quality (writable: Max and High are libsamplerate's best, Medium its medium, Low and Min
/// its fastest), the maximum packet sizes (a frame's bytes).
private func converterPropertySize(_ id: UInt32) -> Result<(size: Int, writable: Bool), StatusError> {
    switch id {
    case kAudioConverterCurrentInputStreamDescription, kAudioConverterCurrentOutputStreamDescription:
        .success((MemoryLayout<AudioStreamBasicDescription>.size, false))
    case kAudioConverterSampleRateConverterQuality: .success((4, true))
    case kAudioConverterPropertyMaximumInputPacketSize, kAudioConverterPropertyMaximumOutputPacketSize: .success((4, false))
    default: .failure(StatusError(kAudioConverterErr_PropertyNotSupported))
    }
}

/// `AudioConverterGetPropertyInfo`.
/// - Thread: [control]
@_cdecl("AudioConverterGetPropertyInfo")
public func _AudioConverterGetPropertyInfo(_ inConverter: OpaquePointer?, _ inID: UInt32, _ outSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    withHandle(ConverterHandle.live, inConverter) { _ in storePropertyInfo(try converterPropertySize(inID).get(), outSize, outWritable) }
}

/// `AudioConverterGetProperty`: a size under the property's is kAudioConverterErr_BadPropertySizeError.
/// - Thread: [control]
@_cdecl("AudioConverterGetProperty")
public func _AudioConverterGetProperty(_ inConverter: OpaquePointer?, _ inID: UInt32, _ ioSize: UnsafeMutablePointer<UInt32>?, _ outData: UnsafeMutableRawPointer?) -> OSStatus {
    withHandle(ConverterHandle.live, inConverter) { converter in
        let info = try converterPropertySize(inID).get()
        guard let ioSize, let outData else { return kAudio_ParamError }
        guard Int(ioSize.pointee) >= info.size else { return kAudioConverterErr_BadPropertySizeError }
        switch inID {
        case kAudioConverterCurrentInputStreamDescription: outData.storeBytes(of: converter.source.format.basicDescription, as: AudioStreamBasicDescription.self)
        case kAudioConverterCurrentOutputStreamDescription: outData.storeBytes(of: converter.destination.format.basicDescription, as: AudioStreamBasicDescription.self)
        case kAudioConverterPropertyMaximumInputPacketSize: outData.storeBytes(of: UInt32(converter.source.format.bytesPerFrame), as: UInt32.self)
        case kAudioConverterPropertyMaximumOutputPacketSize: outData.storeBytes(of: UInt32(converter.destination.format.bytesPerFrame), as: UInt32.self)
        default:
            let quality: UInt32 = switch converter.quality {
            case .best: kAudioConverterQuality_Max
            case .medium: kAudioConverterQuality_Medium
            case .fastest: kAudioConverterQuality_Min
            }
            outData.storeBytes(of: quality, as: UInt32.self)
        }
        ioSize.pointee = UInt32(info.size)
        return noErr
    }
}

/// `AudioConverterSetProperty`: the sample-rate converter's quality (the converter starts
/// again); a read-only property is kAudioUnitErr_PropertyNotWritable.
/// - Thread: [control]
@_cdecl("AudioConverterSetProperty")
public func _AudioConverterSetProperty(_ inConverter: OpaquePointer?, _ inID: UInt32, _ inSize: UInt32, _ inData: UnsafeRawPointer?) -> OSStatus {
    withHandle(ConverterHandle.live, inConverter) { converter in
        let info = try converterPropertySize(inID).get()
        guard info.writable else { return kAudioUnitErr_PropertyNotWritable }
        guard let inData else { return kAudio_ParamError }
        guard Int(inSize) == info.size else { return kAudioConverterErr_BadPropertySizeError }
        let value = inData.loadUnaligned(as: UInt32.self)
        converter.quality = value >= kAudioConverterQuality_High ? .best : value >= kAudioConverterQuality_Medium ? .medium : .fastest
        try converter.reset()
        return noErr
    }
}
