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

    /// What went wrong and what was expected, without the path: `already exists; pass
    /// overwrite (--force) to replace it`, with the C library's text where there is one.
    /// - Thread: [any]
    public var explanation: String {
        let text: String
        switch self {
        case .notAFileName: text = "is not a file name; expected a path such as out/take.wav"
        case .folderMissing(let folder, let exists):
            text = "output folder '\(folder)' \(exists ? "is not a folder" : "does not exist"); expected an existing folder"
        case .destinationIsAFolder: text = "is a folder; expected a file name to write"
        case .notARegularFile(let kind): text = "is \(kind), not a file; expected a file name to write (it is never replaced)"
        case .destinationIsAnInput(let input): text = "is the input '\(input)'; expected an output that is none of the inputs"
        case .destinationExists: text = "already exists; pass overwrite (--force) to replace it"
        case .destinationAppeared: text = "appeared while rendering and was kept; pass overwrite (--force) to replace it"
        case .cannotCreateTemporary(let folder, _): text = "cannot create a temporary file in '\(folder)'"
        case .cannotWrite: text = "cannot write the output"
        case .cannotFlush: text = "cannot flush the output to disk"
        case .cannotClose: text = "cannot close the output"
        case .cannotMoveIntoPlace: text = "cannot rename the finished output into place"
        }
        return text + (systemReason.map { ": " + $0 } ?? "")
    }
}

extension AudioUnitError {
    /// The error for an output file at `path` that could not be made or moved into place:
    /// InvalidFilePath for the destination's own faults, InvalidFile for failed writes.
    /// - Thread: [any]
    public static func output(_ path: String, _ failure: AtomicFileFailure) -> AudioUnitError {
        let code: AudioUnitErrorCode
        switch failure {
        case .cannotWrite, .cannotFlush, .cannotClose, .cannotMoveIntoPlace: code = .invalidFile
        default: code = .invalidFilePath
        }
        return AudioUnitError(code, "\(path): \(failure.explanation)")
    }
}
