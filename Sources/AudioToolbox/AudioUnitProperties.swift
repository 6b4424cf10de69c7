internal import AUCore
internal import AUEngine
internal import AUJACK

// AudioUnitGetPropertyInfo / GetProperty / SetProperty: each property's C value marshalled
// to and from the engine's typed keys. A property Apple defines that AUHost does not carry
// yet returns kAudio_UnimplementedError; an ID nobody defines returns InvalidProperty.

/// The properties of Apple's headers that the library does not marshal yet.
let unimplementedProperties: Set<UInt32> = [
    kAudioUnitProperty_SupportedNumChannels,
    kAudioUnitProperty_AudioChannelLayout,
    kAudioUnitProperty_ContextName, kAudioUnitProperty_RenderQuality, kAudioUnitProperty_HostCallbacks,
    kAudioUnitProperty_InPlaceProcessing, kAudioUnitProperty_SupportedChannelLayoutTags,
    kAudioUnitProperty_ParameterStringFromValue, kAudioUnitProperty_ParameterIDName, kAudioUnitProperty_ParameterClumpName,
    kAudioUnitProperty_ParameterValueFromString, kAudioUnitProperty_PresentationLatency,
    kAudioUnitProperty_DependentParameters, kAudioUnitProperty_InputSamplesInOutput, kAudioUnitProperty_ShouldAllocateBuffer,
    kAudioUnitProperty_FrequencyResponse, kAudioUnitProperty_ParameterHistoryInfo, kAudioUnitProperty_NickName,
    kAudioUnitProperty_LastRenderSampleTime, kAudioOutputUnitProperty_CurrentDevice, kAudioOutputUnitProperty_ChannelMap,
    kAudioOutputUnitProperty_StartTime, kAudioOutputUnitProperty_StartTimestampsAtZero,
    kAudioUnitProperty_MeteringMode, kAudioUnitProperty_MatrixLevels, kAudioUnitProperty_MatrixDimensions,
]

/// A property's size and writability, or the status that refuses it.
func propertyInfo(_ handle: UnitHandle, _ id: UInt32, _ scopeValue: UInt32, _ element: UInt32) throws(AudioUnitError) -> (size: Int, writable: Bool)? {
    let unit = handle.unit
    guard let scope = Scope(c: scopeValue) else { throw AudioUnitError(.invalidScope, "scope \(scopeValue)") }
    let e = Int(element)
    switch id {
    case kAudioUnitProperty_StreamFormat:
        _ = try unit.value(of: .streamFormat, scope: scope, element: e)
        return (MemoryLayout<AudioStreamBasicDescription>.size, true)
    case kAudioUnitProperty_SampleRate:
        _ = try unit.value(of: .sampleRate, scope: scope, element: e)
        return (8, true)
    case kAudioUnitProperty_MaximumFramesPerSlice: return (4, true)
    case kAudioUnitProperty_ElementCount:
        guard scope != .global else { return (4, false) }
        return (4, try unit.info(for: .elementCount, scope: scope, element: e).isWritable)
    case kAudioUnitProperty_SetRenderCallback:
        guard scope == .input else { throw AudioUnitError(.invalidScope, "SetRenderCallback is on the input scope") }
        return (MemoryLayout<AURenderCallbackStruct>.size, true)
    case kAudioUnitProperty_MakeConnection:
        guard scope == .input else { throw AudioUnitError(.invalidScope, "MakeConnection is on the input scope") }
        return (MemoryLayout<AudioUnitConnection>.size, true)
    case kAudioUnitProperty_ParameterList:
        return (try unit.value(of: .parameterList, scope: scope, element: e).count * 4, false)
    case kAudioUnitProperty_ParameterInfo:
        _ = try unit.value(of: .parameterInfo, scope: scope, element: e)
        return (MemoryLayout<AudioUnitParameterInfo>.size, false)
    case kAudioUnitProperty_Latency, kAudioUnitProperty_TailTime: return (8, false)
    case kAudioUnitProperty_BypassEffect: return (4, true)
    case kAudioUnitProperty_ElementName:
        _ = try unit.busConfiguration(scope: scope, element: e)
        return (MemoryLayout<OpaquePointer>.size, false)
    case kAudioUnitProperty_ClassInfo:
        guard scope == .global else { throw AudioUnitError(.invalidScope, "ClassInfo is on the global scope") }
        return (MemoryLayout<OpaquePointer>.size, true)
    case kAudioUnitProperty_LastRenderError: return (4, false)
    case kAudioUnitProperty_CPULoad, kAudioUnitProperty_OfflineRender:
        guard scope == .global else { throw AudioUnitError(.invalidScope, "CPULoad and OfflineRender are on the global scope") }
        return (id == kAudioUnitProperty_CPULoad ? 8 : 4, true)
    case kAudioUnitProperty_PresentPreset: return (MemoryLayout<AUPreset>.size, true)
    case kAudioUnitProperty_FactoryPresets: return (MemoryLayout<OpaquePointer>.size, false)
    case kAudioUnitProperty_ParameterValueStrings:
        guard try unit.value(of: .parameterInfo, scope: scope, element: e).valueStrings != nil else {
            throw AudioUnitError(.invalidProperty, "parameter \(element) has no value strings")
        }
        return (MemoryLayout<OpaquePointer>.size, false)
    case kAudioOutputUnitProperty_EnableIO, kAudioOutputUnitProperty_HasIO, kAudioOutputUnitProperty_IsRunning:
        guard unit is AudioOutputUnit else { throw AudioUnitError(.invalidProperty, "\(unit.name) is no output unit") }
        return (4, id == kAudioOutputUnitProperty_EnableIO)
    case kAudioOutputUnitProperty_SetInputCallback:
        guard handle.isDevice else { throw AudioUnitError(.invalidProperty, "\(unit.name) is no output device") }
        return (MemoryLayout<AURenderCallbackStruct>.size, true)
    default:
        return nil
    }
}

/// `AudioUnitGetPropertyInfo`.
/// - Thread: [control]
@_cdecl("AudioUnitGetPropertyInfo")
public func _AudioUnitGetPropertyInfo(
    _ inUnit: OpaquePointer?, _ inID: UInt32, _ inScope: UInt32, _ inElement: UInt32,
    _ outDataSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    withUnit(inUnit) { handle throws(AudioUnitError) in
        let (inScope, inElement) = handle.propertyBus(inID, scope: inScope, element: inElement)
        do throws(StatusError) {
            if let info = try appleUnitPropertyInfo(handle, inID, inScope) {
                outDataSize?.pointee = UInt32(info.size)
                outWritable?.pointee = info.writable ? 1 : 0
                return noErr
            }
        } catch { return error.status }
        guard let info = try propertyInfo(handle, inID, inScope, inElement) else {
            return unimplementedProperties.contains(inID) ? kAudio_UnimplementedError : kAudioUnitErr_InvalidProperty
        }
        outDataSize?.pointee = UInt32(info.size)
        outWritable?.pointee = info.writable ? 1 : 0
        return noErr
    }
}

/// Copies `value` out when `ioDataSize` is its size exactly (Apple accepts no other).
func copyOut<T>(_ value: T, _ outData: UnsafeMutableRawPointer?, _ ioDataSize: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    guard let outData, let ioDataSize else { return kAudio_ParamError }
    guard Int(ioDataSize.pointee) >= MemoryLayout<T>.size else { return kAudioUnitErr_InvalidPropertyValue }
    outData.storeBytes(of: value, as: T.self)
    ioDataSize.pointee = UInt32(MemoryLayout<T>.size)
    return noErr
}

/// Reads a `T` from the caller's data when its size is `T`'s.
func read<T>(_ inData: UnsafeRawPointer?, _ size: UInt32, as type: T.Type) -> T? {
    guard let inData, Int(size) == MemoryLayout<T>.size else { return nil }
    return inData.loadUnaligned(as: T.self)
}

/// `AudioUnitGetProperty`.
/// - Thread: [control]
@_cdecl("AudioUnitGetProperty")
public func _AudioUnitGetProperty(
    _ inUnit: OpaquePointer?, _ inID: UInt32, _ inScope: UInt32, _ inElement: UInt32,
    _ outData: UnsafeMutableRawPointer?, _ ioDataSize: UnsafeMutablePointer<UInt32>?
) -> OSStatus {
    withUnit(inUnit) { handle throws(AudioUnitError) in
        let (inScope, inElement) = handle.propertyBus(inID, scope: inScope, element: inElement)
        if let status = appleUnitProperty(handle, inID, inScope, get: outData, ioDataSize) { return status }
        guard try propertyInfo(handle, inID, inScope, inElement) != nil else {
            return unimplementedProperties.contains(inID) ? kAudio_UnimplementedError : kAudioUnitErr_InvalidProperty
        }
        let unit = handle.unit
        let scope = Scope(c: inScope)!
        let e = Int(inElement)
        switch inID {
        case kAudioUnitProperty_StreamFormat:
            var format: StreamFormat
            if let client = handle.clientFormats[BusKey(scope: inScope, element: inElement)] {
                format = client
            } else {
                format = try unit.value(of: .streamFormat, scope: scope, element: e)
            }
            return copyOut(format.basicDescription, outData, ioDataSize)
        case kAudioUnitProperty_SampleRate:
            return copyOut(Float64(try unit.value(of: .sampleRate, scope: scope, element: e)), outData, ioDataSize)
        case kAudioUnitProperty_MaximumFramesPerSlice:
            return copyOut(UInt32(try unit.value(of: .maximumFramesPerSlice)), outData, ioDataSize)
        case kAudioUnitProperty_ElementCount:
            return copyOut(UInt32(scope == .global ? 1 : try unit.value(of: .elementCount, scope: scope)), outData, ioDataSize)
        case kAudioUnitProperty_Latency:
            return copyOut(Float64(try unit.value(of: .latency)), outData, ioDataSize)
        case kAudioUnitProperty_TailTime:
            return copyOut(Float64(try unit.value(of: .tailTime)), outData, ioDataSize)
        case kAudioUnitProperty_BypassEffect:
            return copyOut(UInt32(try unit.value(of: .bypassEffect) ? 1 : 0), outData, ioDataSize)
        case kAudioUnitProperty_LastRenderError:
            return copyOut(OSStatus(try unit.value(of: .lastRenderError)), outData, ioDataSize)
        case kAudioUnitProperty_CPULoad:
            return copyOut(handle.renderHints.cpuLoadLimit, outData, ioDataSize)
        case kAudioUnitProperty_OfflineRender:
            return copyOut(UInt32(handle.renderHints.rendersOffline ? 1 : 0), outData, ioDataSize)
        case kAudioUnitProperty_PresentPreset:
            let preset = try unit.value(of: .presentPreset)
            // The name as a new CFString, which the caller releases (NULL for a preset without one).
            let name = preset.name.isEmpty ? nil : retainedCFString(preset.name)
            return copyOut(AUPreset(presetNumber: Int32(preset.number), presetName: name), outData, ioDataSize)
        case kAudioUnitProperty_ParameterList:
            let ids = try unit.value(of: .parameterList, scope: scope, element: e)
            guard let outData, let ioDataSize else { return kAudio_ParamError }
            let count = min(ids.count, Int(ioDataSize.pointee) / 4)
            for (index, id) in ids.prefix(count).enumerated() { outData.storeBytes(of: id, toByteOffset: index * 4, as: UInt32.self) }
            ioDataSize.pointee = UInt32(count * 4)
            return noErr
        case kAudioUnitProperty_FactoryPresets:
            return copyOut(handle.factoryPresetArray(), outData, ioDataSize)
        case kAudioUnitProperty_ClassInfo:
            return copyOut(try retainedClassInfo(handle), outData, ioDataSize)
        case kAudioUnitProperty_ElementName:
            // The bus's name as a new CFString, which the caller releases.
            return copyOut(retainedString(try unit.busConfiguration(scope: scope, element: e).name), outData, ioDataSize)
        case kAudioUnitProperty_ParameterValueStrings:
            // A new CFArray of CFStrings, one per value from the minimum, which the caller releases.
            guard let strings = try unit.value(of: .parameterInfo, scope: scope, element: e).valueStrings else { return kAudioUnitErr_InvalidProperty }
            return copyOut(retainedStringArray(strings), outData, ioDataSize)
        case kAudioUnitProperty_ParameterInfo:
            return copyOut(AudioUnitParameterInfo(try unit.value(of: .parameterInfo, scope: scope, element: e)), outData, ioDataSize)
        case kAudioUnitProperty_SetRenderCallback:
            let callback = handle.callbacks[BusKey(scope: inScope, element: inElement)] ?? AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil)
            return copyOut(callback, outData, ioDataSize)
        case kAudioUnitProperty_MakeConnection:
            return kAudio_UnimplementedError
        case kAudioOutputUnitProperty_EnableIO:
            return copyOut(UInt32((inElement == 0 ? handle.capture.playsOutput : inElement == 1 && handle.capture.isEnabled) ? 1 : 0), outData, ioDataSize)
        case kAudioOutputUnitProperty_HasIO:
            return copyOut(UInt32(inElement == 0 || (inElement == 1 && handle.canCapture) ? 1 : 0), outData, ioDataSize)
        case kAudioOutputUnitProperty_SetInputCallback:
            return copyOut(handle.capture.inputCallback ?? AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil), outData, ioDataSize)
        case kAudioOutputUnitProperty_IsRunning:
            let running = handle.graph?.graph.isRunning ?? handle.isStarted
            return copyOut(UInt32(running ? 1 : 0), outData, ioDataSize)
        default:
            return kAudioUnitErr_InvalidProperty
        }
    }
}

/// `AudioUnitSetProperty`.
/// - Thread: [control]
@_cdecl("AudioUnitSetProperty")
public func _AudioUnitSetProperty(
    _ inUnit: OpaquePointer?, _ inID: UInt32, _ inScope: UInt32, _ inElement: UInt32, _ inData: UnsafeRawPointer?, _ inDataSize: UInt32
) -> OSStatus {
    withUnit(inUnit) { handle throws(AudioUnitError) in
        let (inScope, inElement) = handle.propertyBus(inID, scope: inScope, element: inElement)
        if let status = setAppleUnitProperty(handle, inID, inScope, inData, inDataSize) { return status }
        guard let info = try propertyInfo(handle, inID, inScope, inElement) else {
            return unimplementedProperties.contains(inID) ? kAudio_UnimplementedError : kAudioUnitErr_InvalidProperty
        }
        guard info.writable else { return kAudioUnitErr_PropertyNotWritable }
        // A NULL value with size 0 clears a callback or a connection, as on Apple.
        if inData == nil && inDataSize == 0 {
            if inID == kAudioUnitProperty_SetRenderCallback {
                try handle.setRenderCallback(AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil), element: inElement)
                return noErr
            }
            if inID == kAudioOutputUnitProperty_SetInputCallback { return try handle.setInputCallback(nil) }
            return kAudio_ParamError
        }
        guard Int(inDataSize) == info.size || inID == kAudioUnitProperty_ParameterList else { return kAudioUnitErr_InvalidPropertyValue }
        let unit = handle.unit
        let scope = Scope(c: inScope)!
        let e = Int(inElement)
        switch inID {
        case kAudioUnitProperty_StreamFormat:
            return try setStreamFormat(handle, read(inData, inDataSize, as: AudioStreamBasicDescription.self)!, scope: scope, element: inElement)
        case kAudioUnitProperty_SampleRate:
            try unit.setValue(read(inData, inDataSize, as: Float64.self)!, for: .sampleRate, scope: scope, element: e)
            handle.formatsSet.insert(BusKey(scope: scope.rawValue, element: inElement))
        case kAudioUnitProperty_MaximumFramesPerSlice:
            try unit.setValue(Int(read(inData, inDataSize, as: UInt32.self)!), for: .maximumFramesPerSlice)
        case kAudioUnitProperty_ElementCount:
            try unit.setValue(Int(read(inData, inDataSize, as: UInt32.self)!), for: .elementCount, scope: scope)
        case kAudioUnitProperty_BypassEffect:
            try unit.setValue(read(inData, inDataSize, as: UInt32.self)! != 0, for: .bypassEffect)
        case kAudioUnitProperty_CPULoad:
            let limit = read(inData, inDataSize, as: Float64.self)!
            guard (0...1).contains(limit) else { return kAudioUnitErr_InvalidPropertyValue }
            handle.renderHints.cpuLoadLimit = limit
            handle.notifyHandleListeners(inID)
        case kAudioUnitProperty_OfflineRender:
            handle.renderHints.rendersOffline = read(inData, inDataSize, as: UInt32.self)! != 0
            handle.notifyHandleListeners(inID)
        case kAudioUnitProperty_ClassInfo:
            try restoreClassInfo(handle, read(inData, inDataSize, as: UnsafeRawPointer?.self)!)
        case kAudioUnitProperty_PresentPreset:
            let preset = read(inData, inDataSize, as: AUPreset.self)!
            try unit.setValue(UnitPreset(number: Int(preset.presetNumber), name: ""), for: .presentPreset)
        case kAudioUnitProperty_SetRenderCallback:
            try handle.setRenderCallback(read(inData, inDataSize, as: AURenderCallbackStruct.self)!, element: inElement)
        case kAudioUnitProperty_MakeConnection:
            return try makeConnection(handle, read(inData, inDataSize, as: AudioUnitConnection.self)!, element: inElement)
        case kAudioOutputUnitProperty_EnableIO:
            return handle.enableIO(read(inData, inDataSize, as: UInt32.self)! != 0, element: inElement)
        case kAudioOutputUnitProperty_SetInputCallback:
            return try handle.setInputCallback(read(inData, inDataSize, as: AURenderCallbackStruct.self)!)
        default:
            return kAudioUnitErr_InvalidProperty
        }
        return noErr
    }
}

/// The JACK server's rate when `handle` is a JACK output unit outside any graph and the bus
/// is its input (the bus a program's render callback feeds).
private func standaloneJACKRate(_ handle: UnitHandle, scope: Scope, element: UInt32) -> Double? {
    guard handle.graph == nil, scope == .input, element == 0, handle.unit is JACKIOUnit else { return nil }
    return try? handle.unit.busConfiguration(scope: .input, element: 0).format.sampleRate
}

/// StreamFormat: the unit's own when it renders in it; else, on an input bus, a client
/// format (integer, interleaved, fixed point) converted at the bus, the unit rendering the
/// 32-bit float non-interleaved equivalent.
func setStreamFormat(_ handle: UnitHandle, _ asbd: AudioStreamBasicDescription, scope: Scope, element: UInt32) throws(AudioUnitError) -> OSStatus {
    let format = StreamFormat(asbd)
    let key = BusKey(scope: scope.rawValue, element: element)
    if let deviceRate = standaloneJACKRate(handle, scope: scope, element: element), format.sampleRate != deviceRate, (try? SampleConverter(format: format)) != nil {
        // A standalone output unit on JACK: the bus renders at the server's rate and the
        // program's callback is resampled from its rate (CallbackResampler).
        var engine = format.engineEquivalent
        engine.sampleRate = deviceRate
        try handle.unit.setValue(engine, for: .streamFormat, scope: scope, element: Int(element))
        handle.clientFormats[key] = format
        handle.formatsSet.insert(key)
        if let callback = handle.callbacks[key] { try handle.setRenderCallback(callback, element: element) }
        return noErr
    }
    do {
        try handle.unit.setValue(format, for: .streamFormat, scope: scope, element: Int(element))
        handle.clientFormats[key] = nil
    } catch where error.code == .formatNotSupported && scope == .input && (try? SampleConverter(format: format)) != nil {
        try handle.unit.setValue(format.engineEquivalent, for: .streamFormat, scope: scope, element: Int(element))
        handle.clientFormats[key] = format
    }
    handle.formatsSet.insert(key)
    // A callback on this bus now hands the application buffers in the new format.
    if let callback = handle.callbacks[key] { try handle.setRenderCallback(callback, element: element) }
    return noErr
}

/// MakeConnection: between two nodes of one graph, a graph connection (updated at once
/// when the graph is initialized); between units outside a graph, the unit's own pull
/// connection. A NULL source disconnects.
func makeConnection(_ handle: UnitHandle, _ connection: AudioUnitConnection, element: UInt32) throws(AudioUnitError) -> OSStatus {
    var source: UnitHandle?
    if let pointer = connection.sourceAudioUnit {
        switch UnitHandle.lookup(pointer) {
        case .failure(let error): return error.status
        case .success(let found): source = found
        }
    }
    if let graph = handle.graph, let node = handle.node {
        if let source {
            guard source.graph === graph, let sourceNode = source.node else { return kAUGraphErr_InvalidConnection }
            try graph.graph.connect(
                sourceNode, output: UnitHandle.engineSourceOutput(fromDevice: source.isDevice, connection.sourceOutputNumber), to: node, input: Int(element))
        } else {
            try graph.graph.disconnect(node, input: Int(element))
        }
        if graph.graph.isInitialized { try graph.graph.update() }
        return noErr
    }
    let sourceOutput = UnitHandle.engineSourceOutput(fromDevice: source?.isDevice == true, connection.sourceOutputNumber)
    try handle.unit.setValue(
        UnitConnection(sourceUnit: source?.unit, sourceOutputBus: sourceOutput, destinationInputBus: Int(element)),
        for: .makeConnection, scope: .input, element: Int(element))
    return noErr
}

extension AudioUnitParameterInfo {
    init(_ info: ParameterInfo) {
        self.init()
        withUnsafeMutableBytes(of: &name) { bytes in
            let utf8 = Array(info.name.utf8.prefix(51))
            for (index, byte) in utf8.enumerated() { bytes[index] = byte }
            bytes[utf8.count] = 0
        }
        unit = info.unit.rawValue
        minValue = info.minValue
        maxValue = info.maxValue
        defaultValue = info.defaultValue
        var options: UInt32 = 0
        if info.flags.contains(.isReadable) { options |= kAudioUnitParameterFlag_IsReadable }
        if info.flags.contains(.isWritable) { options |= kAudioUnitParameterFlag_IsWritable }
        if info.flags.contains(.canRamp) { options |= kAudioUnitParameterFlag_CanRamp }
        if info.flags.contains(.isOutput) { options |= kAudioUnitParameterFlag_MeterReadOnly }
        if info.flags.contains(.isLogarithmic) { options |= kAudioUnitParameterFlag_DisplayLogarithmic }
        if info.flags.contains(.isHighResolution) { options |= kAudioUnitParameterFlag_IsHighResolution }
        if info.flags.contains(.isGlobalMeta) { options |= kAudioUnitParameterFlag_IsGlobalMeta }
        if info.flags.contains(.isElementMeta) { options |= kAudioUnitParameterFlag_IsElementMeta }
        if info.valueStrings != nil { options |= kAudioUnitParameterFlag_ValuesHaveStrings }
        // The name as a CFString too, which the caller releases (CFNameRelease), as Apple's units give it.
        cfNameString = retainedCFString(info.name)
        options |= kAudioUnitParameterFlag_HasCFNameString | kAudioUnitParameterFlag_CFNameRelease
        flags = options
    }
}
