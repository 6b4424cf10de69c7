import AUHost
import AUValidate
import Foundation

/// What `auhost list` shows of the cached validation verdicts (`--validated`, `--json`).
extension ValidateCommand {
    /// The cached verdict of each unit that has one, by identifier.
    static func cachedVerdicts(_ units: [Component]) -> [String: ProbeVerdict] {
        let cache = ValidationCache(hostVersion: AUHostCLI.version)
        let lv2Binaries = units.contains { $0.format == .lv2 } ? LV2Provider().binaryPaths() : [:]
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        var verdicts: [String: ProbeVerdict] = [:]
        for unit in units {
            let binary = ValidationCache.binary(of: unit, lv2Binaries: lv2Binaries, hostExecutable: executable)
            if let verdict = cache.verdict(for: unit, binary: binary) { verdicts[unit.identifier] = verdict }
        }
        return verdicts
    }

    /// `[validated: passed at strictness 5]`, `[validation failed at strictness 5: latency]`, `[not validated]`.
    static func mark(_ verdict: ProbeVerdict?) -> String {
        guard let verdict else { return "[not validated]" }
        return verdict.outcome == .works ? "[validated: \(verdict.reason ?? "passed")]" : "[validation \(verdict.reason ?? "failed")]"
    }
}
