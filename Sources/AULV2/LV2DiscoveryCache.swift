import AUCore
import Foundation

/// What LV2 discovery read last time, kept on disk so that the next start does not parse
/// every plugin's Turtle again (about 80 ms for 279 plugins, most of `auhost render`'s
/// start-up; docs/BENCHMARKS.md), nor even every bundle's manifest (a start that finds the
/// cache valid loads only the bundles of the units it makes). Valid while nothing it was
/// read from changed: the entry holds the folders that hold the plugins' bundles and the
/// LV2 path's folders (so the LV2 core bundle with the class hierarchy is included), and a
/// fingerprint of the size and modification time of each of them and of every bundle
/// folder, Turtle file and shared library in them; any difference, a new or a removed
/// file, makes discovery read again.
///
/// One file per LV2 path, written atomically; an unreadable file is a miss.
/// - Thread: [control]
struct LV2DiscoveryCache {
    /// A file's size and modification time.
    struct Stamp {
        var size: Int64
        var modified: Double
    }

    /// One discovery: its fingerprint, the plugins read and the problems found.
    struct Entry {
        var version: Int
        /// ``fingerprint(of:)`` of the stamps it was read with (a hash, not the 700-odd
        /// stamps themselves: reading those cost as much as the rest of the entry).
        var fingerprint: String
        /// The folders the fingerprint covers (``folders(of:lv2Path:)``).
        var folders: [String]
        var plugins: [Plugin]
        var problems: [Problem]
    }

    /// A plugin's description, its component codes (``LV2ComponentCodes``, which cost as
    /// much to assign as the rest of a start from the cache) and a cached probe's verdict.
    struct Plugin {
        var info: LV2PluginInfo
        var manufacturer: FourCharCode
        var subtype: FourCharCode
        var brokenReason: String?
    }

    struct Problem {
        var location: String
        var message: String
    }

    /// 4: a plugin's problem names its bundle folder and the Turtle file, line and column.
    /// 5: the folders, and the manifests' problems among the problems (a valid cache loads
    /// no manifest).
    /// 6: lines of tab-separated fields, not JSON (decoding the JSON was a fifth of `auhost
    /// list`); the component codes.
    static let version = 6
    let file: URL

    /// The file's text: a line per field group, `V` version, `F` fingerprint, `D` a folder,
    /// `P` a plugin's 15 fields, `E` a problem's location and message; tabs, newlines and
    /// backslashes in a field escaped (`\t`, `\n`, `\\`).
    static func text(of entry: Entry) -> String {
        var lines = ["V\t\(entry.version)", "F\t" + escape(entry.fingerprint)]
        lines += entry.folders.map { "D\t" + escape($0) }
        for plugin in entry.plugins {
            let info = plugin.info
            let fields = [
                info.uri, info.name, info.maker, info.version, info.classURI, info.classLabel, String(info.type.rawValue),
                info.requiredFeatures.joined(separator: " "), info.optionalFeatures.joined(separator: " "),
                info.binaryPath ?? "", info.bundlePath ?? "", info.isHardRealTimeCapable ? "1" : "0",
                String(plugin.manufacturer.rawValue), String(plugin.subtype.rawValue), plugin.brokenReason ?? "",
            ]
            lines.append((["P"] + fields.map(escape)).joined(separator: "\t"))
        }
        lines += entry.problems.map { "E\t" + escape($0.location) + "\t" + escape($0.message) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The entry `bytes` (the file's UTF-8 text) hold, or nil when it is not one of this
    /// version. Split by bytes, not `Character`s (grapheme breaking cost more than JSON).
    static func entry(bytes: [UInt8]) -> Entry? {
        var entry = Entry(version: 0, fingerprint: "", folders: [], plugins: [], problems: [])
        for line in bytes.split(separator: 0x0A) {
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false).map { field -> String in
                let text = String(decoding: field, as: UTF8.self)
                return field.contains(0x5C) ? unescape(text) : text
            }
            switch (fields[0], fields.count) {
            case ("V", 2): entry.version = Int(fields[1]) ?? 0
            case ("F", 2): entry.fingerprint = fields[1]
            case ("D", 2): entry.folders.append(fields[1])
            case ("E", 3): entry.problems.append(Problem(location: fields[1], message: fields[2]))
            case ("P", 16):
                let row = Array(fields.dropFirst())
                func optional(_ text: String) -> String? { text.isEmpty ? nil : text }
                func list(_ text: String) -> [String] { text.split(separator: " ").map(String.init) }
                guard let type = UInt32(row[6]), let manufacturer = UInt32(row[12]), let subtype = UInt32(row[13]) else { return nil }
                let info = LV2PluginInfo(
                    uri: row[0], name: row[1], maker: row[2], version: row[3], classURI: row[4], classLabel: row[5],
                    type: FourCharCode(rawValue: type), requiredFeatures: list(row[7]), optionalFeatures: list(row[8]),
                    binaryPath: optional(row[9]), bundlePath: optional(row[10]), isHardRealTimeCapable: row[11] == "1")
                entry.plugins.append(Plugin(
                    info: info, manufacturer: FourCharCode(rawValue: manufacturer), subtype: FourCharCode(rawValue: subtype), brokenReason: optional(row[14])))
            default: return nil
            }
        }
        return entry.version == version && !entry.fingerprint.isEmpty ? entry : nil
    }

    private static func escape(_ field: String) -> String {
        guard field.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\\" }) else { return field }
        return field.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    private static func unescape(_ field: String) -> String {
        var result = ""
        var escaped = false
        for character in field {
            if escaped {
                result.append(character == "t" ? "\t" : character == "n" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The cache file for an LV2 path (nil: the default path) under `directory`.
    static func file(in directory: URL, lv2Path: String?) -> URL {
        let key = lv2Path ?? ProcessInfo.processInfo.environment["LV2_PATH"] ?? "default"
        var hash = FNV1a()
        hash.mix(key.utf8)
        return directory.appendingPathComponent("lv2-discovery-\(hash.text).tsv")
    }

    /// The cached discovery of this version, valid or not (compare its fingerprint); nil
    /// when there is none or it does not read.
    func entry() -> Entry? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return Self.entry(bytes: [UInt8](data))
    }

    /// A 64-bit FNV-1a hash over the stamps in path order, with their count.
    static func fingerprint(of stamps: [String: Stamp]) -> String {
        var hash = FNV1a()
        for path in stamps.keys.sorted() {
            let stamp = stamps[path]!
            hash.mix(path.utf8)
            withUnsafeBytes(of: stamp.size) { hash.mix($0) }
            withUnsafeBytes(of: stamp.modified) { hash.mix($0) }
        }
        return "\(stamps.count)-\(hash.text)"
    }

    /// The 64-bit FNV-1a hash, for cache file names and fingerprints.
    private struct FNV1a {
        private var value: UInt64 = 0xcbf2_9ce4_8422_2325
        mutating func mix(_ bytes: some Sequence<UInt8>) {
            for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        var text: String { String(value, radix: 16) }
    }

    /// Writes a discovery (atomically; a failure only costs the next start the full read).
    func store(_ entry: Entry) {
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(Self.text(of: entry).utf8).write(to: file, options: .atomic)
    }

    /// The folders discovery reads bundles from: those that hold the world's plugins'
    /// bundles, and the folders of the LV2 path (`lv2Path`, else `LV2_PATH`, else lilv's
    /// default), so that a bundle put into a folder that held none is seen.
    /// - Thread: [control] It asks lilv for bundle paths only, which
    ///   the manifests gave (asking for a binary would make lilv parse the plugin's data).
    static func folders(of world: LV2World, lv2Path: String?) -> [String] {
        var folders = Set(pathFolders(lv2Path))
        for plugin in world.plugins {
            if let bundle = plugin.bundlePath {
                folders.insert(URL(fileURLWithPath: bundle).standardizedFileURL.deletingLastPathComponent().path)
            }
        }
        return folders.sorted()
    }

    /// lilv's default LV2 path as Debian builds it.
    static var lilvDefaultPath: String {
        #if arch(x86_64)
        "~/.lv2:/usr/lib/x86_64-linux-gnu/lv2:/usr/lib/lv2:/usr/local/lib/lv2"
        #elseif arch(arm64)
        "~/.lv2:/usr/lib/aarch64-linux-gnu/lv2:/usr/lib/lv2:/usr/local/lib/lv2"
        #else
        "~/.lv2:/usr/lib/lv2:/usr/local/lib/lv2"
        #endif
    }

    /// The folders of an LV2 path, `~` expanded.
    static func pathFolders(_ lv2Path: String?) -> [String] {
        let path = lv2Path ?? ProcessInfo.processInfo.environment["LV2_PATH"] ?? lilvDefaultPath
        let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
        return path.split(separator: ":").map { $0.hasPrefix("~/") ? home + $0.dropFirst() : String($0) }
    }

    /// The stamps of what discovery reads: each of `folders` itself, every bundle folder,
    /// `.ttl` and `.so` file in them, and `files` (the probe cache).
    static func stamps(of folders: [String], also files: [String] = []) -> [String: Stamp] {
        var stamps: [String: Stamp] = [:]
        for file in files { stamps[file] = stamp(file) }
        for folder in folders {
            stamps[folder] = stamp(folder)
            forEachEntry(in: folder) { bundlePath, _ in
                stamps[bundlePath] = stamp(bundlePath)
                addFiles(under: bundlePath, to: &stamps)
            }
        }
        return stamps
    }

    /// Stamps every `.ttl` and `.so` file under `folder`, recursively.
    private static func addFiles(under folder: String, to stamps: inout [String: Stamp]) {
        forEachEntry(in: folder) { path, isFolder in
            if isFolder {
                addFiles(under: path, to: &stamps)
            } else if path.hasSuffix(".ttl") || path.hasSuffix(".so") {
                stamps[path] = stamp(path)
            }
        }
    }

    /// Calls `body` with the path of each entry of `folder` and whether it is a folder
    /// (symbolic links followed). readdir, not FileManager: the enumerator cost more than
    /// the cache saved.
    private static func forEachEntry(in folder: String, _ body: (String, Bool) -> Void) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            let path = folder + "/" + name
            var isFolder = Int32(entry.pointee.d_type) == DT_DIR
            if Int32(entry.pointee.d_type) == DT_LNK || Int32(entry.pointee.d_type) == DT_UNKNOWN {
                var info = stat()
                isFolder = stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            }
            body(path, isFolder)
        }
    }

    private static func stamp(_ path: String) -> Stamp {
        var info = stat()
        guard stat(path, &info) == 0 else { return Stamp(size: -1, modified: 0) }
        return Stamp(size: Int64(info.st_size), modified: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }
}
