internal import AUCore
internal import AUEngine
internal import AUAppleUnits
internal import AUJACK

// Capture through an output device unit, as on iOS: Remote I/O's element 1 is the input
// (`kAudioOutputUnitProperty_EnableIO` on its input scope turns it on, its output scope's
// StreamFormat is the captured audio's format), read with `AudioUnitRender(rio, …, 1, …)`
// from a render callback or from the input callback (`kAudioOutputUnitProperty_SetInputCallback`,
// called each cycle before the output is rendered, with no buffers), or connected in a graph
// (`AUGraphConnectNodeInput(graph, rioNode, 1, …)`). On JACK, element 1 is the unit's `in_N`
// ports (the JACK I/O unit's capture bus, its output bus 0): what a driver passes a graph as
// its application input. File and null devices have no input.

/// What a device unit's handle keeps of its capture.
struct DeviceCapture {
    /// EnableIO, input scope, element 1.
    var isEnabled = false
    /// EnableIO, output scope, element 0: off, a standalone unit plays silence and its
    /// render callback is not called.
    var playsOutput = true
    /// SetInputCallback.
    var inputCallback: AURenderCallbackStruct?
    /// The graph the input callback is registered on, and its token.
    weak var registeredGraph: AudioGraph?
    var registeredToken: RenderNotifyToken?
}

extension AppleComponents {
    /// Whether a description names an output device unit (Remote I/O and friends, or the JACK I/O unit).
    static func isDeviceOutput(_ description: AudioComponentDescription) -> Bool {
        guard description.componentType == kAudioUnitType_Output else { return false }
        if description.componentManufacturer == kAudioUnitManufacturer_Apple {
            return deviceOutputs.contains { $0.subtype.rawValue == description.componentSubType }
        }
        return ComponentDescription(description) == JACKIOUnit.componentDescription
    }
}

extension GraphHandle {
    /// The output device's capture reads this graph's application input (AUGraphInitialize).
    func attachDeviceCapture() throws(AudioUnitError) {
        let output = graph.outputNode
        for (node, handle) in units where handle.isDevice { try handle.attachCapture(to: node == output ? graph : nil) }
    }

    /// A connection's source output as the AUHost unit's (``UnitHandle/engineSourceOutput(fromDevice:_:)``).
    func engineSourceOutput(_ number: Int32, _ output: UInt32) -> Int {
        let entry = nodes.first { $0.number == number }
        return UnitHandle.engineSourceOutput(fromDevice: entry.map { AppleComponents.isDeviceOutput($0.description) } ?? false, output)
    }
}

extension UnitHandle {
    /// Whether `unit` is an output device (JACK, or a file or null device).
    static func isDevice(_ unit: EngineUnit) -> Bool { unit is JACKIOUnit || unit is PacedDeviceUnit }

    /// A connection's source output as the AUHost unit's: a device's element 1 is its capture bus 0.
    static func engineSourceOutput(fromDevice: Bool, _ output: UInt32) -> Int { fromDevice && output == 1 ? 0 : Int(output) }

    /// Whether the device has an input: a JACK server's capture ports.
    var canCapture: Bool { unit is JACKIOUnit }

    /// Apple's scope and element of an I/O unit as the AUHost unit's: element 1 (capture) is
    /// the device's output bus 0 on either scope; the output scope of element 0 (the
    /// hardware side of the playback) is the playback bus.
    func engineBus(scope: UInt32, element: UInt32) -> (scope: UInt32, element: UInt32) {
        guard isDevice else { return (scope, element) }
        switch (scope, element) {
        case (kAudioUnitScope_Output, 1), (kAudioUnitScope_Input, 1): return (kAudioUnitScope_Output, 0)
        case (kAudioUnitScope_Output, 0): return (kAudioUnitScope_Input, 0)
        default: return (scope, element)
        }
    }

    /// The properties whose element is Apple's I/O element itself, not a bus of the unit.
    static let ioElementProperties: Set<UInt32> = [
        kAudioOutputUnitProperty_EnableIO, kAudioOutputUnitProperty_HasIO, kAudioOutputUnitProperty_IsRunning, kAudioOutputUnitProperty_SetInputCallback,
    ]

    /// The scope and element a property call means on the AUHost unit (``engineBus(scope:element:)``).
    func propertyBus(_ id: UInt32, scope: UInt32, element: UInt32) -> (UInt32, UInt32) {
        Self.ioElementProperties.contains(id) ? (scope, element) : engineBus(scope: scope, element: element)
    }

    /// EnableIO: capture (element 1) on a device with an input; playback (element 0) off on
    /// a standalone JACK unit. Set before AudioUnitInitialize, as on Apple.
    func enableIO(_ enable: Bool, element: UInt32) -> OSStatus {
        guard unit.state != .initialized else { return kAudioUnitErr_Initialized }
        switch element {
        case 1:
            if enable && !canCapture { return kAudioUnitErr_InvalidElement }
            capture.isEnabled = enable
        case 0:
            // A graph's device always plays the graph; a device with no input only plays.
            if !enable && (graph != nil || !canCapture) { return kAudio_UnimplementedError }
            capture.playsOutput = enable
        default:
            return kAudioUnitErr_InvalidElement
        }
        return noErr
    }

    /// SetInputCallback (nil clears it): registered again on the graph the device plays, if any.
    func setInputCallback(_ callback: AURenderCallbackStruct?) throws(AudioUnitError) -> OSStatus {
        capture.inputCallback = callback?.inputProc == nil ? nil : callback
        if let played = capturedGraph { try attachCapture(to: played.takeUnretainedValue()) }
        return noErr
    }

    /// Registers the input callback on the graph the device plays now (`graph`), and makes
    /// element 1 read that graph's input; with capture off or no graph, undoes both.
    func attachCapture(to graph: AudioGraph?) throws(AudioUnitError) {
        if let registered = capture.registeredGraph, let token = capture.registeredToken { _ = registered.removeRenderNotify(token) }
        capture.registeredGraph = nil
        capture.registeredToken = nil
        capturedGraph = nil
        guard capture.isEnabled, canCapture, let graph else { return }
        capturedGraph = Unmanaged.passUnretained(graph)
        guard let callback = capture.inputCallback, let proc = callback.inputProc else { return }
        nonisolated(unsafe) let refCon = callback.inputProcRefCon
        capture.registeredToken = try graph.addRenderNotify(RenderCallback { flags, timestamp, _, buffers in
            guard flags.contains(.preRender) else { return 0 }
            var cTimestamp = AudioTimeStamp(timestamp)
            var cFlags: AudioUnitRenderActionFlags = 0
            return proc(refCon, &cFlags, &cTimestamp, 1, UInt32(buffers.frameCount), nil)
        })
        capture.registeredGraph = graph
    }

    /// `AudioUnitRender` on element 1: the captured audio of the slice being rendered.
    /// - Thread: [render] No allocation, no lock.
    func renderCapture(into buffers: AudioBuffers) -> OSStatus {
        guard let graph = capturedGraph else { return kAudioUnitErr_CannotDoInCurrentContext }
        return graph._withUnsafeGuaranteedRef { $0.copyApplicationInput(into: buffers) } ? noErr : kAudioUnitErr_CannotDoInCurrentContext
    }
}
