import AUCore
import Synchronization
import Glibc

/// Live control of a running graph (bypass, scheduled parameters, faults, notices) and
/// what it reports about latency.
extension AudioGraph {
    // MARK: - Live control

    /// Bypasses a node: its inputs pass to the outputs of the same number, delayed by its
    /// latency so that paths stay aligned. Takes effect at the next cycle (no update needed).
    /// - Thread: [control]
    public func setBypass(_ isBypassed: Bool, for node: GraphNode) throws(AudioUnitError) {
        _ = try model.node(node)
        if isBypassed { model.bypassed.insert(node) } else { model.bypassed.remove(node) }
        runtimes[node]?.isBypassed.store(isBypassed, ordering: .relaxed)
    }

    /// - Thread: [control]
    public func isBypassed(_ node: GraphNode) -> Bool { model.bypassed.contains(node) }

    /// Sets a parameter of a node's unit `frame` frames into the next cycle the graph renders
    /// (a later cycle when the next one is shorter), sample-accurately: the unit's render is
    /// split there. While the graph is initialized, the node must be in the last plan
    /// published (``update()``); an event for a node the render thread has not adopted yet
    /// (published by an update it has not picked up) is dropped. Before initialize, sets
    /// the value at once. Listeners hear of it from ``dispatchPendingNotifications()``. Units
    /// with a fixed block size get it at the start of the block that holds that frame.
    /// - Thread: [control] Any thread but the render thread, also while another edits and
    ///   updates the graph (it reads the units of the last plan published, under a
    ///   control-side mutex; lock-free towards the render thread).
    public func scheduleParameter(_ node: GraphNode, _ address: ParameterAddress, value: Float, atFrame frame: Int = 0) throws(AudioUnitError) {
        RenderThread.assertNotCurrent("AudioGraph.scheduleParameter")
        let target: ParameterTargets.Target
        switch parameterTargets.lookup(node) {
        case .notRunning:
            let unit = try unit(of: node)
            _ = try Self.validate(address, value: value, frame: frame, of: ParameterTargets.Target(unit: unit, label: model.label(node)))
            try unit.setParameter(address.id, value: value, scope: address.scope, element: address.element)
            return
        case .unknown:
            throw AudioUnitError(.invalidElement, "the running graph has no node \(node) (a node added since the last update() is not yet)")
        case .target(let found):
            target = found
        }
        let index = try Self.validate(address, value: value, frame: frame, of: target)
        let event = GraphParameterEvent(node: node.rawValue, index: Int32(index), offset: Int64(frame), value: value)
        guard renderer.queue(event) else {
            throw AudioUnitError(.cannotDoInCurrentContext, "\(target.label): more than \(GraphRenderer.eventCapacity) parameter events are waiting for the render thread")
        }
    }

    /// The parameter's index in the unit's table, after checking the address, the value
    /// and the frame.
    private static func validate(_ address: ParameterAddress, value: Float, frame: Int, of target: ParameterTargets.Target) throws(AudioUnitError) -> Int {
        guard let index = target.unit.parameters.index(of: address) else {
            throw AudioUnitError(.invalidParameter, "\(target.label) has no parameter \(address)")
        }
        do {
            try target.unit.parameters.infos[index].validate(value)
        } catch {
            throw AudioUnitError(error.code, "\(target.label): \(error.message)")
        }
        guard frame >= 0 else { throw AudioUnitError(.invalidParameterValue, "\(target.label): frame \(frame) is negative") }
        return index
    }

    /// True when the node produced NaN or infinity and is muted.
    /// - Thread: [control]
    public func isFaulted(_ node: GraphNode) -> Bool { runtimes[node]?.isFaulted.load(ordering: .relaxed) ?? false }

    /// Resets a muted node's unit and lets it play again.
    /// - Thread: [control]
    public func clearFault(_ node: GraphNode) throws(AudioUnitError) {
        guard let runtime = runtimes[node] else { throw AudioUnitError(.invalidElement, "the graph has no node \(node)") }
        guard runtime.isFaulted.load(ordering: .relaxed) else { return }
        try unit(of: node).reset()
        runtime.lastStatus.store(0, ordering: .relaxed)
        runtime.isFaulted.store(false, ordering: .relaxed)
    }

    /// Calls `handler` with each notice the render thread sends (muted nodes, render errors,
    /// plan adoption), from ``dispatchPendingNotifications()``.
    /// - Thread: [control]
    @discardableResult
    public func addNoticeListener(_ handler: @escaping @Sendable (GraphNotice) -> Void) -> Int {
        let token = nextListener
        nextListener += 1
        noticeListeners[token] = handler
        return token
    }

    /// Delivers what the render thread reported since the last call: the graph's notices to
    /// its listeners, and each unit's parameter and property changes to the unit's listeners.
    /// Then follows latency changes: when a unit's `Latency` differs from the one the running
    /// plan compensates, it publishes a new plan as ``update()`` does (glitch-free; parallel
    /// paths realigned) and sends a ``GraphNotice/Kind-swift.enum/latencyChanged`` notice —
    /// unless edits wait for ``update()``, which then compiles it (and reports its errors).
    /// Once the graph has timed enough cycles, compiles an estimated threads decision again
    /// on the measured node times (``parallelDecision``), and keeps an automatic plan on one
    /// thread once its workers were measured to cost more than they save. Also frees retired plans and disposes removed units. Call it from a timer or after each
    /// offline block. Returns the graph's notices.
    /// - Thread: [control]
    @discardableResult
    public func dispatchPendingNotifications() -> [GraphNotice] {
        reapGraveyard()
        var delivered: [GraphNotice] = []
        for lane in [renderer.mainLane] + (workerPool?.lanes ?? []) {
            while let notice = lane.notices.pop() { delivered.append(notice) }
        }
        for node in model.order { model.nodes[node]?.unit?.dispatchPendingNotifications() }
        if let notice = followLatencyChange() { delivered.append(notice) }
        followMeasuredCosts()
        followMeasuredPayoff()
        let handlers = noticeListeners.sorted { $0.key < $1.key }.map(\.value)
        for notice in delivered { for handler in handlers { handler(notice) } }
        return delivered
    }

    // MARK: - Latency

    /// The graph's latency in frames (input to output, through the slowest path) as of the
    /// latest plan; 0 before initialize.
    /// - Thread: [control]
    public var latencyFrames: Int { isInitialized ? report.latency : 0 }

    /// The graph's latency in seconds at the output node's sample rate.
    /// - Thread: [control]
    public var latency: Double {
        guard let output = model.outputNode, let unit = model.nodes[output]?.unit, let format = unit.formats(.input).first else { return 0 }
        return Double(latencyFrames) / format.sampleRate
    }

    /// A node's latency in frames as the plan counts it (its unit's plus a block adapter's).
    /// - Thread: [control]
    public func latencyFrames(of node: GraphNode) -> Int { report.nodeLatency[node] ?? 0 }

    /// The frames a delay inserted on a connection to align it with parallel paths.
    /// - Thread: [control]
    public func compensationDelay(of connection: GraphConnection) -> Int { report.connectionDelay[connection] ?? 0 }

    /// The format the application gets from ``render(frameCount:timestamp:input:output:)``.
    /// - Thread: [control]
    public var outputFormat: StreamFormat? {
        guard let output = model.outputNode, let unit = model.nodes[output]?.unit else { return nil }
        return unit.formats(.input).first
    }
}
