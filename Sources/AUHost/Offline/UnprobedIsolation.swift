import AUCore
import AULV2

/// The isolation a batch render gives a node whose preset and command line say none: `per-unit`
/// for an LV2 plugin that the probe (`auhost probe-unit`) has not found to work, as its
/// binary is now; in process for everything else (docs/ISOLATION.md).
/// - Thread: [control]
public enum UnprobedIsolation {
    /// The policy over the probe cache as it is now (`$XDG_CACHE_HOME/auhost/lv2-probe.json`)
    /// and the machine's LV2 plugins' binaries.
    /// - Thread: [control]
    public static func policy(cache: LV2ProbeCache = LV2ProbeCache(), provider: LV2Provider = LV2Provider()) -> @Sendable (Component) -> UnitIsolation {
        let binaries = provider.binaryPaths()
        return { component in
            guard component.format == .lv2 else { return .none }
            let verdict = cache.verdict(uri: component.identifier, binaryPath: binaries[component.identifier])
            return verdict?.outcome == .works ? .none : .perUnit
        }
    }
}
