/// Where the host's musical transport is (what Core Audio units learn through the host
/// callbacks: beat and tempo, musical time location, transport state).
/// - Thread: [any] (a plain value).
public struct TransportState: Sendable, Equatable, BitwiseCopyable {
    public var isRolling: Bool
    public var beatsPerMinute: Double
    /// The position in beats since the start (fractional).
    public var beat: Double
    /// The bar (0-based) and the beat within it (fractional, 0-based).
    public var bar: Int
    public var beatInBar: Double
    public var beatsPerBar: Double
    /// The note value of one beat (4: a quarter note).
    public var beatUnit: Int
    /// The transport's frame position at the start of the cycle.
    public var frame: Int64

    /// - Thread: [any]
    public init(isRolling: Bool = false, beatsPerMinute: Double = 120, beat: Double = 0, bar: Int = 0, beatInBar: Double = 0,
                beatsPerBar: Double = 4, beatUnit: Int = 4, frame: Int64 = 0) {
        self.isRolling = isRolling
        self.beatsPerMinute = beatsPerMinute
        self.beat = beat
        self.bar = bar
        self.beatInBar = beatInBar
        self.beatsPerBar = beatsPerBar
        self.beatUnit = beatUnit
        self.frame = frame
    }
}

extension TransportState {
    /// A rolling 4/4 transport at `beatsPerMinute`, counted from a sample time: what units
    /// see when the host has no transport of its own (offline rendering).
    /// - Thread: [any]
    public static func counted(sampleTime: Double, sampleRate: Double, beatsPerMinute: Double = 120) -> TransportState {
        let beat = sampleTime / sampleRate * beatsPerMinute / 60
        let bar = (beat / 4).rounded(.down)
        return TransportState(
            isRolling: true, beatsPerMinute: beatsPerMinute, beat: beat, bar: Int(bar), beatInBar: beat - bar * 4, frame: Int64(sampleTime))
    }
}

/// The transport a driver publishes for the units of one graph: the driver writes it at
/// the top of each cycle on the render thread, the units read it during that cycle on the
/// same thread. Set on units with ``AudioUnit/hostTransport`` before they render.
/// - Thread: [render] (``state`` is written and read on the render thread); created on the control thread.
public final class HostTransport: @unchecked Sendable {
    /// The transport at the start of the current cycle. Every unit reads it every cycle
    /// (``AudioUnit/currentTransport``): those reads, in this module, make no run-time
    /// exclusivity check (only the render thread touches it; the attribute binds this
    /// module's accesses, not a writer's in another).
    @exclusivity(unchecked) public var state = TransportState()
    /// - Thread: [render]
    public init() {}
}

/// Where the music is at a transport frame: what a timebase master publishes for the other
/// clients of the server (JACK's bar, beat, tick and tempo). A player subclasses it.
/// - Thread: [render] for ``state(atFrame:sampleRate:)`` (the JACK timebase callback); [control] to make it.
open class TransportTimeline: @unchecked Sendable {
    /// - Thread: [control]
    public init() {}

    /// The musical position at transport frame `frame` (bar, beat, tempo, signature);
    /// rolling is the caller's business.
    /// - Thread: [render] No allocation, no lock, no retain.
    open func state(atFrame frame: Int64, sampleRate: Double) -> TransportState { TransportState(frame: frame) }
}
