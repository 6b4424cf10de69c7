import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The file this process appends what plugins print to (`--plugin-log`), by device and
/// inode: ``AtomicFile/NodeKind`` calls it ``AtomicFile/NodeKind/pluginLog``, so every check
/// of an input (a sound bank, an impulse response, a MIDI or audio file a preset names) or
/// an output refuses it, however the path is spelt.
/// - Thread: [any]
public enum PluginLogFile {
    private static let identity = Mutex<(device: UInt64, inode: UInt64)?>(nil)

    /// Records the file open at `descriptor` as the plugin log; false when it cannot be read.
    /// - Thread: [control]
    @discardableResult
    public static func register(descriptor: Int32) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        identity.withLock { $0 = (UInt64(status.st_dev), UInt64(status.st_ino)) }
        return true
    }

    /// Whether the file of `device` and `inode` is the plugin log.
    /// - Thread: [any]
    public static func isLog(device: UInt64, inode: UInt64) -> Bool {
        identity.withLock { $0.map { $0.device == device && $0.inode == inode } ?? false }
    }
}
