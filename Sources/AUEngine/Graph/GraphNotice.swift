import AUCore

/// Something the render thread reports about a node (it travels as a plain value through a
/// ring and is delivered on the control side by ``AudioGraph/dispatchPendingNotifications()``).
/// - Thread: [any] (a plain value).
public struct GraphNotice: Sendable, Equatable, BitwiseCopyable, CustomStringConvertible {
    /// - Thread: [any]
    public enum Kind: UInt8, Sendable, BitwiseCopyable {
        /// The node produced NaN or infinity; it is muted until ``AudioGraph/clearFault(_:)``.
        case nonFiniteOutput
        /// The node's render returned a non-zero status; its output was silenced for the cycle.
        case renderError
        /// The render thread adopted a new plan (published by initialize or update).
        case planAdopted
        /// A unit's latency changed (an LV2 plugin reports its own once it runs): the graph
        /// published a plan that compensates it; `status` is the graph's latency in frames.
        /// Sent by ``AudioGraph/dispatchPendingNotifications()`` on the control side, with
        /// `sampleTime` 0.
        case latencyChanged
        /// A render worker was still inside the node's render at the cycle's deadline: the
        /// cycle, and those after it until the worker returns, were silent.
        case workerStalled
    }

    public var kind: Kind
    public var node: GraphNode
    /// The render status (render errors), the plan generation (plan adoption) or the
    /// graph's latency in frames (latency changes).
    public var status: Int32
    /// The sample time of the cycle in which it happened.
    public var sampleTime: Double

    /// - Thread: [any]
    public init(kind: Kind, node: GraphNode, status: Int32, sampleTime: Double) {
        self.kind = kind
        self.node = node
        self.status = status
        self.sampleTime = sampleTime
    }

    /// - Thread: [any]
    public var description: String {
        switch kind {
        case .nonFiniteOutput: "node \(node) produced NaN or infinity at sample \(Int(sampleTime)); it is muted"
        case .renderError: "node \(node) failed to render at sample \(Int(sampleTime)): status \(status)"
        case .planAdopted: "plan \(status) adopted at sample \(Int(sampleTime))"
        case .latencyChanged: "node \(node) changed its latency; the graph's is \(status) frames"
        case .workerStalled: "node \(node) kept a render worker past the cycle's deadline at sample \(Int(sampleTime)); the cycle was silent"
        }
    }
}

/// A parameter change on its way to the render thread, in the graph's time: `offset` frames
/// into the next cycle the graph renders (it may exceed that cycle; it then lands in a later one).
struct GraphParameterEvent: BitwiseCopyable {
    var node: Int32
    var index: Int32
    var offset: Int64
    var value: Float
}
