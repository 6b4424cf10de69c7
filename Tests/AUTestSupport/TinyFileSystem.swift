import Foundation

/// A tiny tmpfs mounted in a folder of its own, for full-disk tests (mounting needs root,
/// as in the CI container; ``isAvailable`` is false elsewhere).
public struct TinyFileSystem {
    public let path: String

    public static let isAvailable: Bool = {
        guard geteuid() == 0, let probe = TinyFileSystem(kibibytes: 4) else { return false }
        probe.unmount()
        return true
    }()

    public init?(kibibytes: Int) {
        var template = Array("\(NSTemporaryDirectory())/auhost-tmpfs-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { return nil }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kibibytes)k", "tmpfs", path]) else {
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
    }

    public func unmount() {
        _ = Self.run("/bin/umount", [path])
        try? FileManager.default.removeItem(atPath: path)
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? ChildProcess.launch(process)) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
