import AUCore
import Synchronization

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
    public internal(set) var isOpen = false
    public internal(set) var isInitialized = false
    public internal(set) var isRunning = false
    public internal(set) var isDisposed = false
    /// True when edits were made since the last plan was published.
    public internal(set) var hasPendingEdits = false

    /// The longest slice one unit call renders; longer cycles are split. Set before initialize.
    public var maximumFramesPerSlice = AudioUnit.defaultMaximumFramesPerSlice {
        didSet { precondition(!isInitialized && maximumFramesPerSlice > 0, "MaximumFramesPerSlice is set before initialize") }
    }
    /// Measure each node's share of render time (for ``dump()``), on one cycle in 32: two
    /// clock reads per node on those cycles.
    public var measuresRenderTime = true
    /// How many threads may render the graph, the thread that calls its render included
    /// (``RenderParallelism/machineDefault``: as many as the cores). The plan compiler
    /// decides per plan whether the render workers pay (``parallelDecision``, whose
    /// ``ParallelPlanDecision/threads`` says how many threads render); a change takes
    /// effect at the next ``initialize()`` or ``update()``.
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
    /// Set by a device at another rate than the graph's (``resampleOutput(graphRate:deviceRate:channels:)``).
    var outputResampler: PullResampler?
    /// The units ``scheduleParameter(_:_:value:atFrame:)`` may address while the graph runs.
    let parameterTargets = ParameterTargets()
    var runtimes: [GraphNode: NodeRuntime] = [:]
    var reuse = PlanCompiler.Reuse()
    /// Facts about the latest compiled plan.
    var report = PlanCompiler.Report()
    var generation = 0
    /// Units of removed nodes, disposed once the render thread adopted a plan without them.
    var graveyard: [(unit: AudioUnit, generation: Int)] = []
    /// The render workers of the latest parallel plan (older plans keep theirs alive).
    var workerPool: RenderWorkerPool?
    /// Whether ``followMeasuredCosts()`` compiled the plan again already.
    var followedMeasuredCosts = false
    /// Why the render workers were measured to cost more than they save (nil: they were not):
    /// automatic plans then stay on one thread, until ``parallelism`` changes.
    var workersRefusal: String?
    /// The timing counters when the running plan's workers began to be watched (``followMeasuredPayoff()``).
    var payoffBaseline: PayoffBaseline?
    /// The scheduling policy and priority the workers take (a driver's real-time thread's).
    var workerScheduling: (policy: Int32, priority: Int32)?
    /// The output delay of a chain that may be pipelined (shared by the plans while its
    /// shape holds).
    var pipelineDelay: PipelineDelay?
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

    func markEdited() { hasPendingEdits = true }

    func requireNotDisposed() throws(AudioUnitError) {
        if isDisposed { throw AudioUnitError(.instanceInvalidated, "the graph has been disposed") }
    }
}
