import CAUPluginABI

/// The host's musical transport at the first frame of a render call, as a unit sees it:
/// rolling or stopped, tempo, time signature, and the position in beats and bars (the SDK's
/// mirror of the host's `TransportState`).
/// - Thread: [render] (a plain value).
public struct PluginTransportState: Sendable, Equatable {
    public var isRolling: Bool
    public var beatsPerMinute: Double
    /// The position in beats since the start.
    public var beat: Double
    public var beatsPerBar: Double
    /// 0-based, fractional.
    public var beatInBar: Double
    /// 0-based.
    public var bar: Int
    /// The note value of a beat (4: a quarter note).
    public var beatUnit: Int
    public var frame: Int64

    @inlinable
    init(_ transport: auhost_transport) {
        isRolling = transport.flags & AUHOST_TRANSPORT_ROLLING != 0
        beatsPerMinute = transport.beats_per_minute
        beat = transport.beat
        beatsPerBar = transport.beats_per_bar
        beatInBar = transport.beat_in_bar
        bar = Int(transport.bar)
        beatUnit = Int(transport.beat_unit)
        frame = transport.frame
    }
}
