/// A musical position, as Core Audio's `CABarBeatTime`: bar and beat counted from 1, and
/// subbeats of 1/`subbeatDivisor` of a beat counted from 0. A beat is a note of the time
/// signature's denominator (an eighth note in 6/8).
/// - Thread: [any]
public struct CABarBeatTime: Sendable, Hashable, CustomStringConvertible {
    /// The bar, from 1 (positions before the start give bars below 1).
    public var bar: Int
    /// The beat in the bar, from 1.
    public var beat: Int
    /// The subbeat in the beat, from 0 to `subbeatDivisor - 1`.
    public var subbeat: Int
    /// Subbeats per beat (1-65535).
    public var subbeatDivisor: Int

    /// A position of `bar`, `beat` and `subbeat`.
    /// - Thread: [any]
    public init(bar: Int, beat: Int, subbeat: Int = 0, subbeatDivisor: Int = 480) {
        self.bar = bar
        self.beat = beat
        self.subbeat = subbeat
        self.subbeatDivisor = subbeatDivisor
    }

    /// `bar:beat:subbeat`, as `5:4:240`.
    /// - Thread: [any]
    public var description: String { "\(bar):\(beat):\(subbeat)" }
}
