#if canImport(Glibc)
import Glibc
#endif

extension AtomicFile {
    /// What a path names in the file system, following symbolic links: what a writer may
    /// replace (a regular file) against what it must not (a device, a FIFO, a socket, a
    /// folder), and what a reader can tell the user it found instead of a file.
    /// - Thread: [any] (a plain value).
    public enum NodeKind: Sendable, Equatable, CustomStringConvertible {
        case missing, regularFile, folder, characterDevice, blockDevice, fifo, socket
        /// The regular file this process appends plugins' output to (`--plugin-log`): never
        /// read as an input, never replaced as an output.
        case pluginLog

        /// What is at `path` now (`missing` when `stat` fails).
        /// - Thread: [any]
        public init(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else {
                self = .missing
                return
            }
            self = switch status.st_mode & S_IFMT {
            case S_IFREG: PluginLogFile.isLog(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)) ? .pluginLog : .regularFile
            case S_IFDIR: .folder
            case S_IFCHR: .characterDevice
            case S_IFBLK: .blockDevice
            case S_IFIFO: .fifo
            default: .socket
            }
        }

        /// `a character device`, `a FIFO`…, for "is …, not a file" messages.
        /// - Thread: [any]
        public var description: String {
            switch self {
            case .missing: "nothing"
            case .regularFile: "a regular file"
            case .folder: "a folder"
            case .characterDevice: "a character device"
            case .blockDevice: "a block device"
            case .fifo: "a FIFO"
            case .socket: "a socket"
            case .pluginLog: "the command's plugin log (--plugin-log)"
            }
        }
    }
}
