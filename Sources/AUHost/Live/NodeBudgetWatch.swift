import AUBridge
import AUCore

/// `--node-budget PERCENT`: warns, once per node, when an isolated node's round trip to its
/// child took more than that share of the period on average since the last look, or it
/// missed cycles (late, silent), naming the node and its unit.
/// - Thread: [control] (the run's control loop).
public final class NodeBudgetWatch {
    /// The share of the period one node may take, in percent.
    public let percent: Double
    private var seen: [String: (cycles: Int, totalMicroseconds: Double, late: Int)] = [:]
    private var warned: Set<String> = []

    /// - Thread: [control]
    public init(percent: Double) { self.percent = percent }

    /// The warnings since the last look at `chain`, whose period is `period` seconds.
    /// - Thread: [control]
    public func check(_ chain: ChainGraph, period: Double) -> [String] {
        var warnings: [String] = []
        let budget = period * 1e6 * percent / 100
        for (id, unit) in chain.isolatedNodes where !warned.contains(id) {
            let now = unit.renderStatistics
            let total = now.meanMicroseconds * Double(now.cycles)
            let before = seen[id] ?? (0, 0, 0)
            seen[id] = (now.cycles, total, now.lateCycles)
            let cycles = now.cycles - before.cycles
            guard cycles > 0 || now.lateCycles > before.late else { continue }
            let mean = cycles > 0 ? (total - before.totalMicroseconds) / Double(cycles) : 0
            let late = now.lateCycles - before.late
            guard mean > budget || late > 0 else { continue }
            warned.insert(id)
            warnings.append(String(
                format: "'%@' (%@) took %.1f us a cycle of a %.0f us period (%.1f %%, over the %@ %% --node-budget), %d cycle(s) late",
                id, unit.name, mean, period * 1e6, period > 0 ? mean / (period * 1e6) * 100 : 0, ProbeProcess.seconds(percent), late))
        }
        return warnings
    }
}
