internal import AUCore
internal import AUEngine

// AUGraph's interaction calls: a graph's interactions are its connections (in the engine's
// order) and then its nodes' input callbacks (by node number and input), as Apple lists them.

extension GraphHandle {
    /// Every interaction of the graph, or only those `number` takes part in (as source or
    /// destination of a connection, or destination of a callback).
    func interactions(of number: Int32? = nil) -> [AUNodeInteraction] {
        func appleNumber(_ node: GraphNode) -> Int32? { nodes.first { $0.node == node }?.number }
        var result: [AUNodeInteraction] = []
        for connection in graph.connections {
            guard let source = appleNumber(connection.source), let destination = appleNumber(connection.destination),
                  number == nil || number == source || number == destination else { continue }
            var interaction = AUNodeInteraction()
            interaction.nodeInteractionType = kAUNodeInteraction_Connection
            interaction.nodeInteraction.connection = AUNodeConnection(
                sourceNode: source, sourceOutputNumber: UInt32(connection.sourceOutputBus), destNode: destination,
                destInputNumber: UInt32(connection.destinationInputBus))
            result.append(interaction)
        }
        let live = graph.model.inputCallbacks.keys
        let callbacks = inputCallbacks.filter { live.contains($0.key) && $0.value.inputProc != nil }
            .compactMap { entry in appleNumber(entry.key.node).map { (node: $0, bus: entry.key.bus, callback: entry.value) } }
            .sorted { ($0.node, $0.bus) < ($1.node, $1.bus) }
        for entry in callbacks where number == nil || number == entry.node {
            var interaction = AUNodeInteraction()
            interaction.nodeInteractionType = kAUNodeInteraction_InputCallback
            interaction.nodeInteraction.inputCallback = AUNodeRenderCallback(destNode: entry.node, destInputNumber: UInt32(entry.bus), cback: entry.callback)
            result.append(interaction)
        }
        return result
    }
}

/// `AUGraphGetNumberOfInteractions`: the graph's connections and input callbacks.
/// - Thread: [control]
@_cdecl("AUGraphGetNumberOfInteractions")
public func _AUGraphGetNumberOfInteractions(_ inGraph: OpaquePointer?, _ out: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withGraph(inGraph) { handle in
        guard let out else { return kAudio_ParamError }
        out.pointee = UInt32(handle.interactions().count)
        return noErr
    }
}

/// `AUGraphGetInteractionInfo`: the interaction at an index (kAUGraphErr_InvalidConnection past the end).
/// - Thread: [control]
@_cdecl("AUGraphGetInteractionInfo")
public func _AUGraphGetInteractionInfo(_ inGraph: OpaquePointer?, _ inIndex: UInt32, _ out: UnsafeMutablePointer<AUNodeInteraction>?) -> OSStatus {
    withGraph(inGraph) { handle in
        guard let out else { return kAudio_ParamError }
        let all = handle.interactions()
        guard Int(inIndex) < all.count else { return kAUGraphErr_InvalidConnection }
        out.pointee = all[Int(inIndex)]
        return noErr
    }
}

/// `AUGraphCountNodeInteractions`: the interactions a node takes part in.
/// - Thread: [control]
@_cdecl("AUGraphCountNodeInteractions")
public func _AUGraphCountNodeInteractions(_ inGraph: OpaquePointer?, _ inNode: Int32, _ out: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withGraph(inGraph) { handle in
        guard let out else { return kAudio_ParamError }
        guard handle.node(inNode) != nil else { return kAUGraphErr_NodeNotFound }
        out.pointee = UInt32(handle.interactions(of: inNode).count)
        return noErr
    }
}

/// `AUGraphGetNodeInteractions`: up to `*ioCount` of a node's interactions; `*ioCount` becomes how many were written.
/// - Thread: [control]
@_cdecl("AUGraphGetNodeInteractions")
public func _AUGraphGetNodeInteractions(
    _ inGraph: OpaquePointer?, _ inNode: Int32, _ ioCount: UnsafeMutablePointer<UInt32>?, _ out: UnsafeMutablePointer<AUNodeInteraction>?
) -> OSStatus {
    withGraph(inGraph) { handle in
        guard let ioCount, let out else { return kAudio_ParamError }
        guard handle.node(inNode) != nil else { return kAUGraphErr_NodeNotFound }
        let mine = handle.interactions(of: inNode).prefix(Int(ioCount.pointee))
        for (index, interaction) in mine.enumerated() { out[index] = interaction }
        ioCount.pointee = UInt32(mine.count)
        return noErr
    }
}
