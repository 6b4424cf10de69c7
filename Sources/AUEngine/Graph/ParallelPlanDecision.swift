import AUCore

/// What the plan compiler decided about rendering a graph on several threads, and why:
/// the branches (runs of nodes that follow one another with nothing joining or leaving in
/// between) and the work per cycle, measured where the graph has rendered, else estimated.
/// A graph with branches renders them at once; a serial chain may be **pipelined** when the
/// graph's ``RenderParallelism/pipelineStages`` allows it: cut into stages that render one
/// slice apart, stage `s` on slice `m - s` while stage 0 takes slice `m`, which delays the
/// output by the stages allowed less one, in slices.
/// - Thread: [any] (a plain value).
public struct ParallelPlanDecision: Sendable, Equatable {
    /// True when the plan renders its branches on the render workers and the calling thread.
    public var isParallel: Bool
    /// True when the plan renders its stages one slice apart on the workers and the calling thread.
    public var isPipelined = false
    /// The stages of a pipelined chain, in render order (empty otherwise).
    public var stages: [[GraphNode]] = []
    /// The slices of latency pipelining adds to the graph's output: ``RenderParallelism/stageLimit``
    /// less one for a serial chain that may be pipelined, also when its stages do not pay
    /// (its output is then delayed as much), so that the latency follows the graph's shape and
    /// never what its units happen to cost; 0 otherwise.
    public var addedLatencySlices = 0
    /// True when the chain's nodes render one after another in one unit-host child, one
    /// slice behind the calling thread (``RenderPlan/isOneRun``): that thread only posts and
    /// collects, and waits for the child in between.
    public var rendersOneSliceBehind = false
    /// The threads that render the plan, the calling thread included (1 when single-threaded).
    public var threads: Int
    /// Why, in a sentence.
    public var reason: String
    /// The graph's branches in render order.
    public var branches: [[GraphNode]]
    /// Nanoseconds per cycle: all the nodes' work, and that of the longest dependent path.
    public var work: Double
    public var criticalPath: Double
    /// Whether the work was measured (the graph rendered before the plan was compiled).
    public var isMeasured: Bool

    /// Work off the critical path below this (nanoseconds per cycle) does not pay for
    /// waking a worker and waiting for it.
    static let worthwhileWork: Double = 10_000
    /// A built-in utility unit's estimated cost per cycle; every other unit's.
    static let cheapEstimate: Double = 500
    static let unitEstimate: Double = 20_000

    /// Decides for the steps in render order, where `dependencies[i]` are the distinct steps
    /// step `i` reads from and `cost[i]` its work per cycle; `pipelineObstacle` says why a
    /// serial chain cannot be pipelined (nil: it can); `isOneRun`, that its nodes render one
    /// after another in one unit-host child (a ``UnitRun``), which then renders one slice
    /// behind the host instead of in stages; `workersRefusal` why the workers were
    /// measured not to pay for this graph (nil: they were not), which keeps an automatic
    /// plan on one thread.
    static func decide(
        order: [GraphNode], dependencies: [[Int]], cost: [Double], isMeasured: Bool, parallelism: RenderParallelism,
        pipelineObstacle: String? = nil, isOneRun: Bool = false, workersRefusal: String? = nil
    ) -> ParallelPlanDecision {
        var longest = [Double](repeating: 0, count: order.count)
        var depth = [Int](repeating: 0, count: order.count)
        for step in order.indices {
            longest[step] = cost[step] + (dependencies[step].map { longest[$0] }.max() ?? 0)
            depth[step] = 1 + (dependencies[step].map { depth[$0] }.max() ?? 0)
        }
        let work = cost.reduce(0, +)
        let critical = longest.max() ?? 0
        var decision = ParallelPlanDecision(
            isParallel: false, threads: 1, reason: "", branches: branches(order: order, dependencies: dependencies),
            work: work, criticalPath: critical, isMeasured: isMeasured)
        let kind = isMeasured ? "measured" : "estimated"
        if parallelism.threads <= 1 {
            decision.reason = "single-threaded: one thread asked for"
        } else if (depth.max() ?? 0) == order.count {
            decision.decideThePipeline(
                order: order, cost: cost, kind: kind, parallelism: parallelism, obstacle: pipelineObstacle, isOneRun: isOneRun, refusal: workersRefusal)
        } else if parallelism.policy == .automatic, let workersRefusal {
            decision.reason = "single-threaded: \(workersRefusal)"
        } else if parallelism.policy == .always || work - critical >= worthwhileWork {
            decision.isParallel = true
            decision.threads = parallelism.threads
            let share = work > 0 ? 100 * critical / work : 100
            decision.reason = "parallel: the longest path is \(Int(share.rounded()))% of the \(kind) work"
                + (parallelism.policy == .always && work - critical < worthwhileWork ? " (always parallel, as asked)" : "")
        } else {
            decision.reason = String(
                format: "single-threaded: the work beside the longest path, %.1f us per cycle (%@), does not pay for a worker (%.0f us)",
                (work - critical) / 1000, kind, worthwhileWork / 1000)
        }
        return decision
    }

    /// For a serial chain: stages balanced by cost, at most one per thread,
    /// when the work beside the largest stage pays for the workers.
    private mutating func decideThePipeline(
        order: [GraphNode], cost: [Double], kind: String, parallelism: RenderParallelism, obstacle: String?, isOneRun: Bool, refusal: String?
    ) {
        guard order.count >= 2 else {
            reason = "single-threaded: one node"
            return
        }
        if let obstacle {
            reason = "single-threaded: a serial chain, not pipelined: \(obstacle)"
            return
        }
        guard parallelism.stageLimit > 1 else {
            reason = "single-threaded: a serial chain, not pipelined: that adds latency, and was not asked for"
            return
        }
        if isOneRun {
            addedLatencySlices = 1
            rendersOneSliceBehind = true
            reason = "single-threaded: a serial chain whose nodes render one after another in one unit-host child (one run), one slice behind the host (1 slice of latency)"
            return
        }
        addedLatencySlices = min(parallelism.stageLimit, order.count) - 1
        let counts = PipelineSchedule.balancedStages(cost: cost, stageCount: addedLatencySlices + 1)
        var start = 0
        var largest = 0.0
        var cut: [[GraphNode]] = []
        for count in counts {
            cut.append(Array(order[start..<(start + count)]))
            largest = max(largest, cost[start..<(start + count)].reduce(0, +))
            start += count
        }
        if parallelism.policy == .automatic, let refusal {
            reason = "single-threaded: \(refusal); its output is delayed \(addedLatencySlices) slice(s) as a pipeline's would be"
            return
        }
        guard parallelism.policy == .always || work - largest >= Self.worthwhileWork else {
            reason = String(
                format: "single-threaded: a serial chain whose work beside its largest stage, %.1f us per cycle (%@), does not pay for a worker (%.0f us); its output is delayed %d slice(s) as a pipeline's would be",
                (work - largest) / 1000, kind, Self.worthwhileWork / 1000, addedLatencySlices)
            return
        }
        isPipelined = true
        stages = cut
        threads = parallelism.threads
        let share = work > 0 ? 100 * largest / work : 100
        reason = "pipelined in \(cut.count) stages, one slice apart (\(addedLatencySlices) slice\(addedLatencySlices == 1 ? "" : "s") of latency): the largest stage is \(Int(share.rounded()))% of the \(kind) work"
            + (parallelism.policy == .always && work - largest < Self.worthwhileWork ? " (always parallel, as asked)" : "")
    }

    /// Maximal runs of steps where each has one dependency, the step before it, and is
    /// that step's only dependent.
    private static func branches(order: [GraphNode], dependencies: [[Int]]) -> [[GraphNode]] {
        var dependents = [[Int]](repeating: [], count: order.count)
        for (step, sources) in dependencies.enumerated() { for source in sources { dependents[source].append(step) } }
        var branchOf = [Int](repeating: -1, count: order.count)
        var branches: [[GraphNode]] = []
        for step in order.indices {
            let sources = dependencies[step]
            if sources.count == 1, dependents[sources[0]].count == 1, branchOf[sources[0]] >= 0 {
                branchOf[step] = branchOf[sources[0]]
                branches[branchOf[step]].append(order[step])
            } else {
                branchOf[step] = branches.count
                branches.append([order[step]])
            }
        }
        return branches
    }

    /// A unit's estimated work per cycle before the graph has rendered: the built-in
    /// splitter, mixer and converter are cheap; any other unit is assumed to be a plugin.
    static func estimatedCost(of unit: AudioUnit) -> Double {
        unit is SplitterUnit || unit is MultichannelMixerUnit || unit is FormatConverterUnit ? cheapEstimate : unitEstimate
    }
}
