import AUCore
import Synchronization

/// What the render thread and the control thread share about one node for as long as the
/// node exists, across plans: the bypass switch, the fault (NaN) mute, the last render
/// status and the time spent rendering it. Every field is atomic.
/// - Thread: [control] creates it; [any] reads and writes its fields.
final class NodeRuntime: @unchecked Sendable {
    let node: GraphNode
    /// True while the node's audio passes through untouched (delayed by its latency).
    let isBypassed = Atomic<Bool>(false)
    /// True once the node produced NaN or infinity: it is silent until the fault is cleared.
    let isFaulted = Atomic<Bool>(false)
    /// The last non-zero status its render returned (0: none since the last clear).
    let lastStatus = Atomic<Int32>(0)
    /// Nanoseconds spent in this node's render calls since the counters were reset.
    let renderNanoseconds = Atomic<UInt64>(0)

    init(node: GraphNode) { self.node = node }

    /// Bypassed or faulted: the step needs more than one call of its unit.
    @inline(__always)
    var isSpecial: Bool { isBypassed.load(ordering: .relaxed) || isFaulted.load(ordering: .relaxed) }
}
