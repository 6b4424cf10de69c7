import AUCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An audio processing graph with Core Audio's `AUGraph` life cycle:
///
/// ```swift
/// let graph = AudioGraph(registry: registry)
/// let eq = try graph.addNode(ComponentDescription(type: "aufx", subtype: "ipeq", manufacturer: "AUHs"))
/// let out = try graph.addNode(ComponentDescription(type: "auou", subtype: "genr", manufacturer: "AUHs"))
/// try graph.open()
/// try graph.connect(eq, output: 0, to: out, input: 0)
/// try graph.setInputCallback(callback, for: eq, input: 0)
/// try graph.initialize()          // propagates formats, validates, compiles, publishes
/// try graph.start()
/// graph.render(frameCount: 256, timestamp: time, input: nil, output: buffers)   // render thread
/// try graph.removeNode(eq); …; try graph.update()   // live edits, glitch-free
/// graph.stop(); graph.uninitialize(); graph.close(); graph.dispose()
/// ```
///
/// Edits change a ``GraphModel`` value; while the graph is initialized they wait for
/// ``update()``, which compiles a new ``RenderPlan`` and hands it to the render thread with
/// one atomic exchange. The render thread adopts it at the top of a cycle and hands the old
/// plan back to be freed here. The graph owns its units: removing a node disposes its unit
/// once the render thread no longer uses it.
///
/// The output node (type `auou`, at most one) is where the application meets the graph: its
/// input bus 0 is what ``render(frameCount:timestamp:input:output:)`` returns, its output
/// bus 0 carries the `input` the application passes in. The graph never calls the output
/// unit's render; the driver that owns it (JACK, the offline driver, a test) calls
/// ``render(frameCount:timestamp:input:output:)``.
/// - Thread: [control] for everything but ``render(frameCount:timestamp:input:output:)`` (render)
///   and ``scheduleParameter(_:_:value:atFrame:)`` (while initialized, any thread but the
///   render thread, concurrently with edits and ``update()``).
public final class AudioGraph: @unchecked Sendable {
    /// Where nodes added by description are instantiated from.
    public let registry: ComponentRegistry?
    /// The graph as edited (including edits that wait for ``update()``).
    public internal(set) var model = GraphModel()
    public private(set) var isOpen = false
    public private(set) var isInitialized = false
    public private(set) var isRunning = false
    public private(set) var isDisposed = false
    /// True when edits were made since the last plan was published.
    public private(set) var hasPendingEdits = false

    /// The longest slice one unit call renders; longer cycles are split. Set before initialize.
    public var maximumFramesPerSlice = AudioUnit.defaultMaximumFramesPerSlice {
        didSet { precondition(!isInitialized && maximumFramesPerSlice > 0, "MaximumFramesPerSlice is set before initialize") }
    }
    /// Measure each node's share of render time (for ``dump()``), on one cycle in 32: two
    /// clock reads per node on those cycles.
    public var measuresRenderTime = true
    /// The render workers the graph may use beside the thread that renders it
    /// (``RenderParallelism/machineDefault``: one fewer than the cores). The plan compiler
    /// decides per plan whether they pay (``parallelDecision``); a change takes effect at
    /// the next ``initialize()`` or ``update()``.
    public var parallelism = RenderParallelism.machineDefault {
        didSet {
            guard parallelism != oldValue else { return }
            workersRefusal = nil
            markEdited()
        }
    }
    /// The frames of one slice of a pipelined chain (nil: MaximumFramesPerSlice, as offline):
    /// its stages render slices this long one after another, and its output is late by
    /// ``ParallelPlanDecision/addedLatencySlices`` of them. A live driver sets its period,
    /// so that `--pipeline` costs one period; a change takes effect at the next
    /// ``initialize()`` or ``update()``.
    /// - Thread: [control]
    public var pipelineSliceFrames: Int? {
        didSet { if pipelineSliceFrames != oldValue { markEdited() } }
    }
    /// ``pipelineSliceFrames`` within 1...MaximumFramesPerSlice.
    var effectivePipelineSliceFrames: Int { min(maximumFramesPerSlice, max(1, pipelineSliceFrames ?? maximumFramesPerSlice)) }
    /// How long a parallel cycle may take, in seconds (0: no limit, the default, as
    /// offline): a render worker still inside a unit then makes the cycle silent, reported
    /// as ``GraphNotice/Kind-swift.enum/workerStalled``. A live driver sets its period.
    public var parallelCycleDeadline: Double = 0 {
        didSet { renderer.parallelCycleDeadline.store(UInt64(max(0, parallelCycleDeadline) * 1e9), ordering: .relaxed) }
    }

    let renderer = GraphRenderer()
    /// `AUGraphAddRenderNotify`'s callbacks, published to the render thread.
    let renderNotifies = RenderNotifyTable()
    /// The render time per cycle duration, for ``cpuLoad``.
    let cpuLoadMeter = CPULoadMeter()
    /// The units ``scheduleParameter(_:_:value:atFrame:)`` may address while the graph runs.
    let parameterTargets = ParameterTargets()
    var runtimes: [GraphNode: NodeRuntime] = [:]
    private var reuse = PlanCompiler.Reuse()
    /// Facts about the latest compiled plan.
    private(set) var report = PlanCompiler.Report()
    private(set) var generation = 0
    /// Units of removed nodes, disposed once the render thread adopted a plan without them.
    private var graveyard: [(unit: AudioUnit, generation: Int)] = []
    /// The render workers of the latest parallel plan (older plans keep theirs alive).
    private(set) var workerPool: RenderWorkerPool?
    /// Whether ``followMeasuredCosts()`` compiled the plan again already.
    private var followedMeasuredCosts = false
    /// Why the render workers were measured to cost more than they save (nil: they were not):
    /// automatic plans then stay on one thread, until ``parallelism`` changes.
    var workersRefusal: String?
    /// The timing counters when the running plan's workers began to be watched (``followMeasuredPayoff()``).
    var payoffBaseline: PayoffBaseline?
    /// The scheduling policy and priority the workers take (a driver's real-time thread's).
    private var workerScheduling: (policy: Int32, priority: Int32)?
    /// The output delay of a chain that may be pipelined (shared by the plans while its
    /// shape holds).
    private var pipelineDelay: PipelineDelay?
    var noticeListeners: [Int: @Sendable (GraphNotice) -> Void] = [:]
    var nextListener = 1

    /// A new, empty graph (`NewAUGraph`). Nodes added by description are made by `registry`.
    /// - Thread: [control]
    public init(registry: ComponentRegistry? = nil) {
        self.registry = registry
    }

    deinit {
        if !isDisposed { dispose() }
    }

    // MARK: - Nodes

    /// Adds a node for the unit `description` names (`AUGraphAddNode`); it is instantiated
    /// now when the graph is open, else by ``open()``.
    /// - Thread: [control]
    @discardableResult
    public func addNode(_ description: ComponentDescription, name: String? = nil) throws(AudioUnitError) -> GraphNode {
        try requireNotDisposed()
        guard let registry else {
            throw AudioUnitError(.invalidPropertyValue, "cannot add \(description) by description: the graph was made without a registry; add the unit instance instead")
        }
        guard let component = registry.components(matching: description).first else {
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

    // MARK: - Connections

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
        let before = model.connections.count
        model.connections.removeAll { $0.destination == destination && $0.destinationInputBus == input }
        guard model.connections.count < before else {
            throw AudioUnitError(.noConnection, "\(model.label(destination)) input \(input) is not connected")
        }
        markEdited()
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

    func markEdited() { hasPendingEdits = true }

    // MARK: - Life cycle

    /// Instantiates every node's unit (`AUGraphOpen`).
    /// - Thread: [control]
    public func open() throws(AudioUnitError) {
        try requireNotDisposed()
        if isOpen { return }
        for node in model.order where model.nodes[node]?.unit == nil {
            let entry = model.nodes[node]!
            guard let registry, let component = registry.components(matching: entry.description).first else {
                throw AudioUnitError(.extensionNotFound, "cannot open \(model.label(node)): no unit matches \(entry.description)")
            }
            model.nodes[node]!.unit = try component.instantiate()
        }
        isOpen = true
    }

    /// Propagates stream formats along the connections, checks them, initializes every unit,
    /// compiles the render plan and publishes it (`AUGraphInitialize`; opens first if needed).
    /// Fails with an error naming the nodes and buses of a bad connection or a cycle.
    /// - Thread: [control]
    public func initialize() throws(AudioUnitError) {
        try requireNotDisposed()
        if isInitialized { return }
        try open()
        try publishPlan()
        renderer.enable()
        isInitialized = true
    }

    /// Applies the edits made since the last plan while the graph runs (`AUGraphUpdate`):
    /// new units are initialized, formats checked, a new plan compiled and published. The
    /// render thread switches at the top of its next cycle; paths that were not edited keep
    /// their state (delay lines included). Before ``initialize()`` edits need no update.
    /// - Thread: [control]
    public func update() throws(AudioUnitError) {
        try requireNotDisposed()
        defer { reapGraveyard() }
        guard isInitialized, hasPendingEdits else { return }
        try publishPlan()
    }

    /// Waits until the render thread adopted the last published plan and the units it no
    /// longer uses are disposed (`AUGraphUpdate`'s synchronous mode); false after `timeout`.
    /// Only useful while another thread renders.
    /// - Thread: [control]
    public func waitUntilUpdated(timeout: Double = 2) -> Bool {
        let deadline = MonotonicClock.nanoseconds() + UInt64(timeout * 1e9)
        while renderer.adoptedGeneration.load(ordering: .acquiring) < generation {
            if MonotonicClock.nanoseconds() > deadline { return false }
            var spec = timespec(tv_sec: 0, tv_nsec: 500_000)
            nanosleep(&spec, nil)
        }
        reapGraveyard()
        return true
    }

    private func publishPlan() throws(AudioUnitError) {
        RenderThread.assertNotCurrent("AudioGraph.initialize/update")
        let order = try GraphTopology.renderOrder(model)
        for node in model.order {
            let unit = try unit(of: node)
            guard unit.state == .uninitialized else { continue }
            var frames = maximumFramesPerSlice
            if case .fixed(let size) = PlanCompiler.requirement(of: unit) { frames = max(frames, size) }
            do {
                try unit.setValue(frames, for: .maximumFramesPerSlice)
            } catch {
                throw AudioUnitError(error.code, "\(model.label(node)): \(error.message)", underlying: error)
            }
        }
        try FormatPropagation.propagate(model, order: order)
        for node in model.order {
            let unit = try unit(of: node)
            guard unit.state == .uninitialized else { continue }
            do {
                try unit.initialize()
            } catch {
                throw AudioUnitError(error.code, "\(model.label(node)) failed to initialize: \(error.message)", underlying: error)
            }
        }
        for (node, runtime) in runtimes {
            runtime.isBypassed.store(model.bypassed.contains(node), ordering: .relaxed)
        }
        let compiler = PlanCompiler(
            model: model, order: order, runtimes: runtimes, sliceFrames: maximumFramesPerSlice, pipelineSliceFrames: effectivePipelineSliceFrames,
            generation: generation + 1, measuresTime: measuresRenderTime, parallelism: parallelism,
            timedCycles: renderer.timedCycles.load(ordering: .relaxed), workersRefusal: workersRefusal)
        let compiled = try compiler.compile(reusing: reuse)
        if let schedule = compiled.schedule { compiled.plan.renderInParallel(schedule, on: pool(workers: parallelism.workers)) }
        if let pipeline = compiled.pipeline { compiled.plan.renderInPipeline(pipeline, on: pool(workers: parallelism.workers)) }
        if let delay = outputDelay(slices: compiled.report.parallel?.addedLatencySlices ?? 0, channels: compiled.plan.sink?.channels ?? 0) {
            compiled.plan.delayOutput(through: delay)
        }
        generation += 1
        reuse = compiled.reuse
        report = compiled.report
        renderer.publish(compiled.plan)
        var targets: [GraphNode: ParameterTargets.Target] = [:]
        for node in model.order {
            if let unit = model.nodes[node]?.unit { targets[node] = ParameterTargets.Target(unit: unit, label: model.label(node)) }
        }
        parameterTargets.publish(targets)
        hasPendingEdits = false
    }

    /// The output delay of a chain that may be pipelined by `slices` slices: the one the
    /// running plan uses while its shape holds, so that a new plan takes over what is in it
    /// (the latency stays and no frame is lost); nil for 0 slices.
    private func outputDelay(slices: Int, channels: Int) -> PipelineDelay? {
        let frames = slices * effectivePipelineSliceFrames
        guard frames > 0 else {
            pipelineDelay = nil
            return nil
        }
        if let pipelineDelay, pipelineDelay.frames == frames, pipelineDelay.channels == max(1, channels) { return pipelineDelay }
        let made = PipelineDelay(frames: frames, channels: channels, sliceFrames: maximumFramesPerSlice)
        pipelineDelay = made
        return made
    }

    /// The pool of `workers` render workers, made when none of that size exists.
    private func pool(workers: Int) -> RenderWorkerPool {
        if let workerPool, workerPool.workerCount == workers { return workerPool }
        let made = RenderWorkerPool(workers: workers, renderer: renderer)
        if let workerScheduling { _ = made.adoptScheduling(policy: workerScheduling.policy, priority: workerScheduling.priority) }
        workerPool = made
        return made
    }

    /// Gives the render workers a driver thread's scheduling (JACK's real-time process
    /// thread: `SCHED_FIFO` and its priority), now and for workers made later. Returns 0 or
    /// the errno of a refusal (the workers then keep the default policy).
    /// - Thread: [control]
    @discardableResult
    public func setRenderWorkerScheduling(policy: Int32, priority: Int32) -> Int32 {
        workerScheduling = (policy, priority)
        return workerPool?.adoptScheduling(policy: policy, priority: priority) ?? 0
    }

    /// Puts every render worker made from now on (in any graph) under the strict real-time
    /// check's seccomp filter, as ``StrictRenderCheck/watchThisThread()`` does for the
    /// calling thread: alloc-check's `--strict` (`AUHOST_STRICT_RENDER=1` does the same).
    /// - Thread: [control]
    public static func watchRenderWorkersStrictly() { RenderWorkerPool.workersWatchStrictly.store(true, ordering: .relaxed) }

    /// How many steps the render workers of the current pool have rendered (0 without one):
    /// evidence that a parallel plan really shared its work.
    /// - Thread: [control]
    public var stepsRenderedByWorkers: UInt64 {
        workerPool?.lanes.reduce(0) { $0 + $1.stepsRendered.load(ordering: .relaxed) } ?? 0
    }

    /// Whether the latest plan renders on several threads, and why (nil before initialize).
    /// - Thread: [control]
    public var parallelDecision: ParallelPlanDecision? { isInitialized ? report.parallel : nil }

    /// Slices of MaximumFramesPerSlice frames a driver's cycle should hold: 16 when the plan
    /// is pipelined (the workers stay busy from one phase to the next instead of parking
    /// between cycles), else 1. An offline driver that can choose its cycle (`auhost render`)
    /// renders cycles of this many slices; the units see the same slices.
    /// - Thread: [control]
    public var preferredSlicesPerCycle: Int { parallelDecision?.isPipelined == true ? 16 : 1 }

    /// Publishes a plan that compensates the units' latencies when one of them changed since
    /// the running plan was compiled (and no edit waits for ``update()``); the notice that
    /// says so, or nil. A plan that fails to compile leaves the running one and waits, as an
    /// edit, for ``update()`` to report the error.
    /// - Thread: [control]
    func followLatencyChange() -> GraphNotice? {
        guard isInitialized, !hasPendingEdits else { return nil }
        let changed = model.order.first { node in
            guard let unit = model.nodes[node]?.unit else { return false }
            return PlanCompiler.latencyFrames(of: unit) != report.unitLatency[node] ?? 0
        }
        guard let changed else { return nil }
        hasPendingEdits = true
        do {
            try publishPlan()
        } catch {
            return nil
        }
        return GraphNotice(kind: .latencyChanged, node: changed, status: Int32(clamping: report.latency), sampleTime: 0)
    }

    /// Timed cycles (one in ``GraphRenderer/timingInterval``) after which an estimated
    /// threads decision is made again on the measured node times.
    static let timedCyclesForMeasuredDecision: UInt64 = 8

    /// Compiles the plan again when its threads decision was estimated (before the graph
    /// rendered) and the graph has since timed enough cycles, so that one thread, branches on
    /// the workers or a pipeline follow what the units really cost: two branches of
    /// plugins estimated at 20 µs each may take 6 µs at 64 frames, where waking a worker
    /// costs more than it saves. Once; live edits, as any plan, glitch-free.
    func followMeasuredCosts() {
        guard isInitialized, !hasPendingEdits, !followedMeasuredCosts, measuresRenderTime, parallelism.workers > 0,
              report.parallel?.isMeasured == false, renderer.timedCycles.load(ordering: .relaxed) >= Self.timedCyclesForMeasuredDecision else { return }
        followedMeasuredCosts = true
        hasPendingEdits = true
        do {
            try publishPlan()
        } catch {
            return
        }
    }

    /// Disposes the units of removed nodes that no plan in use refers to any more.
    func reapGraveyard() {
        let adopted = renderer.adoptedGeneration.load(ordering: .acquiring)
        renderer.collectRetiredPlans()
        guard !graveyard.isEmpty else { return }
        var kept: [(unit: AudioUnit, generation: Int)] = []
        for entry in graveyard {
            if entry.generation <= adopted { entry.unit.dispose() } else { kept.append(entry) }
        }
        graveyard = kept
    }

    /// Starts the graph (`AUGraphStart`): when its output node is an ``AudioOutputUnit`` (the
    /// JACK I/O unit), starts that unit, which renders the graph every period from then on;
    /// else marks the graph running for the application that renders it.
    /// - Thread: [control]
    public func start() throws(AudioUnitError) {
        try requireNotDisposed()
        guard isInitialized else { throw AudioUnitError(.uninitialized, "start: the graph is not initialized") }
        try outputDevice?.start()
        isRunning = true
    }

    /// Stops the graph (`AUGraphStop`): stops its output node when that is an
    /// ``AudioOutputUnit`` (the JACK I/O unit fades out and deactivates its client); when it
    /// returns, the device renders the graph no more.
    /// - Thread: [control]
    public func stop() {
        outputDevice?.stop()
        isRunning = false
    }

    /// The output node's unit when it drives a device.
    private var outputDevice: AudioOutputUnit? {
        guard let output = model.outputNode else { return nil }
        return model.nodes[output]?.unit as? AudioOutputUnit
    }

    /// Stops the graph (its output device first: see ``stop()``), stops rendering (waits for
    /// a render in progress), frees the plans and uninitializes every unit
    /// (`AUGraphUninitialize`); so no unit is freed while a device renders the graph. Edits
    /// are kept; ``initialize()`` compiles again.
    /// - Thread: [control]
    public func uninitialize() {
        RenderThread.assertNotCurrent("AudioGraph.uninitialize")
        guard isInitialized else { return }
        stop()
        parameterTargets.publish(nil)
        renderer.disable()
        for entry in graveyard { entry.unit.dispose() }
        graveyard.removeAll()
        for node in model.order { model.nodes[node]?.unit?.uninitialize() }
        reuse = PlanCompiler.Reuse()
        workerPool = nil
        pipelineDelay = nil
        payoffBaseline = nil
        isInitialized = false
        hasPendingEdits = true
    }

    /// Uninitializes and disposes every unit (`AUGraphClose`); the nodes stay and ``open()``
    /// makes new units for them (from the registry).
    /// - Thread: [control]
    public func close() {
        uninitialize()
        for node in model.order {
            model.nodes[node]?.unit?.dispose()
            model.nodes[node]?.unit = nil
        }
        isOpen = false
    }

    /// Closes the graph and forgets every node (`DisposeAUGraph`); every later call fails.
    /// - Thread: [control]
    public func dispose() {
        guard !isDisposed else { return }
        close()
        model = GraphModel()
        runtimes.removeAll()
        isDisposed = true
    }

    func requireNotDisposed() throws(AudioUnitError) {
        if isDisposed { throw AudioUnitError(.instanceInvalidated, "the graph has been disposed") }
    }

    // MARK: - Render

    /// Renders `frameCount` frames of the graph into `output` (the output node's input bus 0),
    /// with `input` as the output node's output bus 0 (silence when nil): the pull of the
    /// generic output unit, and what a JACK or offline driver calls each cycle. Any frame
    /// count works; cycles longer than MaximumFramesPerSlice are split. Adopts a newly
    /// published plan first. Returns 0, or Uninitialized when the graph is not initialized
    /// (the output is then silent). The render notifications (``addRenderNotify(_:)``) are
    /// called before and after, and the render time of one cycle in 32 counts towards ``cpuLoad``. `midi` is the
    /// graph's MIDI input of the cycle (sorted, offsets within it); what reaches the graph's
    /// MIDI output is in ``midiOutputFromRender`` afterwards.
    /// - Thread: [render] No allocation, no lock.
    public func render(
        frameCount: Int, timestamp: RenderTimestamp, input: AudioBuffers? = nil, output: AudioBuffers,
        midi: UnsafeBufferPointer<MIDIEvent> = UnsafeBufferPointer(start: nil, count: 0)
    ) -> AudioUnitStatus {
        let notifies = !renderNotifies.isEmpty
        if notifies { renderNotifies.notify(.preRender, timestamp: timestamp, bus: 0, buffers: output) }
        let timed = cpuLoadMeter.timesThisCycle()
        let start = timed ? MonotonicClock.nanoseconds() : 0
        let status = renderer.render(frameCount: frameCount, timestamp: timestamp, input: input, output: output, midi: midi)
        if timed { cpuLoadMeter.record(nanoseconds: MonotonicClock.nanoseconds() &- start, frames: frameCount) }
        if notifies { renderNotifies.notify(status == 0 ? .postRender : [.postRender, .postRenderError], timestamp: timestamp, bus: 0, buffers: output) }
        return status
    }

    /// The cycles rendered so far and the node the render thread is inside (nil between
    /// nodes): what a watchdog reads to tell a render that makes progress from one stuck in
    /// a unit's call.
    /// - Thread: [any] (two relaxed atomic loads).
    public var renderActivity: (cycles: UInt64, node: GraphNode?) {
        let node = renderer.mainLane.renderingNode.load(ordering: .relaxed)
        return (renderer.cycles.load(ordering: .relaxed), node < 0 ? nil : GraphNode(rawValue: node))
    }
}
