import AUCore
import AULV2
import Synchronization

/// The isolation a batch render gives a node whose preset and command line say none: `per-unit`
/// for an LV2 plugin that the probe (`auhost probe-unit`) has not found to work, as its
/// binary is now; in process for everything else (docs/ISOLATION.md).
/// - Thread: [control]
public enum UnprobedIsolation {
    /// The policy over the probe cache as it is now (`$XDG_CACHE_HOME/auhost/lv2-probe.json`)
    /// and the machine's LV2 plugins' binaries. With a `runner`, a plugin the cache has no
    /// verdict for is probed first, in a child process, and its verdict kept in the cache
    /// (once per plugin binary): in process when it works, `per-unit` otherwise; `notice`
    /// hears one line for each plugin probed. Without one, such a plugin is `per-unit`.
    /// - Thread: [control] (the policy too: it is called while a preset loads)
    public static func policy(
        cache: LV2ProbeCache = LV2ProbeCache(), provider: LV2Provider = LV2Provider(discoveryCacheFolder: LV2Provider.standardCacheFolder),
        probing runner: LV2ProbeRunner? = nil,
        notice: @escaping @Sendable (String) -> Void = { _ in }
    ) -> @Sendable (Component) -> UnitIsolation {
        let binaries = provider.binaryPaths()
        let state = Mutex((cache: cache, runner: runner))
        return { component in
            guard component.format == .lv2 else { return .none }
            let uri = component.identifier
            let verdict = state.withLock { state -> LV2ProbeVerdict? in
                if let cached = state.cache.verdict(uri: uri, binaryPath: binaries[uri]) { return cached }
                guard let runner = state.runner, let found = runner.probe([uri], binaries: binaries, cache: &state.cache)[uri] else { return nil }
                notice(
                    "probed \(component.name) (lv2:\(uri)), which no probe had passed: "
                        + (found.outcome == .works ? "it works, and runs in this process" : "\(found.brokenReason ?? "fails"); it runs isolated (per-unit)"))
                return found
            }
            return verdict?.outcome == .works ? .none : .perUnit
        }
    }
}
