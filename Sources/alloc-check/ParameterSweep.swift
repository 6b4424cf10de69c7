import AUCore
import AUEngine

/// The control thread's parameter changes in the pipeline and isolation checks: on each node,
/// its last writable continuous parameter (not a switch or a list) to the next seventh of its
/// range, at a frame inside the cycle.
///
/// A check makes one sweep before it counts and renders it in its priming cycles: the first
/// scheduled change runs each unit's event path for the first time, where a debug build's
/// runtime makes type metadata once (allocating and locking). On a loaded machine the control
/// thread's first change in the loop came after the warm-up, and the counted cycles saw it
/// (`alloc-check --isolated-together`: 3 mallocs, 3 frees, 3 locks in 4 of 8 runs beside two
/// busy loops; 0 in 8 with the sweep first).
/// - Thread: [control]
struct ParameterSweep {
    let graph: AudioGraph
    let nodes: [GraphNode]
    let frames: Int
    /// Changes scheduled so far.
    private(set) var changes = 0

    /// - Thread: [control]
    init(graph: AudioGraph, nodes: [GraphNode], frames: Int) {
        self.graph = graph
        self.nodes = nodes
        self.frames = frames
    }

    /// Schedules one change on each node's parameter and dispatches the graph's notifications.
    /// - Thread: [control]
    mutating func step() throws {
        for node in nodes {
            let unit = try graph.unit(of: node)
            guard let info = unit.parameters.infos.last(where: { $0.isWritable && $0.maxValue - $0.minValue > 1 }) else { continue }
            let value = info.minValue + (info.maxValue - info.minValue) * Float(changes % 7) / 7
            try graph.scheduleParameter(node, info.address, value: value, atFrame: (changes * 13) % frames)
            changes += 1
        }
        graph.dispatchPendingNotifications()
    }
}
