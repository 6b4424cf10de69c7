import AUCore

/// A node's identity in an ``AudioGraph`` (Core Audio's `AUNode`): stable while the node
/// exists, never reused within one graph.
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

/// One bus of one node: where a connection starts (an output) or ends (an input).
/// - Thread: [any] (a plain value).
public struct GraphEndpoint: Hashable, Sendable, CustomStringConvertible {
    public var node: GraphNode
    public var bus: Element
    /// - Thread: [any]
    public init(_ node: GraphNode, bus: Element) {
        self.node = node
        self.bus = bus
    }
    /// - Thread: [any]
    public var description: String { "\(node) bus \(bus)" }
}

/// A connection from an output bus of one node to an input bus of another
/// (`AUNodeConnection`). An input bus takes at most one connection; an output bus may feed
/// many inputs (fan-out). Fan-in goes through a mixer.
/// - Thread: [any] (a plain value).
public struct GraphConnection: Hashable, Sendable, CustomStringConvertible {
    public var source: GraphNode
    public var sourceOutputBus: Element
    public var destination: GraphNode
    public var destinationInputBus: Element

    /// - Thread: [any]
    public init(source: GraphNode, sourceOutputBus: Element = 0, destination: GraphNode, destinationInputBus: Element = 0) {
        self.source = source
        self.sourceOutputBus = sourceOutputBus
        self.destination = destination
        self.destinationInputBus = destinationInputBus
    }

    /// - Thread: [any]
    public var description: String {
        "\(source) output \(sourceOutputBus) -> \(destination) input \(destinationInputBus)"
    }
}
