import AUCore

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
