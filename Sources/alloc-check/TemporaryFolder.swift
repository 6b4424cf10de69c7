import Foundation

/// alloc-check's folders under the system's temporary folder (`alloc-check-NAME-PID`), made
/// fresh and removed when the process exits (every way out of alloc-check is `exit`).
/// - Thread: [control]
enum TemporaryFolder {
    /// A fresh, empty folder `alloc-check-NAME-PID`.
    static func make(_ name: String) throws -> URL {
        let folder = path(name)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit {
            for name in TemporaryFolder.names { try? FileManager.default.removeItem(at: TemporaryFolder.path(name)) }
        }
        return folder
    }

    /// Every name ``make(_:)`` is used with.
    static let names = ["ir", "lv2"]

    static func path(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("alloc-check-\(name)-\(ProcessInfo.processInfo.processIdentifier)")
    }
}
