import Foundation

/// What a probe found about one plugin.
/// - Thread: any.
public struct LV2ProbeVerdict: Codable, Sendable, Equatable {
    public enum Outcome: String, Codable, Sendable {
        /// It instantiated and ran, with finite output.
        case works
        /// It failed with a reason (missing feature, instantiate returned NULL, NaN output…).
        case fails
        /// The child process running it died (a signal) or hung.
        case crashed
    }
    public var outcome: Outcome
    public var reason: String?

    public init(outcome: Outcome, reason: String? = nil) {
        self.outcome = outcome
        self.reason = reason
    }

    /// The text `auhost list` shows for a broken unit, nil when it works.
    public var brokenReason: String? {
        switch outcome {
        case .works: nil
        case .fails: reason ?? "fails"
        case .crashed: "crashed" + (reason.map { " (\($0))" } ?? "")
        }
    }
}

/// Probe verdicts on disk, keyed by plugin URI and valid while the plugin binary's path,
/// size and modification time are unchanged (`$XDG_CACHE_HOME/auhost/lv2-probe.json`, else
/// `~/.cache/auhost/lv2-probe.json`).
/// - Thread: control.
public struct LV2ProbeCache: Sendable {
    struct Entry: Codable, Equatable {
        var binaryPath: String
        var binarySize: Int64
        var binaryModified: Double
        var verdict: LV2ProbeVerdict
    }

    public let file: URL
    private(set) var entries: [String: Entry] = [:]

    /// The default cache file.
    public static var standardFile: URL {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".cache")
        return base.appendingPathComponent("auhost").appendingPathComponent("lv2-probe.json")
    }

    /// Reads the cache (an unreadable or missing file is an empty cache).
    public init(file: URL = LV2ProbeCache.standardFile) {
        self.file = file
        if let data = try? Data(contentsOf: file), let decoded = try? JSONDecoder().decode([String: Entry].self, from: data) {
            entries = decoded
        }
    }

    /// The verdict for a plugin whose binary is still the one probed, or nil.
    public func verdict(uri: String, binaryPath: String?) -> LV2ProbeVerdict? {
        guard let binaryPath, let entry = entries[uri], let key = Self.key(binaryPath), entry.binaryPath == binaryPath,
              entry.binarySize == key.size, entry.binaryModified == key.modified else { return nil }
        return entry.verdict
    }

    /// Records a verdict (call ``save()`` to write it).
    public mutating func record(_ verdict: LV2ProbeVerdict, uri: String, binaryPath: String?) {
        guard let binaryPath, let key = Self.key(binaryPath) else {
            entries[uri] = Entry(binaryPath: binaryPath ?? "", binarySize: -1, binaryModified: 0, verdict: verdict)
            return
        }
        entries[uri] = Entry(binaryPath: binaryPath, binarySize: key.size, binaryModified: key.modified, verdict: verdict)
    }

    /// Writes the cache atomically.
    public func save() throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(entries).write(to: file, options: .atomic)
    }

    private static func key(_ path: String) -> (size: Int64, modified: Double)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? NSNumber, let modified = attributes[.modificationDate] as? Date else { return nil }
        return (size.int64Value, modified.timeIntervalSince1970)
    }
}
