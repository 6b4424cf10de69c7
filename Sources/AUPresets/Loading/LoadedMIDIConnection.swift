/// A MIDI connection, checked: the source sends MIDI, the destination takes it, no cycle.
/// `input` and `output` (``LoadedEndpoint/graphInput(bus:)``, ``LoadedEndpoint/graphOutput(bus:)``,
/// bus 0) are the graph's MIDI input and output; a node's bus is 0.
/// - Thread: [any] (a plain value).
public struct LoadedMIDIConnection: Hashable, Sendable {
    /// The channels a connection passes and the one it moves them to.
    /// - Thread: [any] (a plain value).
    public struct Channels: Hashable, Sendable {
        /// Bit n: channel n + 1 passes.
        public var accepted: UInt16
        /// The channel (1–16) passed channel messages move to; nil keeps theirs.
        public var target: Int?
        /// - Thread: [any]
        public static let all = Channels(accepted: 0xFFFF, target: nil)
    }

    public var source: LoadedEndpoint
    public var destination: LoadedEndpoint
    public var channels: Channels
}
