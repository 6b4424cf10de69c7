/// How a chain's nodes are wired: a file has exactly one of the two forms.
/// - Thread: [any] (a plain value).
public enum PresetRouting: Hashable, Sendable {
    /// `chain`: input → each node in order (bus 0 to bus 0) → output. A first node without
    /// an input bus (a generator, an instrument) starts the chain itself.
    case chain([String])
    /// `connections`: the general graph, each an output bus feeding an input bus.
    case connections([PresetConnection])

    /// The same wiring as `chain` when it is one: input:0 → a:0, a:0 → b:0, … → output:0
    /// through every node once, else unchanged. Captures use it so simple graphs save in
    /// the short form. (A chain led by a generator stays in `connections`: whether the
    /// short form would feed its first node depends on the unit's buses.)
    /// - Thread: [any]
    public func compacted(nodeIDs: [String]) -> PresetRouting {
        guard case .connections(let connections) = self,
              connections.allSatisfy({ $0.source.bus == 0 && $0.destination.bus == 0 })
        else { return self }
        var next: [String: String] = [:]
        for connection in connections {
            guard next[connection.source.node] == nil else { return self }
            next[connection.source.node] = connection.destination.node
        }
        var order: [String] = []
        var current = PresetEndpoint.inputName
        while let following = next[current], following != PresetEndpoint.outputName {
            guard !order.contains(following), following != PresetEndpoint.inputName else { return self }
            order.append(following)
            current = following
        }
        guard next[current] == PresetEndpoint.outputName, Set(order) == Set(nodeIDs), order.count == nodeIDs.count,
              connections.count == order.count + 1
        else { return self }
        return .chain(order)
    }
}
