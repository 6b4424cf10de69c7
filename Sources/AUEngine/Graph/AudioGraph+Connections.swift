import AUCore

/// Audio connections between nodes and render callbacks into their inputs
/// (`AUGraphConnectNodeInput`, `AUGraphSetNodeInputCallback`).
extension AudioGraph {
    /// Connects an output bus of `source` to an input bus of `destination`
    /// (`AUGraphConnectNodeInput`). An input takes one connection or one callback.
    /// Formats are checked by ``initialize()`` / ``update()``.
    /// - Thread: [control]
    public func connect(_ source: GraphNode, output: Element = 0, to destination: GraphNode, input: Element = 0) throws(AudioUnitError) {
        try requireNotDisposed()
        let from = try model.node(source)
        let to = try model.node(destination)
        let connection = GraphConnection(source: source, sourceOutputBus: output, destination: destination, destinationInputBus: input)
        guard source != destination || destination == model.outputNode else {
            throw AudioUnitError(.invalidPropertyValue, "cannot connect \(model.label(source)) output \(output) to its own input \(input): that is a cycle")
        }
        if let unit = from.unit, !(0..<unit.elementCount(.output)).contains(output) {
            throw AudioUnitError(.invalidElement, "\(model.label(source)) has \(unit.elementCount(.output)) output bus(es); there is no output \(output)")
        }
        if let unit = to.unit, !(0..<unit.elementCount(.input)).contains(input) {
            throw AudioUnitError(.invalidElement, "\(model.label(destination)) has \(unit.elementCount(.input)) input bus(es); there is no input \(input)")
        }
        guard output >= 0, input >= 0 else { throw AudioUnitError(.invalidElement, "bus numbers are not negative") }
        let endpoint = GraphEndpoint(destination, bus: input)
        if let existing = model.connection(into: endpoint) {
            throw AudioUnitError(
                .invalidPropertyValue,
                "\(model.label(destination)) input \(input) is already fed by \(model.label(existing.source)) output \(existing.sourceOutputBus); disconnect it first, or mix through a mixer (aumx:mcmx:AUHs)")
        }
        if model.inputCallbacks[endpoint] != nil {
            throw AudioUnitError(.invalidPropertyValue, "\(model.label(destination)) input \(input) is fed by a render callback; remove it first")
        }
        model.connections.append(connection)
        markEdited()
    }

    /// Removes the connection into an input bus (`AUGraphDisconnectNodeInput`).
    /// - Thread: [control]
    public func disconnect(_ destination: GraphNode, input: Element = 0) throws(AudioUnitError) {
        try requireNotDisposed()
        _ = try model.node(destination)
        guard Self.removeAll(from: &model.connections, where: { $0.destination == destination && $0.destinationInputBus == input }) else {
            throw AudioUnitError(.noConnection, "\(model.label(destination)) input \(input) is not connected")
        }
        markEdited()
    }

    /// Removes the elements of `list` that `matches`; whether there was one.
    static func removeAll<Connection>(from list: inout [Connection], where matches: (Connection) -> Bool) -> Bool {
        let before = list.count
        list.removeAll(where: matches)
        return list.count < before
    }

    /// Every connection, in the order made (`AUGraphGetNumberOfInteractions` …).
    /// - Thread: [control]
    public var connections: [GraphConnection] { model.connections }

    /// Feeds an input bus from a render callback (`AUGraphSetNodeInputCallback`); nil
    /// removes it. The callback runs on the render thread: it must not allocate or lock.
    /// - Thread: [control]
    public func setInputCallback(_ callback: RenderCallback?, for node: GraphNode, input: Element = 0) throws(AudioUnitError) {
        try requireNotDisposed()
        let entry = try model.node(node)
        if let unit = entry.unit, !(0..<unit.elementCount(.input)).contains(input) {
            throw AudioUnitError(.invalidElement, "\(model.label(node)) has \(unit.elementCount(.input)) input bus(es); there is no input \(input)")
        }
        let endpoint = GraphEndpoint(node, bus: input)
        if callback != nil, let existing = model.connection(into: endpoint) {
            throw AudioUnitError(.invalidPropertyValue, "\(model.label(node)) input \(input) is connected to \(model.label(existing.source)); disconnect it first")
        }
        model.inputCallbacks[endpoint] = callback
        markEdited()
    }
}
