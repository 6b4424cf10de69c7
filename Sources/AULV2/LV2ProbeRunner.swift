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
/// plugin recorded as crashed (timed out).
/// - Thread: [control]
public struct LV2ProbeRunner: Sendable {
    public var executable: URL
    public var timeout: TimeInterval = 30
    /// Extra environment for the children (LV2_PATH…).
    public var environment: [String: String] = [:]

    /// - Thread: [control]
    public init(executable: URL) { self.executable = executable }

    /// Probes the plugins with `uris` (those without a valid cached verdict unless
    /// `force`), records the verdicts in `cache` and saves it; returns every plugin's
    /// verdict by URI. `binaries` gives each plugin's binary path (``LV2Provider/binaryPaths()``).
    /// - Thread: [control]
    public func probe(_ uris: [String], binaries: [String: String], cache: inout LV2ProbeCache, force: Bool = false) -> [String: LV2ProbeVerdict] {
        var process = ProbeProcess(executable: executable, arguments: ["probe-unit"], timeout: timeout)
        process.environment = environment
        return process.verdicts(uris, binaries: binaries, cache: &cache, force: force)
    }
}
