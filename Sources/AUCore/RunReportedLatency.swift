/// A unit whose latency is an output it writes only when it runs (an LV2 plugin's latency
/// port, in this process or in a unit-host child): a host primes a graph of such units with
/// a silent cycle, or seeds them with what another instance made the same way reported.
/// - Thread: [control]
public protocol RunReportedLatency: AudioUnit {
    /// Whether the unit reports its latency that way.
    var reportsLatencyWhenRun: Bool { get }
    /// What it reported last, in frames; nil when it reports none that way.
    var reportedLatency: Float? { get }
    /// Sets the latency output to `frames` before the unit initializes, so that a graph
    /// compensates it from the first cycle (the unit writes it again when it runs); nothing
    /// for a unit that reports none that way.
    func seedReportedLatency(_ frames: Float)
}
