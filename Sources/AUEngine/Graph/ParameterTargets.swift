import AUCore
import Synchronization

/// The units a running graph's scheduled parameter events may address, as of the last plan
/// published: ``AudioGraph/scheduleParameter(_:_:value:atFrame:)`` reads them here, under
/// a mutex of the control side, rather than the graph's model, which edits and
/// ``AudioGraph/update()`` change on another thread.
/// - Thread: [any] thread but the render thread.
final class ParameterTargets: @unchecked Sendable {
    /// A node's unit and the label errors name it by.
    struct Target {
        let unit: AudioUnit
        let label: String
    }

    /// What a look-up found.
    enum Lookup {
        /// The graph is not initialized: events are values set at once, on the control thread.
        case notRunning
        /// The node is not in the last plan published.
        case unknown
        case target(Target)
    }

    /// nil while the graph is not initialized.
    private let targets = Mutex<[GraphNode: Target]?>(nil)

    /// Replaces the targets (a plan was published), or clears them (nil: uninitialized).
    /// - Thread: [control]
    func publish(_ new: [GraphNode: Target]?) {
        targets.withLock { $0 = new }
    }

    /// The node's target.
    /// - Thread: [any] thread but the render thread.
    func lookup(_ node: GraphNode) -> Lookup {
        targets.withLock { targets in
            guard let targets else { return .notRunning }
            return targets[node].map { .target($0) } ?? .unknown
        }
    }
}
