import AUCore

/// The render workers of parallel and pipelined plans: their pool, their scheduling, and
/// what the latest plan decided about them.
extension AudioGraph {
    /// The pool of `workers` render workers, made when none of that size exists.
    func pool(workers: Int) -> RenderWorkerPool {
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
    public var stepsRenderedByWorkers: UInt64 { stepsRenderedByEachWorker.reduce(0, +) }

    /// How many steps each render worker of the current pool has rendered (empty without one).
    /// - Thread: [control]
    public var stepsRenderedByEachWorker: [UInt64] {
        workerPool?.lanes.map { $0.stepsRendered.load(ordering: .relaxed) } ?? []
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
}
