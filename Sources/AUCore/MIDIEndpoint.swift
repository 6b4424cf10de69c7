/// Where a MIDI connection starts or ends: a node, or the graph's own MIDI input (a JACK
/// MIDI port, a MIDI file, events sent from code) or MIDI output (a JACK MIDI port, a file).
/// - Thread: [any] (a plain value).
public enum MIDIEndpoint: Hashable, Sendable, CustomStringConvertible {
    case graphInput
    case graphOutput
    case node(GraphNode)

    /// - Thread: [any]
    public var node: GraphNode? {
        if case .node(let node) = self { return node }
        return nil
    }

    /// - Thread: [any]
    public var description: String {
        switch self {
        case .graphInput: "MIDI input"
        case .graphOutput: "MIDI output"
        case .node(let node): "\(node)"
        }
    }
}
