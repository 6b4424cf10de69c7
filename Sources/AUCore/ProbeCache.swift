import Foundation

/// Probe verdicts on disk (JSON), keyed by what was probed (an LV2 plugin's URI, a native
/// library's real path) and valid while the probed binary's path, size and modification
/// time are unchanged: one cache type for the LV2 probe (`lv2-probe.json`) and the native
/// library probe (`native-probe-abi2.json`), both in `$XDG_CACHE_HOME/auhost/`, else `~/.cache/auhost/`.
/// - Thread: [control]
public struct ProbeCache: Sendable {
    struct Entry: Codable {
        var binaryPath: String
        var binarySize: Int64
        var binaryModified: Double
        var verdict: ProbeVerdict
    }

    /// The JSON file the cache reads and ``save()`` writes.
    public let file: URL
    private var entries: [String: Entry] = [:]

    /// `$XDG_CACHE_HOME/auhost/<name>`, else `~/.cache/auhost/<name>`.
    /// - Thread: [control]
    public static func standardFile(named name: String) -> URL {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".cache")
        return base.appendingPathComponent("auhost").appendingPathComponent(name)
    }

    /// Reads the cache (an unreadable or missing file is an empty cache).
    /// - Thread: [control]
    public init(file: URL) {
        self.file = file
        if let data = try? Data(contentsOf: file), let decoded = try? JSONDecoder().decode([String: Entry].self, from: data) {
            entries = decoded
        }
    }

    /// The verdict on `key` while its binary is still the one probed, or nil.
    /// - Thread: [control]
    public func verdict(for key: String, binaryPath: String?) -> ProbeVerdict? {
        guard let binaryPath, let entry = entries[key], let stamp = Self.stamp(binaryPath), entry.binaryPath == binaryPath,
              entry.binarySize == stamp.size, entry.binaryModified == stamp.modified else { return nil }
        return entry.verdict
    }

    /// Records a verdict (call ``save()`` to write it).
    /// - Thread: [control]
    public mutating func record(_ verdict: ProbeVerdict, for key: String, binaryPath: String?) {
        let stamp = binaryPath.flatMap(Self.stamp)
        entries[key] = Entry(binaryPath: binaryPath ?? "", binarySize: stamp?.size ?? -1, binaryModified: stamp?.modified ?? 0, verdict: verdict)
    }

    /// Writes the cache atomically, without the entries whose binary no longer exists.
    /// - Thread: [control]
    public func save() throws {
        let kept = entries.filter { FileManager.default.fileExists(atPath: $0.value.binaryPath) }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(kept).write(to: file, options: .atomic)
    }

    private static func stamp(_ path: String) -> (size: Int64, modified: Double)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? NSNumber, let modified = attributes[.modificationDate] as? Date else { return nil }
        return (size.int64Value, modified.timeIntervalSince1970)
    }
}
