import AUCore

/// The render order of a graph's nodes and the check that it has no cycle.
/// The output node (type `auou`) is split in two: its output bus is a source (the
/// application's input) and its input bus the sink, so it is not part of the order.
/// - Thread: [control]
enum GraphTopology {
    /// The nodes other than the output node, each after every node that feeds it; ties keep
    /// the order nodes were added in. A cycle fails with an error naming every connection in it.
    static func renderOrder(_ model: GraphModel) throws(AudioUnitError) -> [GraphNode] {
        let output = model.outputNode
        let nodes = model.order.filter { $0 != output }
        var incoming: [GraphNode: Int] = [:]
        var outgoing: [GraphNode: [GraphNode]] = [:]
        for node in nodes { incoming[node] = 0 }
        for edge in edges(model) where edge.source != output && edge.destination != output {
            incoming[edge.destination, default: 0] += 1
            outgoing[edge.source, default: []].append(edge.destination)
        }
        var ready = nodes.filter { incoming[$0] == 0 }
        var order: [GraphNode] = []
        let rank = Dictionary(uniqueKeysWithValues: model.order.enumerated().map { ($1, $0) })
        while !ready.isEmpty {
            ready.sort { rank[$0]! < rank[$1]! }
            let node = ready.removeFirst()
            order.append(node)
            for next in outgoing[node] ?? [] {
                incoming[next]! -= 1
                if incoming[next] == 0 { ready.append(next) }
            }
        }
        if order.count < nodes.count {
            let remaining = Set(nodes).subtracting(order)
            throw AudioUnitError(.invalidPropertyValue, "the graph has a cycle: \(describeCycle(model, among: remaining)); a node cannot feed itself, directly or through others")
        }
        return order
    }

    /// A dependency between two nodes: an audio or a MIDI connection, as errors name it.
    struct Edge {
        var source: GraphNode
        var destination: GraphNode
        var description: String
    }

    /// Every audio connection, then every MIDI connection between two nodes: what orders the
    /// nodes, and what a parallel plan's steps wait for.
    static func edges(_ model: GraphModel) -> [Edge] {
        model.connections.map {
            Edge(source: $0.source, destination: $0.destination,
                 description: "\(model.label($0.source)) output \($0.sourceOutputBus) -> \(model.label($0.destination)) input \($0.destinationInputBus)")
        } + model.midiConnections.compactMap { connection in
            guard let source = connection.source.node, let destination = connection.destination.node else { return nil }
            return Edge(source: source, destination: destination, description: "\(model.label(source)) MIDI -> \(model.label(destination))")
        }
    }

    /// One cycle among `remaining` (each of which lies on or after a cycle), as connections.
    private static func describeCycle(_ model: GraphModel, among remaining: Set<GraphNode>) -> String {
        guard var node = model.order.first(where: remaining.contains) else { return "?" }
        let edges = edges(model)
        var path: [Edge] = []
        var seen: [GraphNode: Int] = [:]
        while seen[node] == nil {
            seen[node] = path.count
            guard let next = edges.first(where: { $0.source == node && remaining.contains($0.destination) }) else { break }
            path.append(next)
            node = next.destination
        }
        return path[(seen[node] ?? 0)...].map(\.description).joined(separator: ", ")
    }
}
