#if canImport(Glibc)
import Glibc
#endif

/// Why an ``AtomicFile`` could not be made, written or committed; each module words it for
/// its own errors. The `errno` cases carry the number the failing call set.
/// - Thread: [any] (a plain value).
public enum AtomicFileFailure: Error, Sendable, Equatable {
    /// The destination is empty or ends in `/`.
    case notAFileName
    /// The destination's folder does not exist (`exists`: something else is there).
    case folderMissing(String, exists: Bool)
    /// The destination is a folder.
    case destinationIsAFolder
    /// Something other than a regular file or a folder is at the destination (a device, a
    /// FIFO, a socket): a writer never replaces it, with or without overwriting.
    case notARegularFile(AtomicFile.NodeKind)
    /// The destination is one of the command's own inputs (the same file, however named).
    case destinationIsAnInput(String)
    /// A file is at the destination and overwriting was not asked for.
    case destinationExists
    /// A file appeared at the destination before the commit (overwriting was not asked for).
    case destinationAppeared
    /// `mkstemp` failed in the folder.
    case cannotCreateTemporary(String, errno: Int32)
    /// Writing the temporary file failed.
    case cannotWrite(errno: Int32)
    /// `fsync` of the temporary file failed.
    case cannotFlush(errno: Int32)
    /// `close` of the temporary file failed.
    case cannotClose(errno: Int32)
    /// The final `rename` or `link` failed.
    case cannotMoveIntoPlace(errno: Int32)

    /// The C library's text for the failure's `errno`, when it has one.
    /// - Thread: [any]
    public var systemReason: String? {
        switch self {
        case .cannotCreateTemporary(_, let number), .cannotWrite(let number), .cannotFlush(let number),
             .cannotClose(let number), .cannotMoveIntoPlace(let number):
            String(cString: strerror(number))
        default: nil
        }
    }
}
