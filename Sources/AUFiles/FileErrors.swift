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

    /// The error for an output file at `path` that could not be made or moved into place.
    /// - Thread: [any]
    public static func output(_ path: String, _ failure: AtomicFileFailure) -> AudioUnitError {
        let text: String
        var code = AudioUnitErrorCode.invalidFilePath
        switch failure {
        case .notAFileName: text = "is not a file name; expected a path such as out/take.wav"
        case .folderMissing(let folder, let exists):
            text = "output folder '\(folder)' \(exists ? "is not a folder" : "does not exist"); expected an existing folder"
        case .destinationIsAFolder: text = "is a folder; expected a file name to write"
        case .notARegularFile(let kind): text = "is \(kind), not a file; expected a file name to write (it is never replaced)"
        case .destinationIsAnInput(let input): text = "is the input '\(input)'; expected an output that is none of the inputs"
        case .destinationExists: text = "already exists; pass overwrite (--force) to replace it"
        case .destinationAppeared: text = "appeared while rendering and was kept; pass overwrite (--force) to replace it"
        case .cannotCreateTemporary(let folder, _): text = "cannot create a temporary file in '\(folder)'"
        case .cannotWrite:
            code = .invalidFile
            text = "cannot write the output"
        case .cannotFlush:
            code = .invalidFile
            text = "cannot flush the output to disk"
        case .cannotClose:
            code = .invalidFile
            text = "cannot close the output"
        case .cannotMoveIntoPlace:
            code = .invalidFile
            text = "cannot rename the finished output into place"
        }
        return AudioUnitError(code, "\(path): \(text)" + (failure.systemReason.map { ": " + $0 } ?? ""))
    }
}

/// What the file system says about a path before libsndfile sees it.
/// - Thread: [control]
enum PathCheck {
    case missing, directory, unreadable, readable

    static func forReading(_ path: String) -> PathCheck {
        var status = stat()
        guard stat(path, &status) == 0 else { return .missing }
        if (status.st_mode & S_IFMT) == S_IFDIR { return .directory }
        return access(path, R_OK) == 0 ? .readable : .unreadable
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
