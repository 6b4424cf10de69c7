import AUCore

/// The watch of one plan's workers (``AudioGraph/followMeasuredPayoff()``): the timing
/// counters at the last look, and how the windows between looks went.
struct PayoffBaseline {
    /// The plan watched.
    var generation: Int
    /// Timed cycles, their wall time and the nodes' time in them, in nanoseconds, at the last look.
    var cycles: UInt64
    var wall: UInt64
    var work: UInt64
    /// Timed cycles seen since the watch began.
    var watchedCycles: UInt64 = 0
    /// Windows (the timed cycles between two looks) whose wall time was at least their
    /// nodes' work added up, and windows faster than that; with their totals.
    var slowerWindows = 0
    var fasterWindows = 0
    var watchedWall: UInt64 = 0
    var watchedWork: UInt64 = 0
    /// Whether the plan has been judged (once per plan).
    var isJudged = false

    /// Takes the counters of a new look: the window since the last one counts as slower or
    /// faster than one thread would have been.
    mutating func look(cycles: UInt64, wall: UInt64, work: UInt64) {
        guard cycles != self.cycles else { return }
        let (windowWall, windowWork) = (wall &- self.wall, work &- self.work)
        if windowWall >= windowWork { slowerWindows += 1 } else { fasterWindows += 1 }
        watchedCycles += cycles &- self.cycles
        watchedWall += windowWall
        watchedWork += windowWork
        (self.cycles, self.wall, self.work) = (cycles, wall, work)
    }

    /// Whether the workers cost more than they save: in most windows, not in their sum (one
    /// window in which a busy machine kept a worker off its core for milliseconds outweighs
    /// many in which the workers paid).
    var workersCostMore: Bool { slowerWindows > fasterWindows }
}

/// Whether the render workers pay, measured: a plan's node times say what the work costs,
/// not what handing it to a worker costs. Live at 64 frames on a VM, waking a parked worker
/// each period and waiting for it took longer than the whole graph's work on one thread
/// (two branches of four plugins, 6.6 µs each: the parallel plan raised JACK's DSP load from
/// 16 % to 42 % with six times the xruns). So a measured parallel or pipelined plan is
/// watched for 16 timed cycles, window by window (the timed cycles between two calls);
/// when in most windows a cycle took at least as long as its nodes' work added up, the plan
/// goes back to one thread for good (until ``parallelism`` changes), and `parallelDecision`
/// says why. A pipelined chain keeps its latency (its output is delayed as the pipeline's was).
/// - Thread: [control]
extension AudioGraph {
    /// Timed cycles a plan's workers are watched for.
    static let timedCyclesForPayoff: UInt64 = 16

    /// Watches the running plan's workers; compiles the plan again on one thread when they
    /// cost more than they save. From ``dispatchPendingNotifications()``.
    func followMeasuredPayoff() {
        guard isInitialized, !hasPendingEdits, workersRefusal == nil, measuresRenderTime, parallelism.policy == .automatic,
              let decision = report.parallel, decision.isMeasured, decision.isParallel || decision.isPipelined,
              renderer.adoptedGeneration.load(ordering: .acquiring) == generation else { return }
        let cycles = renderer.timedCycles.load(ordering: .relaxed)
        let wall = renderer.renderNanoseconds.load(ordering: .relaxed)
        let work = model.order.reduce(UInt64(0)) { $0 + (runtimes[$1]?.renderNanoseconds.load(ordering: .relaxed) ?? 0) }
        guard var baseline = payoffBaseline, baseline.generation == generation else {
            payoffBaseline = PayoffBaseline(generation: generation, cycles: cycles, wall: wall, work: work)
            return
        }
        guard !baseline.isJudged else { return }
        baseline.look(cycles: cycles, wall: wall, work: work)
        baseline.isJudged = baseline.watchedCycles >= Self.timedCyclesForPayoff
        payoffBaseline = baseline
        guard baseline.isJudged, baseline.workersCostMore else { return }
        let timed = Double(baseline.watchedCycles)
        workersRefusal = String(
            format: "the render workers were measured to cost more than they save (in %d of %d windows; a cycle took %.1f us on %d threads; its work adds up to %.1f us)",
            baseline.slowerWindows, baseline.slowerWindows + baseline.fasterWindows,
            Double(baseline.watchedWall) / timed / 1000, parallelism.threads, Double(baseline.watchedWork) / timed / 1000)
        markEdited()
        // A plan that fails to compile leaves the running one, and waits as an edit.
        try? update()
    }
}
