internal import AUCore
internal import AUEngine
internal import AUAppleUnits
internal import AUJACK

// AUComponent.h and AudioOutputUnit.h over AUHost's units.

/// `AudioUnitInitialize`.
/// - Thread: [control]
@_cdecl("AudioUnitInitialize")
public func _AudioUnitInitialize(_ inUnit: OpaquePointer?) -> OSStatus {
    withUnit(inUnit) { handle throws(AudioUnitError) in
        if handle.unit is JACKIOUnit && handle.graph == nil { return noErr }  // a standalone JACK unit initializes in its own graph at start
        try handle.unit.initialize()
        return noErr
    }
}

/// `AudioUnitUninitialize`.
/// - Thread: [control]
@_cdecl("AudioUnitUninitialize")
public func _AudioUnitUninitialize(_ inUnit: OpaquePointer?) -> OSStatus {
    withUnit(inUnit) { handle in
        stopStandalone(handle)
        handle.unit.uninitialize()
        return noErr
    }
}

/// `AudioUnitReset`.
/// - Thread: [control]
@_cdecl("AudioUnitReset")
public func _AudioUnitReset(_ inUnit: OpaquePointer?, _ inScope: UInt32, _ inElement: UInt32) -> OSStatus {
    withUnit(inUnit) { handle throws(AudioUnitError) in
        try handle.unit.reset()
        return noErr
    }
}

/// `AudioUnitGetParameter`; from a render callback or notification, without the API lock.
/// - Thread: [control] or [render]
@_cdecl("AudioUnitGetParameter")
public func _AudioUnitGetParameter(_ inUnit: OpaquePointer?, _ inID: UInt32, _ inScope: UInt32, _ inElement: UInt32, _ outValue: UnsafeMutablePointer<Float32>?) -> OSStatus {
    if RenderThread.isCurrent {
        guard let outValue else { return kAudio_ParamError }
        return renderSideParameter(inUnit, inID, inScope, inElement) { unit, index in
            outValue.pointee = unit.parameterValueFromRender(at: index)
            return noErr
        }
    }
    return withUnit(inUnit) { handle throws(AudioUnitError) in
        guard let outValue else { return kAudio_ParamError }
        guard let scope = Scope(c: inScope) else { return kAudioUnitErr_InvalidScope }
        outValue.pointee = try handle.unit.parameterValue(inID, scope: scope, element: Int(inElement))
        return noErr
    }
}

/// `AudioUnitSetParameter`: heard from the next render, at `inBufferOffsetInFrames`; from a
/// render callback or notification, without the API lock, at the unit's next render.
/// - Thread: [control] or [render]
@_cdecl("AudioUnitSetParameter")
public func _AudioUnitSetParameter(_ inUnit: OpaquePointer?, _ inID: UInt32, _ inScope: UInt32, _ inElement: UInt32, _ inValue: Float32, _ inBufferOffsetInFrames: UInt32) -> OSStatus {
    if RenderThread.isCurrent {
        return renderSideParameter(inUnit, inID, inScope, inElement) { unit, index in
            guard unit.parameterAcceptsFromRender(inValue, at: index) else { return kAudioUnitErr_InvalidParameterValue }
            return unit.scheduleParameterFromRender(at: index, value: inValue, offset: Int(inBufferOffsetInFrames)) ? noErr : kAudioUnitErr_CannotDoInCurrentContext
        }
    }
    return withUnit(inUnit) { handle throws(AudioUnitError) in
        guard let scope = Scope(c: inScope) else { return kAudioUnitErr_InvalidScope }
        try handle.unit.setParameter(inID, value: inValue, scope: scope, element: Int(inElement), bufferOffset: Int(inBufferOffsetInFrames))
        return noErr
    }
}

/// `AudioUnitScheduleParameters`: immediate and ramped events for the unit's next render,
/// from the control side, or from a render callback or notification (where Apple's hosts
/// often call it), without the API lock.
/// - Thread: [control] or [render]
@_cdecl("AudioUnitScheduleParameters")
public func _AudioUnitScheduleParameters(_ inUnit: OpaquePointer?, _ inEvents: UnsafePointer<AudioUnitParameterEvent>?, _ inCount: UInt32) -> OSStatus {
    if RenderThread.isCurrent { return scheduleParametersFromRender(inUnit, inEvents, inCount) }
    return withUnit(inUnit) { handle throws(AudioUnitError) in
        guard let inEvents else { return inCount == 0 ? noErr : kAudio_ParamError }
        var events: [ScheduledParameterEvent] = []
        for event in UnsafeBufferPointer(start: inEvents, count: Int(inCount)) {
            guard let scope = Scope(c: event.scope) else { return kAudioUnitErr_InvalidScope }
            let address = ParameterAddress(event.parameter, scope: scope, element: Int(event.element))
            switch event.eventType {
            case kParameterEvent_Immediate:
                let immediate = event.eventValues.immediate
                events.append(ScheduledParameterEvent(address, .immediate(offset: Int(immediate.bufferOffset), value: immediate.value)))
            case kParameterEvent_Ramped:
                let ramp = event.eventValues.ramp
                events.append(ScheduledParameterEvent(address, .ramped(
                    startOffset: Int(ramp.startBufferOffset), duration: Int(ramp.durationInFrames), startValue: ramp.startValue, endValue: ramp.endValue)))
            default:
                return kAudio_ParamError
            }
        }
        try handle.unit.scheduleParameters(events)
        return noErr
    }
}

/// `AudioUnitRender`: pulls `inNumberFrames` from output bus `inOutputBusNumber` into
/// `ioData` (32-bit float, non-interleaved, one buffer per channel, the caller's memory).
/// A graph's GenericOutput node renders the whole graph.
/// - Thread: [render]
@_cdecl("AudioUnitRender")
public func _AudioUnitRender(
    _ inUnit: OpaquePointer?, _ ioActionFlags: UnsafeMutablePointer<UInt32>?, _ inTimeStamp: UnsafePointer<AudioTimeStamp>?,
    _ inOutputBusNumber: UInt32, _ inNumberFrames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>?
) -> OSStatus {
    guard let inUnit, let inTimeStamp, let ioData else { return kAudio_ParamError }
    // No lookup in the handle table here (a lock): the pointer is the handle.
    let handle = Unmanaged<UnitHandle>.fromOpaque(UnsafeRawPointer(inUnit)).takeUnretainedValue()
    let count = Int(ioData.pointee.mNumberBuffers)
    guard count > 0, count <= CallbackStorage.maximumChannels else { return kAudio_ParamError }
    let frames = Int(inNumberFrames)
    return withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Float>.self, capacity: count) { pointers in
        let raw = UnsafeMutableRawPointer(ioData) + MemoryLayout<AudioBufferList>.offset(of: \AudioBufferList.mBuffers)!
        let list = raw.assumingMemoryBound(to: AudioBuffer.self)
        for index in 0..<count {
            guard let data = list[index].mData, Int(list[index].mDataByteSize) >= frames * 4 else { return kAudio_ParamError }
            pointers[index] = data.assumingMemoryBound(to: Float.self)
        }
        let buffers = AudioBuffers(channelPointers: pointers, frameCount: frames)
        let timestamp = RenderTimestamp(inTimeStamp.pointee)
        if RenderThread.isCurrent { return pull(handle, ioActionFlags, timestamp, Int(inOutputBusNumber), buffers) }
        return RenderThread.run { pull(handle, ioActionFlags, timestamp, Int(inOutputBusNumber), buffers) }
    }
}

/// One pull of `AudioUnitRender`: the graph when the unit is a graph's output node, else the unit.
private func pull(
    _ handle: UnitHandle, _ ioActionFlags: UnsafeMutablePointer<UInt32>?, _ timestamp: RenderTimestamp, _ bus: Int, _ buffers: AudioBuffers
) -> OSStatus {
    if bus == 1, handle.isDevice { return handle.renderCapture(into: buffers) }
    if let graph = handle.pulledGraph {
        return graph._withUnsafeGuaranteedRef { $0.render(frameCount: buffers.frameCount, timestamp: timestamp, output: buffers) }
    }
    var flags = RenderFlags(rawValue: ioActionFlags?.pointee ?? 0)
    let status = handle.unit.render(flags: &flags, timestamp: timestamp, outputBus: bus, buffers: buffers)
    ioActionFlags?.pointee = flags.rawValue
    return status
}

/// `AudioUnitAddPropertyListener`: called after each change of the property, on the thread
/// that made it (render-side changes: on the library's device thread).
/// - Thread: [control]
@_cdecl("AudioUnitAddPropertyListener")
public func _AudioUnitAddPropertyListener(_ inUnit: OpaquePointer?, _ inID: UInt32, _ inProc: AudioUnitPropertyListenerProc?, _ inData: UnsafeMutableRawPointer?) -> OSStatus {
    withUnit(inUnit) { handle in
        guard let inProc else { return kAudio_ParamError }
        nonisolated(unsafe) let pointer = handle.pointer
        nonisolated(unsafe) let userData = inData
        let token = handle.unit.addPropertyListener(PropertyID(rawValue: inID)) { change in
            inProc(userData, pointer, change.id.rawValue, change.scope.rawValue, UInt32(change.element))
        }
        handle.listeners.append((inID, inProc, inData, token))
        return noErr
    }
}

/// `AudioUnitRemovePropertyListenerWithUserData`.
/// - Thread: [control]
@_cdecl("AudioUnitRemovePropertyListenerWithUserData")
public func _AudioUnitRemovePropertyListenerWithUserData(_ inUnit: OpaquePointer?, _ inID: UInt32, _ inProc: AudioUnitPropertyListenerProc?, _ inData: UnsafeMutableRawPointer?) -> OSStatus {
    withUnit(inUnit) { handle in
        guard let inProc else { return kAudio_ParamError }
        handle.listeners.removeAll { entry in
            let matches = entry.id == inID && sameCallback(entry.proc, entry.data, inProc, inData)
            if matches { _ = handle.unit.removeListener(entry.token) }
            return matches
        }
        return noErr
    }
}

/// `AudioUnitAddRenderNotify`: called before and after each render of the unit.
/// - Thread: [control]
@_cdecl("AudioUnitAddRenderNotify")
public func _AudioUnitAddRenderNotify(_ inUnit: OpaquePointer?, _ inProc: AURenderCallback?, _ inData: UnsafeMutableRawPointer?) -> OSStatus {
    withUnit(inUnit) { handle throws(AudioUnitError) in
        guard let inProc else { return kAudio_ParamError }
        let unit = handle.unit
        try handle.notifies.add(inProc, inData) { callback throws(AudioUnitError) in try unit.addRenderNotify(callback) }
        return noErr
    }
}

/// `AudioUnitRemoveRenderNotify`.
/// - Thread: [control]
@_cdecl("AudioUnitRemoveRenderNotify")
public func _AudioUnitRemoveRenderNotify(_ inUnit: OpaquePointer?, _ inProc: AURenderCallback?, _ inData: UnsafeMutableRawPointer?) -> OSStatus {
    withUnit(inUnit) { handle in
        guard let inProc else { return kAudio_ParamError }
        let unit = handle.unit
        handle.notifies.remove(inProc, inData) { _ = unit.removeRenderNotify($0) }
        return noErr
    }
}

/// `AudioOutputUnitStart`: an output unit that is no graph's starts playing what its input
/// bus 0 gets (a render callback or a connection) on the output device.
/// - Thread: [control]
@_cdecl("AudioOutputUnitStart")
public func _AudioOutputUnitStart(_ ci: OpaquePointer?) -> OSStatus {
    withUnit(ci) { handle throws(AudioUnitError) in
        if let graph = handle.graph {
            try graph.graph.start()
            return noErr
        }
        if let device = handle.unit as? PacedDeviceUnit {
            try device.start()
            handle.isStarted = true
            return noErr
        }
        if let jack = handle.unit as? JACKIOUnit {
            try startStandaloneJACK(handle, jack)
            return noErr
        }
        return kAudioUnitErr_InvalidProperty
    }
}

/// `AudioOutputUnitStop`.
/// - Thread: [control]
@_cdecl("AudioOutputUnitStop")
public func _AudioOutputUnitStop(_ ci: OpaquePointer?) -> OSStatus {
    withUnit(ci) { handle in
        if let graph = handle.graph {
            graph.graph.stop()
            return noErr
        }
        stopStandalone(handle)
        return noErr
    }
}

/// A JACK output unit played without an AUGraph: a private graph of that one node, its
/// render callback the graph's input callback, connected to the system playback ports.
func startStandaloneJACK(_ handle: UnitHandle, _ jack: JACKIOUnit) throws(AudioUnitError) {
    if handle.soloGraph == nil {
        let graph = AudioGraph(registry: nil)
        let node = try graph.addNode(jack)
        if handle.capture.playsOutput, let callback = handle.callbacks[BusKey(scope: kAudioUnitScope_Input, element: 0)] {
            try graph.setInputCallback(handle.makeEngineCallback(callback, element: 0), for: node, input: 0)
        }
        jack.graph = graph
        try graph.initialize()
        handle.soloGraph = graph
        try handle.attachCapture(to: graph)
    }
    try handle.soloGraph!.start()
    try? jack.connectToSystem()
    handle.isStarted = true
}

/// Stops a standalone output unit (nothing for a graph's node).
func stopStandalone(_ handle: UnitHandle) {
    guard handle.graph == nil, handle.isStarted else { return }
    if let device = handle.unit as? PacedDeviceUnit { device.stop() }
    handle.soloGraph?.stop()
    handle.isStarted = false
}
