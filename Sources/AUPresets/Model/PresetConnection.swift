/// One `[source, destination]` pair of `connections`: an output bus feeding an input bus.
/// - Thread: [any] (a plain value).
public struct PresetConnection: Hashable, Sendable, CustomStringConvertible {
    public var source: PresetEndpoint
    public var destination: PresetEndpoint
    /// - Thread: [any]
    public init(_ source: PresetEndpoint, _ destination: PresetEndpoint) {
        self.source = source
        self.destination = destination
    }
    /// - Thread: [any]
    public var description: String { "\(source) -> \(destination)" }
}
