/// Where a node's unit runs (`--isolation`, a preset node's `"isolation"`): in the host's
/// process, or in a child process of its own or shared with the chain's other isolated
/// units, so that a unit that crashes or hangs takes only its child down (docs/ISOLATION.md).
/// - Thread: [any]
public enum UnitIsolation: String, Sendable, CaseIterable, Equatable {
    /// In the host's process (the lowest latency).
    case none
    /// Every isolated unit of a chain in one child process: a fault silences them all.
    case together
    /// Each unit in a child process of its own.
    case perUnit = "per-unit"

    /// The words the option and the preset key accept.
    /// - Thread: [any]
    public static let choices = allCases.map(\.rawValue).joined(separator: "|")
}

/// Turns a component into one whose instances run elsewhere (AUBridge's child processes):
/// what the preset loader asks for each node whose isolation is not `none`.
/// - Thread: [control]
public protocol ComponentIsolator: Sendable {
    /// The component whose instances are `component`'s in a child process, for the node
    /// `node` (named in fault messages), which names its unit as `reference`.
    /// - Thread: [control]
    func isolated(_ component: Component, node: String, reference: String, mode: UnitIsolation) -> Component

    /// Starts, ahead of the instances, where the instances of node `node` (which names its
    /// unit as `reference`) will run, so that the start-ups of a preset's isolated nodes
    /// overlap instead of following each other, and may overlap the host's own start-up
    /// (``PresetLoader/prepareIsolation(of:isolation:isolator:)``); nothing by default.
    /// - Thread: [control]
    func prepare(node: String, reference: String, mode: UnitIsolation)
}

extension ComponentIsolator {
    /// - Thread: [control]
    public func prepare(node: String, reference: String, mode: UnitIsolation) {}
}
