import AUCore
import Foundation

/// The errors of the file layer: every message starts with the file's path, then says what
/// is wrong and what was expected.
/// - Thread: [control]
extension AudioUnitError {
    static func file(_ path: String, _ code: AudioUnitErrorCode, _ text: String) -> AudioUnitError {
        AudioUnitError(code, "\(path): \(text)")
    }

    /// This error with its message prefixed by `path`, unless it already names it.
    func naming(_ path: String) -> AudioUnitError {
        message.hasPrefix("\(path): ") ? self : AudioUnitError(code, "\(path): \(message)", underlying: underlying)
    }

    /// The error for the C library call that set `errno`, with its text.
    static func system(_ path: String, _ code: AudioUnitErrorCode, _ text: String, errno number: Int32) -> AudioUnitError {
        AudioUnitError(code, "\(path): \(text): \(String(cString: strerror(number)))")
    }
}

/// What the file system says about a path before libsndfile sees it: a FIFO, a device or
/// a socket is never opened (reading one may never end).
/// - Thread: [control]
enum PathCheck {
    case missing, directory, notAFile(AtomicFile.NodeKind), unreadable, readable

    static func forReading(_ path: String) -> PathCheck {
        switch AtomicFile.NodeKind(path: path) {
        case .missing: return .missing
        case .folder: return .directory
        case .regularFile: return access(path, R_OK) == 0 ? .readable : .unreadable
        case let kind: return .notAFile(kind)
        }
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}
