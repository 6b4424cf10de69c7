/// A tempo change on a sequence's tempo track, as Core Audio's `ExtendedTempoEvent`. Written
/// as a set-tempo meta event of `60,000,000 / bpm` microseconds per quarter note (rounded,
/// 24 bits); read back as `60,000,000 / microseconds`.
/// - Thread: [any]
public struct ExtendedTempoEvent: Sendable, Hashable {
    /// Quarter notes per minute. The tempo map ignores values that are not finite and positive.
    public var bpm: Double

    /// A tempo of `bpm` quarter notes per minute.
    /// - Thread: [any]
    public init(bpm: Double) {
        self.bpm = bpm
    }
}
