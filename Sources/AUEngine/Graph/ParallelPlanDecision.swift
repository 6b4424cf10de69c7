import AUCore

/// What the plan compiler decided about rendering a graph on several threads, and why:
/// the branches (runs of nodes that follow one another with nothing joining or leaving in
/// between) and the work per cycle, measured where the graph has rendered, else estimated.
/// - Thread: [any] (a plain value).
public struct ParallelPlanDecision: Sendable, Equatable {
    /// True when the plan renders on the render workers and the calling thread.
    public var isParallel: Bool
    /// The render workers the plan uses (0 when single-threaded).
    public var workers: Int
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
    /// step `i` reads from and `cost[i]` its work per cycle.
    static func decide(
        order: [GraphNode], dependencies: [[Int]], cost: [Double], isMeasured: Bool, parallelism: RenderParallelism
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
            isParallel: false, workers: 0, reason: "", branches: branches(order: order, dependencies: dependencies),
            work: work, criticalPath: critical, isMeasured: isMeasured)
        let kind = isMeasured ? "measured" : "estimated"
        if parallelism.workers == 0 {
            decision.reason = "single-threaded: no render workers (threads 0)"
        } else if (depth.max() ?? 0) == order.count {
            decision.reason = order.count < 2 ? "single-threaded: one node" : "single-threaded: a serial chain has no branches that can render at once"
        } else if parallelism.policy == .always || work - critical >= worthwhileWork {
            decision.isParallel = true
            decision.workers = parallelism.workers
            let share = work > 0 ? 100 * critical / work : 100
            decision.reason = "parallel on \(parallelism.workers) worker\(parallelism.workers == 1 ? "" : "s") and the calling thread: the longest path is \(Int(share.rounded()))% of the \(kind) work"
                + (parallelism.policy == .always && work - critical < worthwhileWork ? " (always parallel, as asked)" : "")
        } else {
            decision.reason = String(
                format: "single-threaded: the work beside the longest path, %.1f us per cycle (%@), does not pay for a worker (%.0f us)",
                (work - critical) / 1000, kind, worthwhileWork / 1000)
        }
        return decision
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
