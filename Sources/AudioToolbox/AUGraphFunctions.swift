import Synchronization
internal import AUCore
internal import AUEngine
internal import AUAppleUnits
internal import AUJACK

/// What an `AUGraph` points at: AUHost's `AudioGraph`, Apple's node numbers and the unit
/// handles of its nodes (made when the graph opens).
final class GraphHandle: @unchecked Sendable {
    let graph = AudioGraph(registry: AppleComponents.registry)
    /// AUNode number → the engine's node, in the order nodes were added.
    var nodes: [(number: Int32, node: GraphNode, description: AudioComponentDescription)] = []
    var nextNumber: Int32 = 1
    var units: [GraphNode: UnitHandle] = [:]
    var storages: [CallbackStorage] = []
    /// The C callbacks set with AUGraphSetNodeInputCallback, by input (the engine's model
    /// says which inputs still have one: ``GraphInteractions``).
    var inputCallbacks: [GraphEndpoint: AURenderCallbackStruct] = [:]
    var notifies = CRenderNotifies()
    /// Delivers render-side notifications while the graph runs.
    var pump: NotificationPump?

    init() {
        // An AUGraph renders on the thread that pulls it, as Apple's does.
        graph.parallelism = RenderParallelism(threads: 1)
    }

    var pointer: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    static let live = Mutex<[UInt: GraphHandle]>([:])

    static func key(_ pointer: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer))) }

    func node(_ number: Int32) -> GraphNode? { nodes.first { $0.number == number }?.node }

    /// Makes a handle for every node's unit once the graph is open.
    func adoptUnits() throws(AudioUnitError) {
        for entry in nodes where units[entry.node] == nil {
            let unit = try graph.unit(of: entry.node)
            let handle = UnitHandle(unit: unit, entry: AppleComponents.entry(for: ComponentDescription(entry.description)))
            handle.graph = self
            handle.node = entry.node
            UnitHandle.register(handle)
            units[entry.node] = handle
        }
    }

    /// Drops the handles of units the graph no longer holds.
    func releaseUnits(_ nodes: [GraphNode]) {
        for node in nodes {
            if let handle = units.removeValue(forKey: node) {
                handle.pulledGraph = nil
                UnitHandle.unregister(handle)
            }
        }
    }

    /// Apple's default for the formats a program never set is the device's rate: the JACK
    /// server's, or the file or null device's (44.1 kHz unless the program set the output
    /// unit's). Before the formats propagate, every bus of the nodes whose formats the program
    /// did not touch that no connection feeds (a synth's or file player's output) takes the
    /// device's rate; connected inputs then take their sources' formats.
    func adoptDeviceRate() {
        guard let output = graph.outputNode, let device = try? graph.unit(of: output), device is JACKIOUnit || device is PacedDeviceUnit,
              let rate = try? device.busConfiguration(scope: .input, element: 0).format.sampleRate else { return }
        let fed = Set(graph.connections.map { GraphEndpoint($0.destination, bus: $0.destinationInputBus) })
        for (node, handle) in units where node != output && handle.unit.state != .initialized && handle.formatsSet.isEmpty {
            for scope in [Scope.input, .output] {
                for bus in 0..<handle.unit.elementCount(scope) {
                    guard scope == .output || !fed.contains(GraphEndpoint(node, bus: bus)),
                          var format = try? handle.unit.busConfiguration(scope: scope, element: bus).format, format.sampleRate != rate
                    else { continue }
                    format.sampleRate = rate
                    try? handle.unit.setValue(format, for: .streamFormat, scope: scope, element: bus)
                }
            }
        }
    }

    /// The output node's unit when it is a device: it plays this graph.
    func attachDevice() {
        for handle in units.values { handle.pulledGraph = nil }
        guard let output = graph.outputNode, let unit = try? graph.unit(of: output) else { return }
        units[output]?.pulledGraph = Unmanaged.passUnretained(graph)
        if let device = unit as? PacedDeviceUnit { device.graph = graph }
        if let jack = unit as? JACKIOUnit { jack.graph = graph }
    }
}

/// Runs `body` with the live graph of `pointer`: ParamError for NULL, InvalidAudioUnit for
/// a pointer that is no live graph.
func withGraph(_ pointer: OpaquePointer?, _ body: (GraphHandle) throws(AudioUnitError) -> OSStatus) -> OSStatus {
    guard let pointer else { return kAudio_ParamError }
    apiLock.lock()
    defer { apiLock.unlock() }
    guard let handle = GraphHandle.live.withLock({ $0[GraphHandle.key(pointer)] }) else { return kAudio_ParamError }
    do {
        return try body(handle)
    } catch {
        return error.status
    }
}

/// `NewAUGraph`.
/// - Thread: [control]
@_cdecl("NewAUGraph")
public func _NewAUGraph(_ outGraph: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    guard let outGraph else { return kAudio_ParamError }
    let handle = GraphHandle()
    _ = Unmanaged.passRetained(handle)
    GraphHandle.live.withLock { $0[GraphHandle.key(handle.pointer)] = handle }
    outGraph.pointee = handle.pointer
    return noErr
}

/// `DisposeAUGraph`: stops, uninitializes and closes the graph, and disposes its units.
/// - Thread: [control]
@_cdecl("DisposeAUGraph")
public func _DisposeAUGraph(_ inGraph: OpaquePointer?) -> OSStatus {
    withGraph(inGraph) { handle in
        handle.pump?.stop()
        handle.pump = nil
        handle.graph.dispose()
        handle.releaseUnits(Array(handle.units.keys))
        _ = GraphHandle.live.withLock { $0.removeValue(forKey: GraphHandle.key(handle.pointer)) }
        Unmanaged.passUnretained(handle).release()
        return noErr
    }
}

/// `AUGraphAddNode`: a node of the component `inDescription` names (instantiated when the
/// graph opens, at once when it is open).
/// - Thread: [control]
@_cdecl("AUGraphAddNode")
public func _AUGraphAddNode(_ inGraph: OpaquePointer?, _ inDescription: UnsafePointer<AudioComponentDescription>?, _ outNode: UnsafeMutablePointer<Int32>?) -> OSStatus {
    withGraph(inGraph) { handle throws(AudioUnitError) in
        guard let inDescription, let outNode else { return kAudio_ParamError }
        let description = ComponentDescription(inDescription.pointee)
        guard AppleComponents.registry.components(matching: description).first != nil else { return kAudioUnitErr_ExtensionNotFound }
        let node = try handle.graph.addNode(description)
        let number = handle.nextNumber
        handle.nextNumber += 1
        handle.nodes.append((number, node, inDescription.pointee))
        if handle.graph.isOpen { try handle.adoptUnits() }
        outNode.pointee = number
        return noErr
    }
}

/// `AUGraphRemoveNode`.
/// - Thread: [control]
@_cdecl("AUGraphRemoveNode")
public func _AUGraphRemoveNode(_ inGraph: OpaquePointer?, _ inNode: Int32) -> OSStatus {
    withGraph(inGraph) { handle throws(AudioUnitError) in
        guard let node = handle.node(inNode) else { return kAUGraphErr_NodeNotFound }
        try handle.graph.removeNode(node)
        handle.nodes.removeAll { $0.number == inNode }
        handle.releaseUnits([node])
        return noErr
    }
}

/// `AUGraphGetNodeCount`.
/// - Thread: [control]
@_cdecl("AUGraphGetNodeCount")
public func _AUGraphGetNodeCount(_ inGraph: OpaquePointer?, _ outCount: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withGraph(inGraph) { handle in
        guard let outCount else { return kAudio_ParamError }
        outCount.pointee = UInt32(handle.nodes.count)
        return noErr
    }
}

/// `AUGraphGetIndNode`.
/// - Thread: [control]
@_cdecl("AUGraphGetIndNode")
public func _AUGraphGetIndNode(_ inGraph: OpaquePointer?, _ inIndex: UInt32, _ outNode: UnsafeMutablePointer<Int32>?) -> OSStatus {
    withGraph(inGraph) { handle in
        guard let outNode else { return kAudio_ParamError }
        guard Int(inIndex) < handle.nodes.count else { return kAUGraphErr_NodeNotFound }
        outNode.pointee = handle.nodes[Int(inIndex)].number
        return noErr
    }
}

/// `AUGraphNodeInfo`: the node's description and (once the graph is open) its unit.
/// - Thread: [control]
@_cdecl("AUGraphNodeInfo")
public func _AUGraphNodeInfo(
    _ inGraph: OpaquePointer?, _ inNode: Int32, _ outDescription: UnsafeMutablePointer<AudioComponentDescription>?,
    _ outUnit: UnsafeMutablePointer<OpaquePointer?>?
) -> OSStatus {
    withGraph(inGraph) { handle in
        guard let entry = handle.nodes.first(where: { $0.number == inNode }) else { return kAUGraphErr_NodeNotFound }
        outDescription?.pointee = entry.description
        if let outUnit {
            outUnit.pointee = handle.units[entry.node]?.pointer
        }
        return noErr
    }
}

/// `AUGraphOpen`: instantiates every node's unit.
/// - Thread: [control]
@_cdecl("AUGraphOpen")
public func _AUGraphOpen(_ inGraph: OpaquePointer?) -> OSStatus {
    withGraph(inGraph) { handle throws(AudioUnitError) in
        try handle.graph.open()
        try handle.adoptUnits()
        return noErr
    }
}

/// `AUGraphClose`: disposes the units (the nodes stay).
/// - Thread: [control]
@_cdecl("AUGraphClose")
public func _AUGraphClose(_ inGraph: OpaquePointer?) -> OSStatus {
    withGraph(inGraph) { handle in
        handle.graph.close()
        handle.releaseUnits(Array(handle.units.keys))
        return noErr
    }
}

/// `AUGraphInitialize`: formats propagated and checked, every unit initialized, the render
/// plan published; the output device (Remote I/O and friends) is told which graph it plays.
/// - Thread: [control]
@_cdecl("AUGraphInitialize")
public func _AUGraphInitialize(_ inGraph: OpaquePointer?) -> OSStatus {
    withGraph(inGraph) { handle throws(AudioUnitError) in
        try handle.graph.open()
        try handle.adoptUnits()
        handle.attachDevice()
        handle.adoptDeviceRate()
        try handle.graph.initialize()
        try handle.attachDeviceCapture()
        return noErr
    }
}

/// `AUGraphUninitialize`.
/// - Thread: [control]
@_cdecl("AUGraphUninitialize")
public func _AUGraphUninitialize(_ inGraph: OpaquePointer?) -> OSStatus {
    withGraph(inGraph) { handle in
        handle.pump?.stop()
        handle.pump = nil
        handle.graph.uninitialize()
        return noErr
    }
}

/// `AUGraphStart`: starts the output device, which renders the graph from then on; a JACK
/// device's ports are connected to the system playback ports.
/// - Thread: [control]
@_cdecl("AUGraphStart")
public func _AUGraphStart(_ inGraph: OpaquePointer?) -> OSStatus {
    withGraph(inGraph) { handle throws(AudioUnitError) in
        try handle.graph.start()
        if handle.pump == nil { handle.pump = NotificationPump(graph: handle.graph) }
        if let output = handle.graph.outputNode, let jack = try? handle.graph.unit(of: output) as? JACKIOUnit {
            try? jack.connectToSystem()
        }
        return noErr
    }
}

/// `AUGraphStop`.
/// - Thread: [control]
@_cdecl("AUGraphStop")
public func _AUGraphStop(_ inGraph: OpaquePointer?) -> OSStatus {
    withGraph(inGraph) { handle in
        handle.graph.stop()
        handle.pump?.stop()
        handle.pump = nil
        return noErr
    }
}

/// `AUGraphIsOpen`.
/// - Thread: [control]
@_cdecl("AUGraphIsOpen")
public func _AUGraphIsOpen(_ inGraph: OpaquePointer?, _ out: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    withGraph(inGraph) { handle in store(handle.graph.isOpen, in: out) }
}

/// `AUGraphIsInitialized`.
/// - Thread: [control]
@_cdecl("AUGraphIsInitialized")
public func _AUGraphIsInitialized(_ inGraph: OpaquePointer?, _ out: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    withGraph(inGraph) { handle in store(handle.graph.isInitialized, in: out) }
}

/// `AUGraphIsRunning`.
/// - Thread: [control]
@_cdecl("AUGraphIsRunning")
public func _AUGraphIsRunning(_ inGraph: OpaquePointer?, _ out: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    withGraph(inGraph) { handle in store(handle.graph.isRunning, in: out) }
}

/// `AUGraphConnectNodeInput`: before AUGraphInitialize, or applied by AUGraphUpdate.
/// - Thread: [control]
@_cdecl("AUGraphConnectNodeInput")
public func _AUGraphConnectNodeInput(_ inGraph: OpaquePointer?, _ inSource: Int32, _ inSourceOutput: UInt32, _ inDest: Int32, _ inDestInput: UInt32) -> OSStatus {
    withGraph(inGraph) { handle throws(AudioUnitError) in
        guard let source = handle.node(inSource), let destination = handle.node(inDest) else { return kAUGraphErr_NodeNotFound }
        try handle.graph.connect(source, output: handle.engineSourceOutput(inSource, inSourceOutput), to: destination, input: Int(inDestInput))
        return noErr
    }
}

/// `AUGraphDisconnectNodeInput`: the connection into the input, else its render callback.
/// - Thread: [control]
@_cdecl("AUGraphDisconnectNodeInput")
public func _AUGraphDisconnectNodeInput(_ inGraph: OpaquePointer?, _ inDest: Int32, _ inDestInput: UInt32) -> OSStatus {
    withGraph(inGraph) { handle throws(AudioUnitError) in
        guard let destination = handle.node(inDest) else { return kAUGraphErr_NodeNotFound }
        let input = GraphEndpoint(destination, bus: Int(inDestInput))
        // As on Apple, the input's render callback goes too when no connection feeds it.
        if handle.graph.model.connection(into: input) == nil, handle.graph.model.inputCallbacks[input] != nil {
            try handle.graph.setInputCallback(nil, for: destination, input: Int(inDestInput))
            handle.inputCallbacks[input] = nil
            return noErr
        }
        try handle.graph.disconnect(destination, input: Int(inDestInput))
        return noErr
    }
}

/// `AUGraphSetNodeInputCallback`: a render callback feeds the node's input (replacing a
/// connection or an earlier callback); while the graph is initialized, AUGraphUpdate applies it.
/// - Thread: [control]
@_cdecl("AUGraphSetNodeInputCallback")
public func _AUGraphSetNodeInputCallback(_ inGraph: OpaquePointer?, _ inDest: Int32, _ inDestInput: UInt32, _ inCallback: UnsafePointer<AURenderCallbackStruct>?) -> OSStatus {
    withGraph(inGraph) { handle throws(AudioUnitError) in
        guard let inCallback else { return kAudio_ParamError }
        guard let node = handle.node(inDest) else { return kAUGraphErr_NodeNotFound }
        handle.inputCallbacks[GraphEndpoint(node, bus: Int(inDestInput))] = inCallback.pointee
        if let unit = handle.units[node] {
            try unit.setRenderCallback(inCallback.pointee, element: inDestInput)
        } else {
            // Not open yet: no client format can have been set on the unit.
            let storage = CallbackStorage(clientFormat: nil, capacityFrames: 4096)
            handle.storages.append(storage)
            let engine = inCallback.pointee.inputProc == nil ? nil : CRenderCallback(inCallback.pointee, storage: storage).engineCallback
            try handle.graph.setInputCallback(engine, for: node, input: Int(inDestInput))
        }
        return noErr
    }
}

/// `AUGraphClearConnections`: every connection and input callback removed.
/// - Thread: [control]
@_cdecl("AUGraphClearConnections")
public func _AUGraphClearConnections(_ inGraph: OpaquePointer?) -> OSStatus {
    withGraph(inGraph) { handle throws(AudioUnitError) in
        for connection in handle.graph.connections { try handle.graph.disconnect(connection.destination, input: connection.destinationInputBus) }
        for entry in handle.nodes {
            for input in 0..<max(1, (try? handle.graph.unit(of: entry.node).elementCount(.input)) ?? 1) {
                try? handle.graph.setInputCallback(nil, for: entry.node, input: input)
            }
        }
        for unit in handle.units.values { unit.callbacks.removeAll() }
        return noErr
    }
}

/// `AUGraphUpdate`: applies the edits made since the last plan; the render thread takes the
/// new plan at its next cycle. `outIsUpdated` non-NULL: returns at once with whether the
/// update is done (AUHost compiles it at once, so 1); NULL: waits until the render thread
/// has taken it.
/// - Thread: [control]
@_cdecl("AUGraphUpdate")
public func _AUGraphUpdate(_ inGraph: OpaquePointer?, _ outIsUpdated: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    withGraph(inGraph) { handle throws(AudioUnitError) in
        try handle.graph.update()
        handle.attachDevice()
        if let outIsUpdated {
            outIsUpdated.pointee = 1
        } else if handle.graph.isRunning {
            _ = handle.graph.waitUntilUpdated()
        }
        return noErr
    }
}

/// `AUGraphGetCPULoad`: render time over the rendered audio's duration since the last call.
/// - Thread: [control]
@_cdecl("AUGraphGetCPULoad")
public func _AUGraphGetCPULoad(_ inGraph: OpaquePointer?, _ out: UnsafeMutablePointer<Float32>?) -> OSStatus {
    withGraph(inGraph) { handle in
        guard let out else { return kAudio_ParamError }
        out.pointee = Float32(handle.graph.cpuLoad)
        return noErr
    }
}

/// `AUGraphGetMaxCPULoad`: the highest render time of one cycle over its duration since the last call.
/// - Thread: [control]
@_cdecl("AUGraphGetMaxCPULoad")
public func _AUGraphGetMaxCPULoad(_ inGraph: OpaquePointer?, _ out: UnsafeMutablePointer<Float32>?) -> OSStatus {
    withGraph(inGraph) { handle in
        guard let out else { return kAudio_ParamError }
        out.pointee = Float32(handle.graph.maxCPULoad)
        return noErr
    }
}

/// `AUGraphAddRenderNotify`: called before and after each render of the graph.
/// - Thread: [control]
@_cdecl("AUGraphAddRenderNotify")
public func _AUGraphAddRenderNotify(_ inGraph: OpaquePointer?, _ inProc: AURenderCallback?, _ inData: UnsafeMutableRawPointer?) -> OSStatus {
    withGraph(inGraph) { handle throws(AudioUnitError) in
        guard let inProc else { return kAudio_ParamError }
        let graph = handle.graph
        try handle.notifies.add(inProc, inData) { callback throws(AudioUnitError) in try graph.addRenderNotify(callback) }
        return noErr
    }
}

/// `AUGraphRemoveRenderNotify`.
/// - Thread: [control]
@_cdecl("AUGraphRemoveRenderNotify")
public func _AUGraphRemoveRenderNotify(_ inGraph: OpaquePointer?, _ inProc: AURenderCallback?, _ inData: UnsafeMutableRawPointer?) -> OSStatus {
    withGraph(inGraph) { handle in
        guard let inProc else { return kAudio_ParamError }
        let graph = handle.graph
        handle.notifies.remove(inProc, inData) { _ = graph.removeRenderNotify($0) }
        return noErr
    }
}

/// `CAShow`: prints an AUGraph (AUHost's graph dump) or an AudioUnit to standard output.
/// - Thread: [control]
@_cdecl("CAShow")
public func _CAShow(_ inObject: UnsafeMutableRawPointer?) -> OSStatus {
    guard let inObject else { return kAudio_ParamError }
    apiLock.lock()
    defer { apiLock.unlock() }
    let pointer = OpaquePointer(inObject)
    if let graph = GraphHandle.live.withLock({ $0[GraphHandle.key(pointer)] }) {
        print("AudioUnitGraph \(inObject):")
        print(graph.graph.dump())
        return noErr
    }
    if case .success(let unit) = UnitHandle.lookup(pointer) {
        print("AudioUnit \(inObject): \(unit.unit.name) \(unit.unit.componentDescription) \(unit.unit.state)")
        return noErr
    }
    return kAudio_ParamError
}

/// Stores a C Boolean.
func store(_ value: Bool, in out: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    guard let out else { return kAudio_ParamError }
    out.pointee = value ? 1 : 0
    return noErr
}

/// Whether two (procedure, user data) pairs name the same callback.
func sameCallback<Proc>(_ a: Proc, _ aData: UnsafeMutableRawPointer?, _ b: Proc, _ bData: UnsafeMutableRawPointer?) -> Bool {
    unsafeBitCast(a, to: UnsafeRawPointer.self) == unsafeBitCast(b, to: UnsafeRawPointer.self) && aData == bData
}
