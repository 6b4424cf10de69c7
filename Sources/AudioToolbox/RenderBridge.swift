internal import AUCore

/// What one C render callback needs on the render thread, allocated on the control side:
/// an `AudioBufferList` with room for every channel, and, for a client format that is not
/// the engine's (interleaved, 16-bit, 8.24), a scratch area and the converter. A callback
/// that is replaced keeps its storage until its unit or graph is disposed, so a render
/// still inside the old callback never reads freed memory.
final class CallbackStorage: @unchecked Sendable {
    static let maximumChannels = 64
    let list: UnsafeMutableRawPointer
    let buffers: UnsafeMutablePointer<AudioBuffer>
    let converter: SampleConverter?
    let scratch: UnsafeMutableRawPointer?
    let scratchPointers: UnsafeMutableBufferPointer<UnsafeRawPointer>
    let scratchBytesPerBuffer: Int
    let capacityFrames: Int

    init(clientFormat: StreamFormat?, capacityFrames: Int) {
        let listSize = MemoryLayout<AudioBufferList>.size + (Self.maximumChannels - 1) * MemoryLayout<AudioBuffer>.stride
        list = UnsafeMutableRawPointer.allocate(byteCount: listSize, alignment: 16)
        list.initializeMemory(as: UInt8.self, repeating: 0, count: listSize)
        buffers = (list + MemoryLayout<AudioBufferList>.offset(of: \AudioBufferList.mBuffers)!).assumingMemoryBound(to: AudioBuffer.self)
        self.capacityFrames = capacityFrames
        if let clientFormat, !clientFormat.isCanonical, let converter = try? SampleConverter(format: clientFormat) {
            self.converter = converter
            let bytesPerFrame = clientFormat.isInterleaved ? clientFormat.bytesPerFrame : (clientFormat.bitsPerChannel + 7) / 8
            scratchBytesPerBuffer = bytesPerFrame * capacityFrames
            let scratch = UnsafeMutableRawPointer.allocate(byteCount: scratchBytesPerBuffer * converter.bufferCount, alignment: 16)
            self.scratch = scratch
            scratchPointers = .allocate(capacity: converter.bufferCount)
            for index in 0..<converter.bufferCount { scratchPointers[index] = UnsafeRawPointer(scratch + index * scratchBytesPerBuffer) }
        } else {
            converter = nil
            scratch = nil
            scratchBytesPerBuffer = 0
            scratchPointers = .allocate(capacity: 0)
        }
    }

    deinit {
        list.deallocate()
        scratch?.deallocate()
        scratchPointers.deallocate()
    }
}

/// A C render callback as the engine calls it: the values it needs, captured by value
/// (pointers and the converter), so a call allocates nothing, retains nothing and locks
/// nothing.
struct CRenderCallback: @unchecked Sendable {
    let proc: AURenderCallback
    let refCon: UnsafeMutableRawPointer?
    let list: UnsafeMutableRawPointer
    let buffers: UnsafeMutablePointer<AudioBuffer>
    let converter: SampleConverter?
    let scratchPointers: UnsafeMutableBufferPointer<UnsafeRawPointer>
    let scratchBytesPerBuffer: Int
    let capacityFrames: Int

    init(_ callback: AURenderCallbackStruct, storage: CallbackStorage) {
        proc = callback.inputProc!
        refCon = callback.inputProcRefCon
        list = storage.list
        buffers = storage.buffers
        converter = storage.converter
        scratchPointers = storage.scratchPointers
        scratchBytesPerBuffer = storage.scratchBytesPerBuffer
        capacityFrames = storage.capacityFrames
    }

    /// The engine's callback: fills `buffers` through the C function.
    var engineCallback: RenderCallback {
        let callback = self
        return RenderCallback { flags, timestamp, bus, buffers in callback.call(&flags, timestamp, bus, buffers) }
    }

    /// - Thread: [render]
    func call(_ flags: inout RenderFlags, _ timestamp: RenderTimestamp, _ bus: Element, _ output: AudioBuffers) -> AudioUnitStatus {
        var cTimestamp = AudioTimeStamp(timestamp)
        var cFlags = flags.rawValue
        let frames = output.frameCount
        let header = list.assumingMemoryBound(to: AudioBufferList.self)
        let status: OSStatus
        if let converter {
            guard frames <= capacityFrames else { return kAudioUnitErr_TooManyFramesToProcess }
            let count = converter.bufferCount
            header.pointee.mNumberBuffers = UInt32(count)
            let channelsPerBuffer = converter.format.isInterleaved ? converter.format.channelsPerFrame : 1
            let bytes = frames * (scratchBytesPerBuffer / capacityFrames)
            for index in 0..<count {
                buffers[index] = AudioBuffer(
                    mNumberChannels: UInt32(channelsPerBuffer), mDataByteSize: UInt32(bytes),
                    mData: UnsafeMutableRawPointer(mutating: scratchPointers[index]))
            }
            status = proc(refCon, &cFlags, &cTimestamp, UInt32(bus), UInt32(frames), header)
            if status == noErr { converter.decode(UnsafeBufferPointer(scratchPointers), frameCount: frames, into: output) }
        } else {
            let count = min(output.channelCount, CallbackStorage.maximumChannels)
            header.pointee.mNumberBuffers = UInt32(count)
            for index in 0..<count {
                buffers[index] = AudioBuffer(
                    mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: UnsafeMutableRawPointer(output.channelPointers[index]))
            }
            status = proc(refCon, &cFlags, &cTimestamp, UInt32(bus), UInt32(frames), header)
        }
        flags = RenderFlags(rawValue: cFlags)
        return status
    }
}

extension AudioTimeStamp {
    init(_ timestamp: RenderTimestamp) {
        self.init()
        mSampleTime = timestamp.sampleTime
        mHostTime = timestamp.hostTime
        mRateScalar = timestamp.rateScalar
        mFlags = timestamp.flags.rawValue | kAudioTimeStampRateScalarValid | (timestamp.hostTime != 0 ? kAudioTimeStampHostTimeValid : 0)
    }
}

extension RenderTimestamp {
    init(_ timestamp: AudioTimeStamp) {
        self.init(sampleTime: timestamp.mSampleTime, hostTime: timestamp.mHostTime, rateScalar: timestamp.mRateScalar == 0 ? 1 : timestamp.mRateScalar)
    }
}

extension StreamFormat {
    init(_ d: AudioStreamBasicDescription) {
        self.init(
            sampleRate: d.mSampleRate, formatID: FourCharCode(rawValue: d.mFormatID), formatFlags: FormatFlags(rawValue: d.mFormatFlags),
            bytesPerPacket: Int(d.mBytesPerPacket), framesPerPacket: Int(d.mFramesPerPacket), bytesPerFrame: Int(d.mBytesPerFrame),
            channelsPerFrame: Int(d.mChannelsPerFrame), bitsPerChannel: Int(d.mBitsPerChannel))
    }

    var basicDescription: AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: formatID.rawValue, mFormatFlags: formatFlags.rawValue, mBytesPerPacket: UInt32(bytesPerPacket),
            mFramesPerPacket: UInt32(framesPerPacket), mBytesPerFrame: UInt32(bytesPerFrame), mChannelsPerFrame: UInt32(channelsPerFrame),
            mBitsPerChannel: UInt32(bitsPerChannel), mReserved: 0)
    }

    /// The engine's format with this one's rate and channels: 32-bit float, non-interleaved.
    var engineEquivalent: StreamFormat { .canonical(sampleRate: sampleRate, channels: channelsPerFrame) }
}
