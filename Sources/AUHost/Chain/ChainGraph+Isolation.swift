import AUBridge
import AUCore

extension ChainGraph {
    /// The chain's isolated nodes (those whose unit runs in a unit-host child), in file order.
    /// - Thread: [control]
    public var isolatedNodes: [(id: String, unit: BridgedUnit)] {
        nodes.compactMap { node in (node.unit as? BridgedUnit).map { (node.id, $0) } }
    }

    /// Throws when an isolated node's child has crashed, exited or hung, or left a cycle
    /// unanswered (its node went silent): an offline render then fails that file, with `InstanceInvalidated` (the
    /// batch tries it once more in fresh children). `frame` is where the render is.
    /// - Thread: [control] (the offline driver, between cycles).
    public func requireNoIsolationFault(atFrame frame: Int) throws(AudioUnitError) {
        for node in nodes {
            guard let bridged = node.unit as? BridgedUnit else { continue }
            if let fault = bridged.fault {
                throw AudioUnitError(.instanceInvalidated, "\(fault.description) by frame \(frame); the file was not written")
            }
            // Offline a cycle waits the whole timeout: one that went unanswered is a hang,
            // whether or not the monitor has killed the child yet.
            if bridged.cycleDeadline == nil, bridged.renderStatistics.lateCycles > 0 {
                let seconds = ProbeProcess.seconds(bridged.host.timeout)
                throw AudioUnitError(
                    .instanceInvalidated, "'\(node.id)' (\(bridged.name)) hung in render (no answer in \(seconds) s); silenced by frame \(frame); the file was not written")
            }
        }
    }

    /// Live: each isolated node waits at most half of a `period` (seconds) for its child, a
    /// late cycle silent, and the children render at JACK's real-time `priority` (nil: none).
    /// - Thread: [control]
    public func followPeriod(_ period: Double, realtimePriority priority: Int32?) {
        for node in isolatedNodes {
            node.unit.cycleDeadline = period / 2
            if let priority { node.unit.realtimePriority = priority }
        }
    }

    /// `status` words for each isolated node: its state (`running`, `crashed`, `exited`,
    /// `hung`), faults, late cycles, the round trip's mean and longest time in µs, and the
    /// cycles it rendered in a run with its child's other nodes:
    /// `isolated.amp=running,faults=0,late=2,mean_us=31.5,max_us=140.2,in_run=0`.
    /// - Thread: [control]
    public var isolationStatusWords: [String] {
        isolatedNodes.map { id, unit in
            let statistics = unit.renderStatistics
            let state = unit.fault.map { $0.what.split(separator: " ").first.map(String.init) ?? "faulted" } ?? "running"
            return String(
                format: "isolated.%@=%@,faults=%d,late=%d,mean_us=%.1f,max_us=%.1f,in_run=%d", id, state, unit.faultCount, statistics.lateCycles,
                statistics.meanMicroseconds, statistics.maximumMicroseconds, statistics.runCycles)
        }
    }
}
