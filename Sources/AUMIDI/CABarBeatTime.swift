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

    /// Reads `BAR`, `BAR:BEAT` or `BAR:BEAT:SUBBEAT` (bar and beat from 1, subbeats from 0
    /// of `subbeatDivisor`), as `description` writes it; nil for anything else.
    /// - Thread: [any]
    public init?(parsing text: String, subbeatDivisor: Int = 480) {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count), fields.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              let bar = Int(fields[0]), bar >= 1
        else { return nil }
        let beat = fields.count > 1 ? Int(fields[1]) : 1
        let subbeat = fields.count > 2 ? Int(fields[2]) : 0
        guard let beat, beat >= 1, let subbeat, subbeat < subbeatDivisor else { return nil }
        self.init(bar: bar, beat: beat, subbeat: subbeat, subbeatDivisor: subbeatDivisor)
    }
}
