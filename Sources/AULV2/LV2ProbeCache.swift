import AUCore
import Foundation

/// What the LV2 probe found about one plugin (see ``ProbeVerdict``).
/// - Thread: [any]
public typealias LV2ProbeVerdict = ProbeVerdict

/// LV2 probe verdicts on disk, keyed by plugin URI (`lv2-probe.json`, see ``ProbeCache``).
/// - Thread: [control]
public typealias LV2ProbeCache = ProbeCache

extension ProbeCache {
    /// The LV2 probe's cache file, `$XDG_CACHE_HOME/auhost/lv2-probe.json` (else `~/.cache/auhost/lv2-probe.json`).
    /// - Thread: [control]
    public static var standardFile: URL { standardFile(named: "lv2-probe.json") }

    /// The LV2 probe's cache.
    /// - Thread: [control]
    public init() { self.init(file: Self.standardFile) }

    /// The verdict for a plugin whose binary is still the one probed, or nil.
    /// - Thread: [control]
    public func verdict(uri: String, binaryPath: String?) -> LV2ProbeVerdict? { verdict(for: uri, binaryPath: binaryPath) }

    /// Records a verdict (call ``save()`` to write it).
    /// - Thread: [control]
    public mutating func record(_ verdict: LV2ProbeVerdict, uri: String, binaryPath: String?) { record(verdict, for: uri, binaryPath: binaryPath) }
}
