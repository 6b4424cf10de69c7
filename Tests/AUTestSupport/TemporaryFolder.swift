import Foundation

/// A fresh folder of its own under the system's temporary folder, for one test (tests run
/// in parallel), deleted with all it holds by ``remove()``:
/// `let folder = try TemporaryFolder()` then `defer { folder.remove() }`.
/// - Thread: [any]
public struct TemporaryFolder: Sendable {
    /// The folder's absolute path, without a trailing slash.
    /// - Thread: [any]
    public let path: String

    /// The folder as a file URL.
    /// - Thread: [any]
    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// Creates `<temporary folder>/<prefix>-<UUID>` (the prefix names the folder for
    /// whoever finds one left behind); throws when it cannot be created.
    /// - Thread: [any]
    public init(prefix: String = "auhost-test") throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The path of `name` in the folder (`name` may hold slashes: `"out/a.wav"`); nothing is created.
    /// - Thread: [any]
    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Writes `text` as UTF-8 to `name` in the folder and returns the file's path.
    /// - Thread: [any]
    public func write(_ name: String, _ text: String) throws -> String {
        let file = file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Writes a preset file (JSON text) to `name` in the folder and returns its path: ``write(_:_:)``
    /// under the name the render tests read best.
    /// - Thread: [any]
    public func preset(_ name: String, _ json: String) throws -> String {
        try write(name, json)
    }

    /// Every name in the folder, or in its subfolder `sub`, hidden ones (temporary outputs)
    /// included, sorted; empty when the folder cannot be read (or does not exist).
    /// - Thread: [any]
    public func contents(_ sub: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: sub.isEmpty ? path : file(sub))) ?? []).sorted()
    }

    /// Deletes the folder and everything in it; nothing happens when it is already gone.
    /// - Thread: [any]
    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
