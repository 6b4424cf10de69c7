import AUCore
import Foundation

/// Validation verdicts on disk beside the probe's (``ProbeCache``, `validate-<version>.json`
/// in the same folder): keyed by the unit (format and identifier), valid while its binary
/// is unchanged, and per host version (another version's verdicts are in another file).
/// A verdict `works` is a pass, `fails` a failure (the reason names the failed tests).
/// - Thread: [control]
public struct ValidationCache {
    private var cache: ProbeCache

    /// The cache of host `version` in the standard folder.
    /// - Thread: [control]
    public init(hostVersion: String) {
        cache = ProbeCache(file: ProbeCache.standardFile(named: "validate-\(hostVersion).json"))
    }

    /// The key of a unit.
    static func key(_ component: Component) -> String { component.format.rawValue + ":" + component.identifier }

    /// The binary a unit's verdict depends on: an LV2 plugin's library (`lv2Binaries`), a
    /// native unit's library, a built-in unit's host executable.
    /// - Thread: [control]
    public static func binary(of component: Component, lv2Binaries: [String: String], hostExecutable: String) -> String? {
        switch component.format {
        case .lv2: lv2Binaries[component.identifier]
        case .native: component.identifier.split(separator: "#").dropLast().joined(separator: "#")
        case .builtin: hostExecutable
        }
    }

    /// The verdict cached for `component`, nil when none or its binary changed.
    /// - Thread: [control]
    public func verdict(for component: Component, binary: String?) -> ProbeVerdict? {
        cache.verdict(for: Self.key(component), binaryPath: binary)
    }

    /// Records a run's verdict (``save()`` writes it).
    /// - Thread: [control]
    public mutating func record(_ validation: UnitValidation, component: Component, binary: String?) {
        let verdict = validation.passed
            ? ProbeVerdict(outcome: .works, reason: "passed at strictness \(validation.strictness)")
            : ProbeVerdict(outcome: .fails, reason: "failed at strictness \(validation.strictness): \(validation.failedTests.joined(separator: ", "))")
        cache.record(verdict, for: Self.key(component), binaryPath: binary)
    }

    /// Writes the cache atomically.
    /// - Thread: [control]
    public func save() throws { try cache.save() }
}
