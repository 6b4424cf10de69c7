import Foundation
internal import AUCore

// AudioQueue output functions (AudioQueueHandle.swift has the queue).

/// The render callback of a queue's output unit: the queue's bytes into the unit's input.
/// - Thread: [render]
let queueRenderCallback: AURenderCallback = { refCon, _, _, _, frames, ioData in
    guard let refCon, let ioData, let data = ioData.pointee.mBuffers.mData else { return noErr }
    Unmanaged<QueueRenderState>.fromOpaque(refCon).takeUnretainedValue().renderFromQueue(frames: Int(frames), into: data)
    return noErr
}

/// `AudioQueueNewOutput`: interleaved linear PCM (else kAudioConverterErr_FormatNotSupported)
/// at the output device's rate, played on the device AUHOST_DEVICE names (no device:
/// kAudioQueueErr_InvalidDevice). The callback runs on a thread of the library's; the run
/// loop arguments are not needed.
/// - Thread: [control]
@_cdecl("AudioQueueNewOutput")
public func _AudioQueueNewOutput(
    _ inFormat: UnsafePointer<AudioStreamBasicDescription>?, _ inCallback: AudioQueueOutputCallback?, _ inUserData: UnsafeMutableRawPointer?,
    _ inRunLoop: OpaquePointer?, _ inRunLoopMode: OpaquePointer?, _ inFlags: UInt32, _ outQueue: UnsafeMutablePointer<OpaquePointer?>?
) -> OSStatus {
    guard let inFormat, let inCallback, let outQueue, inFlags == 0 else { return kAudio_ParamError }
    var format = inFormat.pointee
    guard format.mFormatID == kAudioFormatLinearPCM, format.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0, format.mBytesPerFrame > 0,
          PCMBufferCodec(StreamFormat(format)) != nil
    else { return kAudioConverterErr_FormatNotSupported }
    apiLock.lock()
    defer { apiLock.unlock() }
    var description = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_DefaultOutput,
                                                componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    var unit: OpaquePointer?
    guard _AudioComponentInstanceNew(_AudioComponentFindNext(nil, &description), &unit) == noErr, let unit else { return kAudioQueueErr_InvalidDevice }
    let handle = QueueHandle(format: format, callback: inCallback, userData: inUserData, unit: unit)
    var callback = AURenderCallbackStruct(inputProc: queueRenderCallback, inputProcRefCon: Unmanaged.passUnretained(handle.render).toOpaque())
    let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    let status = [
        _AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, size),
        _AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback, UInt32(MemoryLayout<AURenderCallbackStruct>.size)),
        _AudioUnitInitialize(unit),
    ].first { $0 != noErr }
    if let status {
        _ = _AudioComponentInstanceDispose(unit)
        return status
    }
    let pointer = QueueHandle.live.register(handle)
    handle.startCallbackThread(pointer: pointer)
    outQueue.pointee = pointer
    return noErr
}

/// `AudioQueueDispose`: stops the device, ends the callback thread, frees the buffers
/// (`inImmediate` false: the same; what was enqueued is not played on).
/// - Thread: [control]
@_cdecl("AudioQueueDispose")
public func _AudioQueueDispose(_ inQueue: OpaquePointer?, _ inImmediate: UInt8) -> OSStatus {
    apiLock.lock()
    guard let queue = QueueHandle.live.lookup(inQueue) else {
        apiLock.unlock()
        return kAudio_ParamError
    }
    QueueHandle.live.unregister(queue)
    queue.setRunning(false)
    apiLock.unlock()
    queue.endCallbackThread()
    _ = _AudioComponentInstanceDispose(queue.unit)
    for address in queue.buffers { freeQueueBuffer(address) }
    return noErr
}

/// Frees a buffer AudioQueueAllocateBuffer made (the structure and its data in one block).
private func freeQueueBuffer(_ address: UInt) {
    free(UnsafeMutableRawPointer(bitPattern: address))
}

/// `AudioQueueAllocateBuffer`: a buffer of `inBufferByteSize` bytes (0: kAudioQueueErr_InvalidParameter).
/// - Thread: [control]
@_cdecl("AudioQueueAllocateBuffer")
public func _AudioQueueAllocateBuffer(_ inQueue: OpaquePointer?, _ inSize: UInt32, _ outBuffer: UnsafeMutablePointer<UnsafeMutablePointer<AudioQueueBuffer>?>?) -> OSStatus {
    withHandle(QueueHandle.live, inQueue) { queue in
        guard let outBuffer else { return kAudio_ParamError }
        guard inSize > 0 else { return kAudioQueueErr_InvalidParameter }
        let header = MemoryLayout<AudioQueueBuffer>.stride
        guard let block = calloc(1, header + Int(inSize)) else { return kAudio_MemFullError }
        // The structure's capacity and data pointer are const in C: written once here.
        block.storeBytes(of: inSize, toByteOffset: MemoryLayout<AudioQueueBuffer>.offset(of: \.mAudioDataBytesCapacity)!, as: UInt32.self)
        block.storeBytes(of: block + header, toByteOffset: MemoryLayout<AudioQueueBuffer>.offset(of: \.mAudioData)!, as: UnsafeMutableRawPointer.self)
        let buffer = block.assumingMemoryBound(to: AudioQueueBuffer.self)
        queue.buffers.insert(UInt(bitPattern: buffer))
        outBuffer.pointee = buffer
        return noErr
    }
}

/// `AudioQueueFreeBuffer`: a buffer of this queue (else kAudioQueueErr_InvalidBuffer).
/// - Thread: [control]
@_cdecl("AudioQueueFreeBuffer")
public func _AudioQueueFreeBuffer(_ inQueue: OpaquePointer?, _ inBuffer: UnsafeMutablePointer<AudioQueueBuffer>?) -> OSStatus {
    withHandle(QueueHandle.live, inQueue) { queue in
        guard let inBuffer, queue.buffers.remove(UInt(bitPattern: inBuffer)) != nil else { return kAudioQueueErr_InvalidBuffer }
        freeQueueBuffer(UInt(bitPattern: inBuffer))
        return noErr
    }
}

/// `AudioQueueEnqueueBuffer`: plays `mAudioDataByteSize` bytes of the buffer after those
/// enqueued before (a buffer of another queue: kAudioQueueErr_InvalidBuffer; more bytes
/// than it holds or none: kAudioQueueErr_BufferEmpty / InvalidParameter).
/// - Thread: [control]
@_cdecl("AudioQueueEnqueueBuffer")
public func _AudioQueueEnqueueBuffer(
    _ inQueue: OpaquePointer?, _ inBuffer: UnsafeMutablePointer<AudioQueueBuffer>?, _ inNumDescriptions: UInt32, _ inDescriptions: OpaquePointer?
) -> OSStatus {
    withHandle(QueueHandle.live, inQueue) { queue in
        guard let inBuffer, queue.buffers.contains(UInt(bitPattern: inBuffer)) else { return kAudioQueueErr_InvalidBuffer }
        guard inBuffer.pointee.mAudioDataByteSize > 0 else { return kAudioQueueErr_BufferEmpty }
        guard inBuffer.pointee.mAudioDataByteSize <= inBuffer.pointee.mAudioDataBytesCapacity else { return kAudioQueueErr_InvalidParameter }
        guard queue.render.enqueued.push(UInt(bitPattern: inBuffer)) else { return kAudioQueueErr_BufferInQueue }
        return noErr
    }
}

/// `AudioQueueStart`: plays from now (a start time is not taken: NULL only).
/// - Thread: [control]
@_cdecl("AudioQueueStart")
public func _AudioQueueStart(_ inQueue: OpaquePointer?, _ inStartTime: UnsafePointer<AudioTimeStamp>?) -> OSStatus {
    withHandle(QueueHandle.live, inQueue) { queue in
        guard inStartTime == nil else { return kAudio_UnimplementedError }
        queue.setRunning(true)
        return queue.isRunning ? noErr : kAudioQueueErr_CannotStart
    }
}

/// `AudioQueuePause`: the device stops; what is enqueued plays on at the next start.
/// - Thread: [control]
@_cdecl("AudioQueuePause")
public func _AudioQueuePause(_ inQueue: OpaquePointer?) -> OSStatus {
    withHandle(QueueHandle.live, inQueue) { queue in
        queue.setRunning(false)
        return noErr
    }
}

/// `AudioQueueStop`: immediate, the device stops now and the enqueued buffers are dropped
/// (their callbacks not called); otherwise it stops once they have played.
/// - Thread: [control]
@_cdecl("AudioQueueStop")
public func _AudioQueueStop(_ inQueue: OpaquePointer?, _ inImmediate: UInt8) -> OSStatus {
    withHandle(QueueHandle.live, inQueue) { queue in
        guard queue.isRunning else { return noErr }
        if inImmediate != 0 {
            queue.setRunning(false)
            queue.render.discardQueued()
        } else {
            queue.stopWhenDry.store(true, ordering: .releasing)
        }
        return noErr
    }
}

/// `AudioQueueGetParameter`: the volume (0…1).
/// - Thread: [control]
@_cdecl("AudioQueueGetParameter")
public func _AudioQueueGetParameter(_ inQueue: OpaquePointer?, _ inID: UInt32, _ outValue: UnsafeMutablePointer<Float>?) -> OSStatus {
    withHandle(QueueHandle.live, inQueue) { queue in
        guard let outValue else { return kAudio_ParamError }
        guard inID == kAudioQueueParam_Volume else { return kAudio_UnimplementedError }
        outValue.pointee = Float(bitPattern: queue.render.volume.load(ordering: .relaxed))
        return noErr
    }
}

/// `AudioQueueSetParameter`: the volume, 0…1 (else kAudioQueueErr_InvalidParameter), applied
/// to float and 16-bit data from the next render (other sample types: kAudio_UnimplementedError);
/// play rate, pitch and pan are unimplemented.
/// - Thread: [control]
@_cdecl("AudioQueueSetParameter")
public func _AudioQueueSetParameter(_ inQueue: OpaquePointer?, _ inID: UInt32, _ inValue: Float) -> OSStatus {
    withHandle(QueueHandle.live, inQueue) { queue in
        guard inID == kAudioQueueParam_Volume, queue.render.sampleKind != .other else { return kAudio_UnimplementedError }
        guard inValue.isFinite, (0...1).contains(inValue) else { return kAudioQueueErr_InvalidParameter }
        queue.render.volume.store(inValue.bitPattern, ordering: .relaxed)
        return noErr
    }
}

/// The size of the properties carried: IsRunning (UInt32), StreamDescription (ASBD),
/// DeviceProperty_SampleRate (Float64).
private func queuePropertySize(_ id: UInt32) -> Int? {
    switch id {
    case kAudioQueueProperty_IsRunning: 4
    case kAudioQueueProperty_StreamDescription: MemoryLayout<AudioStreamBasicDescription>.size
    case kAudioQueueDeviceProperty_SampleRate: 8
    default: nil
    }
}

/// `AudioQueueGetPropertySize`.
/// - Thread: [control]
@_cdecl("AudioQueueGetPropertySize")
public func _AudioQueueGetPropertySize(_ inQueue: OpaquePointer?, _ inID: UInt32, _ outSize: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withHandle(QueueHandle.live, inQueue) { _ in
        guard let outSize else { return kAudio_ParamError }
        guard let size = queuePropertySize(inID) else { return kAudioQueueErr_InvalidProperty }
        outSize.pointee = UInt32(size)
        return noErr
    }
}

/// `AudioQueueGetProperty`: a size under the property's is kAudioQueueErr_InvalidPropertySize.
/// - Thread: [control]
@_cdecl("AudioQueueGetProperty")
public func _AudioQueueGetProperty(_ inQueue: OpaquePointer?, _ inID: UInt32, _ outData: UnsafeMutableRawPointer?, _ ioSize: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withHandle(QueueHandle.live, inQueue) { queue in
        guard let outData, let ioSize else { return kAudio_ParamError }
        guard let size = queuePropertySize(inID) else { return kAudioQueueErr_InvalidProperty }
        guard Int(ioSize.pointee) >= size else { return kAudioQueueErr_InvalidPropertySize }
        switch inID {
        case kAudioQueueProperty_IsRunning: outData.storeBytes(of: UInt32(queue.isRunning ? 1 : 0), as: UInt32.self)
        case kAudioQueueProperty_StreamDescription: outData.storeBytes(of: queue.format, as: AudioStreamBasicDescription.self)
        default: outData.storeBytes(of: queue.format.mSampleRate, as: Double.self)
        }
        ioSize.pointee = UInt32(size)
        return noErr
    }
}

/// `AudioQueueSetProperty`: a queue of linear PCM has no settable property here. The
/// read-only ones (IsRunning, StreamDescription, the device's rate) are
/// kAudioQueueErr_InvalidProperty; a magic cookie, the current device and the others
/// Apple lets a program set are kAudio_UnimplementedError.
/// - Thread: [control]
@_cdecl("AudioQueueSetProperty")
public func _AudioQueueSetProperty(_ inQueue: OpaquePointer?, _ inID: UInt32, _ inData: UnsafeRawPointer?, _ inSize: UInt32) -> OSStatus {
    withHandle(QueueHandle.live, inQueue) { _ in
        guard inData != nil else { return kAudio_ParamError }
        return queuePropertySize(inID) == nil ? kAudio_UnimplementedError : kAudioQueueErr_InvalidProperty
    }
}

/// `AudioQueueAddPropertyListener`: IsRunning only (others kAudioQueueErr_InvalidProperty);
/// called on the queue's callback thread after the device starts or stops.
/// - Thread: [control]
@_cdecl("AudioQueueAddPropertyListener")
public func _AudioQueueAddPropertyListener(_ inQueue: OpaquePointer?, _ inID: UInt32, _ inProc: AudioQueuePropertyListenerProc?, _ inData: UnsafeMutableRawPointer?) -> OSStatus {
    changeListener(inQueue, inID, inProc, inData, remove: false)
}

/// `AudioQueueRemovePropertyListener`.
/// - Thread: [control]
@_cdecl("AudioQueueRemovePropertyListener")
public func _AudioQueueRemovePropertyListener(_ inQueue: OpaquePointer?, _ inID: UInt32, _ inProc: AudioQueuePropertyListenerProc?, _ inData: UnsafeMutableRawPointer?) -> OSStatus {
    changeListener(inQueue, inID, inProc, inData, remove: true)
}

/// Adds or removes an IsRunning listener of a queue.
private func changeListener(
    _ inQueue: OpaquePointer?, _ inID: UInt32, _ inProc: AudioQueuePropertyListenerProc?, _ inData: UnsafeMutableRawPointer?, remove: Bool
) -> OSStatus {
    withHandle(QueueHandle.live, inQueue) { queue in
        guard let inProc else { return kAudio_ParamError }
        guard inID == kAudioQueueProperty_IsRunning else { return kAudioQueueErr_InvalidProperty }
        queue.changeListener(inProc, inData, remove: remove)
        return noErr
    }
}
