/// A node's identity in an `AudioGraph` (Core Audio's `AUNode`): stable while the node
/// exists, never reused within one graph. A plain value of the model, so that what names a
/// node (a ``MIDIEndpoint``, a MIDI track's destination) needs no engine.
/// - Thread: [any] (a plain value).
public struct GraphNode: Hashable, Comparable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public let rawValue: Int32
    /// - Thread: [any]
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// - Thread: [any]
    public static func < (lhs: GraphNode, rhs: GraphNode) -> Bool { lhs.rawValue < rhs.rawValue }
    /// - Thread: [any]
    public var description: String { "#\(rawValue)" }
}
