import AUCore

/// The timing counters at the start of a watch (``AudioGraph/followMeasuredPayoff()``).
struct PayoffBaseline {
    /// The plan watched.
    var generation: Int
    /// Timed cycles, their wall time and the nodes' time in them, in nanoseconds.
    var cycles: UInt64
    var wall: UInt64
    var work: UInt64
    /// Whether the plan has been judged (once per plan).
    var isJudged = false
}

/// Whether the render workers pay, measured: a plan's node times say what the work costs,
/// not what handing it to a worker costs. Live at 64 frames on a VM, waking a parked worker
/// each period and waiting for it took longer than the whole graph's work on one thread
/// (two branches of four plugins, 6.6 µs each: the parallel plan raised JACK's DSP load from
/// 16 % to 42 % with six times the xruns). So a measured parallel or pipelined plan is
/// watched for 16 timed cycles; when a cycle took at least as long as its nodes' work added
/// up, the plan goes back to one thread for good (until ``parallelism`` changes), and
/// `parallelDecision` says why. A pipelined chain keeps its latency (its output is delayed as
/// the pipeline's was).
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
        guard let baseline = payoffBaseline, baseline.generation == generation else {
            payoffBaseline = PayoffBaseline(generation: generation, cycles: cycles, wall: wall, work: work)
            return
        }
        guard !baseline.isJudged, cycles &- baseline.cycles >= Self.timedCyclesForPayoff else { return }
        payoffBaseline?.isJudged = true
        let timed = Double(cycles &- baseline.cycles)
        let wallPerCycle = Double(wall &- baseline.wall) / timed, workPerCycle = Double(work &- baseline.work) / timed
        guard wallPerCycle >= workPerCycle else { return }
        workersRefusal = String(
            format: "the render workers were measured to cost more than they save (a cycle took %.1f us on %d threads; its work adds up to %.1f us)",
            wallPerCycle / 1000, parallelism.threads, workPerCycle / 1000)
        markEdited()
        // A plan that fails to compile leaves the running one, and waits as an edit.
        try? update()
    }
}
