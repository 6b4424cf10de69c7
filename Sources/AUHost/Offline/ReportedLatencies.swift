import AUBridge
import AUCore
import AUEngine
import AULV2
import Synchronization

/// The latencies a chain's LV2 units reported in their first cycle, kept per rate and per
/// job overrides, so that a batch primes a chain once, not once per file.
///
/// Priming (``LatencyPriming``) renders a silent cycle and then instantiates every unit
/// again: about a millisecond a file for the reference chain, paid by every file of a batch
/// and every render from Python. The fresh graph of a later file made the same way (the same
/// preset, rate and overrides) is instead compiled with the values recorded here, set on its
/// units' latency outputs before it is initialized (``RunReportedLatency/seedReportedLatency(_:)``): the same
/// plan the primed graph gets. A unit that reports something else in its first real cycle
/// fails that file's render before anything is written (``OfflineFileRenderer``); the file
/// renders again primed, and the values are forgotten.
/// - Thread: [control] (any worker of a batch).
final class ReportedLatencies: Sendable {
    /// Per key, per node in preset order: the value its latency output reported, nil for a
    /// node without one.
    private let known = Mutex<[String: [Float?]]>([:])

    /// The key of a graph built at `rate` for slices of at most `blockSize` frames, rendered
    /// on `parallelism`'s threads, with a job's `overrides`.
    static func key(rate: Double, blockSize: Int, parallelism: RenderParallelism, overrides: [String]) -> String {
        ([String(rate), String(blockSize), parallelism.description] + overrides).joined(separator: "\n")
    }

    /// Under a render's error when a unit built with a recorded latency reported another one:
    /// the render is done again, primed (``retryingMismatch(_:)``).
    private struct Mismatch: Error, CustomStringConvertible {
        var description: String { "a unit reported another latency than an earlier instance made the same way" }
    }

    /// The error for a graph whose units were seeded and reported other latencies.
    static var mismatch: AudioUnitError {
        AudioUnitError(.invalidOfflineRender, "the chain's latency changed in its first cycles", underlying: Mismatch())
    }

    /// Sets the values recorded under `key` on fresh `units` (the preset's nodes, in order,
    /// not yet initialized); whether there were any.
    func seed(_ units: [AudioUnit], key: String) -> Bool {
        guard let values = known.withLock({ $0[key] }), values.count == units.count else { return false }
        for (unit, value) in zip(units, values) {
            if let value, let unit = unit as? RunReportedLatency { unit.seedReportedLatency(value) }
        }
        return true
    }

    /// Records what the units of `chain`, just primed, reported under `key` (an isolated
    /// LV2 plugin's too: its proxy's latency output is seeded, and its child's unit writes
    /// the value back with its first cycle).
    func record(_ chain: ChainGraph, key: String) {
        let values = chain.nodes.map { ($0.unit as? RunReportedLatency)?.reportedLatency }
        guard values.contains(where: { $0 != nil }) else { return }
        known.withLock { $0[key] = values }
    }

    /// `render`'s result (a render through a graph this record built); when its units reported
    /// other latencies than recorded, everything recorded is forgotten and `render` runs again,
    /// told it is the second try (its graph primed).
    func retryingMismatch<Output>(_ render: (_ again: Bool) throws(AudioUnitError) -> Output) throws(AudioUnitError) -> Output {
        do throws(AudioUnitError) {
            return try render(false)
        } catch where error.underlying is Mismatch {
            known.withLock { $0.removeAll() }
            return try render(true)
        }
    }
}
