import AUCore

/// Adding, removing and looking up nodes (`AUGraphAddNode`, `AUGraphRemoveNode`, `AUGraphNodeInfo`).
extension AudioGraph {
    /// Adds a node for the unit `description` names (`AUGraphAddNode`); it is instantiated
    /// now when the graph is open, else by ``open()``.
    /// - Thread: [control]
    @discardableResult
    public func addNode(_ description: ComponentDescription, name: String? = nil) throws(AudioUnitError) -> GraphNode {
        try requireNotDisposed()
        guard let registry else {
            throw AudioUnitError(.invalidPropertyValue, "cannot add \(description) by description: the graph was made without a registry; add the unit instance instead")
        }
        guard let component = registry.firstComponent(matching: description) else {
            throw AudioUnitError(.extensionNotFound, "no unit matches \(description)")
        }
        try requireSingleOutput(component.description)
        var entry = GraphModel.Node(description: component.description, name: name ?? component.name, unit: nil)
        if isOpen { entry.unit = try component.instantiate() }
        return insert(entry)
    }

    /// Adds a node for a unit instance the caller made; the graph owns it from now on.
    /// - Thread: [control]
    @discardableResult
    public func addNode(_ unit: AudioUnit, name: String? = nil) throws(AudioUnitError) -> GraphNode {
        try requireNotDisposed()
        guard unit.state != .disposed else { throw AudioUnitError(.instanceInvalidated, "cannot add \(unit.name): it has been disposed") }
        if model.nodes.values.contains(where: { $0.unit === unit }) {
            throw AudioUnitError(.invalidPropertyValue, "\(unit.name) is already a node of this graph")
        }
        try requireSingleOutput(unit.componentDescription)
        return insert(GraphModel.Node(description: unit.componentDescription, name: name ?? unit.name, unit: unit))
    }

    private func requireSingleOutput(_ description: ComponentDescription) throws(AudioUnitError) {
        if description.type == ComponentType.output, let existing = model.outputNode {
            throw AudioUnitError(.invalidPropertyValue, "the graph already has an output node, \(model.label(existing)); a graph has at most one")
        }
    }

    private func insert(_ entry: GraphModel.Node) -> GraphNode {
        let node = GraphNode(rawValue: model.nextNode)
        model.nextNode += 1
        model.nodes[node] = entry
        model.order.append(node)
        runtimes[node] = NodeRuntime(node: node)
        markEdited()
        return node
    }

    /// Removes a node with its connections and callbacks (`AUGraphRemoveNode`). Its unit is
    /// disposed at once when the graph is not initialized, else after the render thread
    /// adopted a plan without it (call ``update()`` to apply the removal).
    /// - Thread: [control]
    public func removeNode(_ node: GraphNode) throws(AudioUnitError) {
        RenderThread.assertNotCurrent("AudioGraph.removeNode")
        try requireNotDisposed()
        let entry = try model.node(node)
        model.nodes[node] = nil
        model.order.removeAll { $0 == node }
        model.connections.removeAll { $0.source == node || $0.destination == node }
        model.midiConnections.removeAll { $0.source == .node(node) || $0.destination == .node(node) }
        for endpoint in model.inputCallbacks.keys where endpoint.node == node { model.inputCallbacks[endpoint] = nil }
        model.bypassed.remove(node)
        runtimes[node] = nil
        if let unit = entry.unit {
            if isInitialized { graveyard.append((unit, generation + 1)) } else { unit.dispose() }
        }
        markEdited()
    }

    /// The nodes, in the order they were added (`AUGraphGetNodeCount` / `GetIndNode`).
    /// - Thread: [control]
    public var nodes: [GraphNode] { model.order }

    /// The unit of a node (`AUGraphNodeInfo`); fails before the graph is opened.
    /// - Thread: [control]
    public func unit(of node: GraphNode) throws(AudioUnitError) -> AudioUnit {
        guard let unit = try model.node(node).unit else {
            throw AudioUnitError(.uninitialized, "\(model.label(node)) has no unit yet: open the graph first")
        }
        return unit
    }

    /// The name a node was given.
    /// - Thread: [control]
    public func name(of node: GraphNode) throws(AudioUnitError) -> String { try model.node(node).name }

    /// The output node (type `auou`), if the graph has one.
    /// - Thread: [control]
    public var outputNode: GraphNode? { model.outputNode }
}
