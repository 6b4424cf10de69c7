/// How much of the effect tail `auhost render` keeps after the input ends (`--tail`).
///
/// - ``seconds(_:)``: exactly that much, whatever it sounds like (`--tail 0` cuts the tail:
///   the output is as long as the input).
/// - ``auto``: at least the chain's reported tail (the sum of its units' TailTime), then
///   until every channel has stayed below -90 dBFS for half a second; the quiet half second
///   is kept. It stops at a cap of 30 s, or the reported tail when that is longer (a unit
///   reporting an infinite tail gets the 30 s cap).
/// - Thread: [any] (a plain value).
public enum TailLength: Sendable, Equatable, CustomStringConvertible {
    case seconds(Double)
    case auto

    /// The threshold of ``auto``.
    public static let quietThresholdDBFS = -90.0
    /// How long ``auto`` waits below the threshold.
    public static let quietWindowSeconds = 0.5
    /// The longest tail ``auto`` renders unless the chain reports a longer one.
    public static let autoCapSeconds = 30.0
    /// The longest tail either form renders (an hour).
    public static let maximumSeconds = 3600.0

    /// The most seconds of tail this length keeps after a chain that reports `reportedTail`
    /// seconds of TailTime (``TailCutter`` stops there; the output's size is bounded by it).
    /// - Thread: [any]
    public func longestSeconds(reportedTail: Double) -> Double {
        switch self {
        case .seconds(let seconds): seconds
        case .auto: max(Self.autoCapSeconds, Self.usableReportedTail(reportedTail))
        }
    }

    /// The fewest tail frames this length keeps at `sampleRate` after a chain that reports
    /// `reportedTail` seconds of TailTime (``TailCutter``'s rule): the fixed length exactly, or
    /// `auto`'s reported tail and its quiet window (a tail quiet from its first frame).
    /// - Thread: [any]
    public func shortestFrames(reportedTail: Double, sampleRate: Double) -> Int {
        switch self {
        case .seconds(let seconds): Self.frames(seconds, sampleRate: sampleRate)
        case .auto: Self.frames(Self.usableReportedTail(reportedTail), sampleRate: sampleRate) + Self.quietWindowFrames(sampleRate: sampleRate)
        }
    }

    /// `seconds` in frames at `sampleRate`, rounded.
    static func frames(_ seconds: Double, sampleRate: Double) -> Int { Int((seconds * sampleRate).rounded()) }

    /// ``quietWindowSeconds`` in frames at `sampleRate` (at least one).
    static func quietWindowFrames(sampleRate: Double) -> Int { max(1, frames(quietWindowSeconds, sampleRate: sampleRate)) }

    /// A chain's reported TailTime as `auto` uses it: 0 when infinite or NaN, at most an hour.
    static func usableReportedTail(_ seconds: Double) -> Double {
        seconds.isFinite ? min(max(0, seconds), maximumSeconds) : 0
    }

    /// Parses `auto` or a number of seconds in 0...3600; `nil` otherwise.
    /// - Thread: [any]
    public init?(argument: String) {
        if argument.lowercased() == "auto" {
            self = .auto
            return
        }
        guard let seconds = Double(argument), seconds.isFinite, (0...Self.maximumSeconds).contains(seconds) else { return nil }
        self = .seconds(seconds)
    }

    /// - Thread: [any]
    public var description: String {
        switch self {
        case .auto: "auto"
        case .seconds(let seconds): "\(seconds) s"
        }
    }
}
