import AUCore
import CAUPluginABI
import Foundation

/// Probes native unit libraries in child processes before the host loads them
/// (`<executable> probe-library PATH…`, through ``ProbeProcess``): a library whose
/// constructor or factory aborts, crashes or never returns takes only a child down and is
/// reported, instead of killing or hanging every command. Verdicts are cached by the
/// library's real path, size and modification time (`$XDG_CACHE_HOME/auhost/native-probe-abi2.json`,
/// else `~/.cache/auhost/native-probe-abi2.json`), so only new or changed libraries are
/// probed; the file is named after the host's ABI version, so that a host of another
/// version (an upgrade) never believes the verdicts of the last one (a version-2 library
/// that a version-1 host refused works now).
/// - Thread: [control]
public struct NativeProbeRunner: Sendable {
    /// The child's subcommand.
    public static let subcommand = "probe-library"
    /// The environment variable naming the probe executable (an `auhost` binary), for an
    /// application whose own executable is not `auhost` and has none beside it.
    public static let executableVariable = "AUHOST_PROBE_EXECUTABLE"

    /// The executable that understands `probe-library` (an `auhost`).
    public var executable: URL
    /// Seconds a child may spend on one library before it is killed.
    public var timeout: TimeInterval = 10
    /// The verdict cache.
    public var cacheFile = ProbeCache.standardFile(named: "native-probe-abi\(AUHOST_PLUGIN_ABI_VERSION).json")

    /// A runner over `executable`, with a 10 s timeout and the standard cache.
    /// - Thread: [control]
    public init(executable: URL) { self.executable = executable }

    /// Where the standard runner looks for its executable: `AUHOST_PROBE_EXECUTABLE`, else
    /// `auhost` in the folder of the running executable (the running `auhost` itself, or
    /// the one built beside a test or an application).
    /// - Thread: [control]
    public static var standardExecutablePath: String? {
        if let configured = DynamicLinker.environment(executableVariable), !configured.isEmpty { return configured }
        return PluginSearchPath.executableFolder().map { $0 + "/auhost" }
    }

    /// The runner over ``standardExecutablePath``, or nil when no executable is there.
    /// - Thread: [control]
    public static func standard() -> NativeProbeRunner? {
        guard let path = standardExecutablePath, DynamicLinker.isExecutable(path) else { return nil }
        return NativeProbeRunner(executable: URL(fileURLWithPath: path))
    }

    /// The verdict on each library (real paths), from the cache or from a probe child.
    /// - Thread: [control]
    public func verdicts(_ paths: [String]) -> [String: ProbeVerdict] {
        var cache = ProbeCache(file: cacheFile)
        let process = ProbeProcess(executable: executable, arguments: [Self.subcommand], timeout: timeout)
        return process.verdicts(paths, binaries: Dictionary(uniqueKeysWithValues: paths.map { ($0, $0) }), cache: &cache)
    }
}
