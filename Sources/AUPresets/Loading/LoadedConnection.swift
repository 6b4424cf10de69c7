/// An output bus feeding an input bus, checked: the nodes exist, the buses exist, each
/// input is fed once, and the graph has no cycle.
/// - Thread: [any] (a plain value).
public struct LoadedConnection: Hashable, Sendable {
    public var source: LoadedEndpoint
    public var destination: LoadedEndpoint
    /// - Thread: [any]
    public init(source: LoadedEndpoint, destination: LoadedEndpoint) {
        self.source = source
        self.destination = destination
    }
}
