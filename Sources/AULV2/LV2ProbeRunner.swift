import AUCore
import Foundation

/// Probes plugins in child processes (`<executable> probe-unit URI…`, through
/// ``ProbeProcess``), so that a plugin that crashes or hangs never takes the host down,
/// and caches the verdicts.
///
/// The child reports on its private ``ProbeChannel``, so nothing a plugin prints can pass
/// for a verdict. The child's verdict words are `works`, or `fails` and a reason. When a
/// child dies, the plugin it had begun is recorded as crashed (with the signal) and a new
/// child carries on with the rest; a child silent for ``timeout`` seconds is killed and its
/// plugin recorded as hung.
/// - Thread: control.
public struct LV2ProbeRunner {
    public var executable: URL
    public var timeout: TimeInterval = 30
    /// Extra environment for the children (LV2_PATH…).
    public var environment: [String: String] = [:]

    public init(executable: URL) { self.executable = executable }

    /// Probes the plugins with `uris` (those without a valid cached verdict unless
    /// `force`), records the verdicts in `cache` and saves it; returns every plugin's
    /// verdict by URI. `binaries` gives each plugin's binary path (``LV2Provider/binaryPaths()``).
    public func probe(_ uris: [String], binaries: [String: String], cache: inout LV2ProbeCache, force: Bool = false) -> [String: LV2ProbeVerdict] {
        var verdicts: [String: LV2ProbeVerdict] = [:]
        var pending: [String] = []
        for uri in uris {
            if !force, let cached = cache.verdict(uri: uri, binaryPath: binaries[uri]) {
                verdicts[uri] = cached
            } else {
                pending.append(uri)
            }
        }
        var process = ProbeProcess(executable: executable, arguments: ["probe-unit"], timeout: timeout)
        process.environment = environment
        for (uri, outcome) in process.run(pending) {
            let verdict = LV2ProbeVerdict(outcome)
            verdicts[uri] = verdict
            cache.record(verdict, uri: uri, binaryPath: binaries[uri])
        }
        try? cache.save()
        return verdicts
    }
}

extension LV2ProbeVerdict {
    /// The child's words (`works`, `fails REASON`) as a verdict, or its death as a crash.
    init(_ outcome: ProbeProcess.Outcome) {
        switch outcome {
        case .reported(let words):
            let fields = words.split(separator: " ", maxSplits: 1).map(String.init)
            let reason = fields.count > 1 ? fields[1] : nil
            switch fields.first.flatMap(Outcome.init(rawValue:)) {
            case .works: self.init(outcome: .works)
            case .fails, .crashed: self.init(outcome: .fails, reason: reason)
            case nil: self.init(outcome: .fails, reason: "the probe process gave no verdict: \(words)")
            }
        case .crashed(let cause): self.init(outcome: .crashed, reason: cause)
        case .notRun(let cause): self.init(outcome: .fails, reason: "the probe process failed: \(cause)")
        }
    }
}
