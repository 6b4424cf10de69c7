/// One end of a loaded connection.
/// - Thread: [any] (a plain value).
public enum LoadedEndpoint: Hashable, Sendable {
    /// Where audio enters the graph (the input file, the JACK inputs).
    case graphInput(bus: Int)
    /// Where audio leaves the graph.
    case graphOutput(bus: Int)
    /// A bus of ``LoadedPreset/nodes``[index]: an output bus as a source, an input bus as a destination.
    case node(Int, bus: Int)
}
