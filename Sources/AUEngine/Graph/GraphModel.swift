import AUCore

/// The graph as a value (what `AUGraph` edits): nodes, connections, input callbacks and
/// per-node bypass. ``AudioGraph`` keeps one, edits it on the control thread and compiles
/// it into a ``RenderPlan``; the render thread never sees it.
/// - Thread: [control] (a value; copy it freely).
public struct GraphModel: Sendable {
    /// One node: the description it was added with, its name, and its unit once opened.
    /// - Thread: [control]
    public struct Node: Sendable {
        public var description: ComponentDescription
        public var name: String
        /// Nil until the graph is opened (a node added by description is instantiated then).
        public var unit: AudioUnit?
    }

    /// Every node, by identity.
    public internal(set) var nodes: [GraphNode: Node] = [:]
    /// Node identities in the order they were added (stable dumps and plans).
    public internal(set) var order: [GraphNode] = []
    /// Every connection, in the order made.
    public internal(set) var connections: [GraphConnection] = []
    /// Every MIDI connection, in the order made. Without one from ``MIDIEndpoint/graphInput``,
    /// the graph's MIDI input goes to every node that accepts MIDI and has no MIDI source.
    public internal(set) var midiConnections: [MIDIConnection] = []
    /// Render callbacks that feed input buses (`AUGraphSetNodeInputCallback`).
    public internal(set) var inputCallbacks: [GraphEndpoint: RenderCallback] = [:]
    /// The nodes whose audio passes through untouched (delayed by their latency).
    public internal(set) var bypassed: Set<GraphNode> = []
    /// What schedules MIDI for the nodes every cycle (a MusicPlayer), if anything.
    public internal(set) var midiScheduler: MIDIScheduler?
    var nextNode: Int32 = 1

    /// - Thread: [control]
    public init() {}

    /// The node's record; the error names the unknown node.
    /// - Thread: [control]
    public func node(_ node: GraphNode) throws(AudioUnitError) -> Node {
        guard let entry = nodes[node] else {
            throw AudioUnitError(.invalidElement, "the graph has no node \(node)")
        }
        return entry
    }

    /// `'Name' (#3)`: how errors and dumps name a node.
    /// - Thread: [control]
    public func label(_ node: GraphNode) -> String {
        guard let entry = nodes[node] else { return "\(node)" }
        return "'\(entry.name)' (\(node))"
    }

    /// The connection feeding an input bus, if any.
    /// - Thread: [control]
    public func connection(into endpoint: GraphEndpoint) -> GraphConnection? {
        connections.first { $0.destination == endpoint.node && $0.destinationInputBus == endpoint.bus }
    }

    /// The one node whose type is `auou` (the graph's output), if any.
    /// - Thread: [control]
    public var outputNode: GraphNode? {
        order.first { nodes[$0]?.description.type == ComponentType.output }
    }
}
