import AUHost
import Foundation
import Glibc

/// A line-oriented text sink: standard output, standard error, or a string (tests).
///
/// Writes go through write(2): a closed pipe (`auhost render … | head -1`, with SIGPIPE
/// ignored) is a failure the sink remembers in ``failure`` and stops writing on, never a
/// trap, so a command goes on with its real work and decides what the lost output means.
/// - Thread: [control] (one writer at a time)
public final class TextOutput: @unchecked Sendable {
    private let descriptor: Int32?
    /// Whether this sink claimed standard output (``standardOutput()``): descriptor 1 is then
    /// where plugins print, and ``sendPluginOutput(toFile:)`` may point it elsewhere.
    private let claimedStandardOutput: Bool
    /// - Thread: [control]
    public private(set) var captured = ""
    /// Why the last write failed (`Broken pipe`), if one did; nothing is written after it.
    /// - Thread: [control]
    public private(set) var failure: String?

    /// Writes to a file descriptor.
    /// - Thread: [control]
    public convenience init(descriptor: Int32) { self.init(descriptor, claimedStandardOutput: false) }
    /// Keeps what is written in ``captured``.
    /// - Thread: [control]
    public convenience init() { self.init(nil, claimedStandardOutput: false) }

    private init(_ descriptor: Int32?, claimedStandardOutput: Bool) {
        self.descriptor = descriptor
        self.claimedStandardOutput = claimedStandardOutput
    }

    /// Standard output, claimed for the command's own lines: the open file moves to a
    /// descriptor of its own (close-on-exec) and descriptor 1 then points at standard error,
    /// so that whatever plugins and libraries print there (`printf`, `write(1, …)`: Guitarix's
    /// "using block size") goes to standard error and never mixes into the command's output
    /// (`auhost graph P --dot | dot -Tsvg`, render's result lines, a probe's verdicts).
    /// Call it once, before any plugin is loaded.
    /// - Thread: [control]
    public static func standardOutput() -> TextOutput {
        let claimed = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        guard claimed >= 0 else { return TextOutput(descriptor: STDOUT_FILENO) }
        dup2(STDERR_FILENO, STDOUT_FILENO)
        return TextOutput(claimed, claimedStandardOutput: true)
    }

    /// Sends what plugins print to standard output to the file at `path` (`--plugin-log`)
    /// instead of standard error: the file is opened for appending (created when missing)
    /// and descriptor 1 points at it. A sink that did not claim standard output (a test's
    /// string) leaves descriptor 1 alone; the file is still opened, so that a path that
    /// cannot be opened is the same one error naming it. The log is never what the command
    /// reads or writes: a FIFO, a device, a socket or a folder is refused without being
    /// opened, and so is any file that another of the command's `arguments` names (an input,
    /// the preset, an output, however spelt). Returns whether this call created the file.
    /// - Thread: [control]
    public func sendPluginOutput(toFile path: String, arguments: [String]) throws(CLIError) -> Bool {
        guard !path.isEmpty else { throw CLIError("--plugin-log: needs a file name; expected a file to append to") }
        switch AtomicFile.NodeKind(path: path) {
        case .missing, .regularFile: break
        case let kind: throw CLIError("--plugin-log: '\(path)' is \(kind), not a file; expected a regular file to append to")
        }
        if let argument = arguments.first(where: { Self.nameSameFile($0, path) }) {
            throw CLIError("--plugin-log: '\(path)' is also the command's argument '\(argument)'; expected a log that the command neither reads nor writes")
        }
        var created = true
        var log = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0o666)
        if log < 0, errno == EEXIST {
            created = false
            log = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NONBLOCK)
        }
        guard log >= 0 else {
            throw CLIError("--plugin-log: cannot open '\(path)' for appending: \(String(cString: strerror(errno)))")
        }
        defer { close(log) }
        var status = stat()
        guard fstat(log, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw CLIError("--plugin-log: '\(path)' is not a regular file; expected a regular file to append to")
        }
        // From now on every input and output check refuses the log (a sound bank, an
        // impulse response a preset names), however its path is spelt.
        PluginLogFile.register(descriptor: log)
        if claimedStandardOutput { dup2(log, STDOUT_FILENO) }
        return created
    }

    /// Whether `argument` (or the value of `--option=argument`) names the file at `path`:
    /// the same path once standardized, or the same device and inode.
    private static func nameSameFile(_ argument: String, _ path: String) -> Bool {
        let value = argument.hasPrefix("-") ? argument.split(separator: "=", maxSplits: 1).dropFirst().first.map(String.init) : argument
        guard let value, !value.isEmpty else { return false }
        if URL(fileURLWithPath: value).standardizedFileURL.path == URL(fileURLWithPath: path).standardizedFileURL.path { return true }
        var one = stat(), other = stat()
        return stat(value, &one) == 0 && stat(path, &other) == 0 && one.st_dev == other.st_dev && one.st_ino == other.st_ino
    }

    /// The descriptor written to; nil for a sink that captures.
    /// - Thread: [control]
    public var fileDescriptor: Int32? { descriptor }
    /// - Thread: [control]
    public static func standardError() -> TextOutput { TextOutput(descriptor: STDERR_FILENO) }

    /// True when the output is a terminal (for progress and colour).
    /// - Thread: [control]
    public var isTerminal: Bool { descriptor.map { isatty($0) != 0 } ?? false }

    /// - Thread: [control]
    public func write(_ text: String) {
        guard let descriptor else {
            captured += text
            return
        }
        guard failure == nil else { return }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                failure = String(cString: strerror(errno))
                return
            }
            written += count
        }
    }

    /// - Thread: [control]
    public func line(_ text: String = "") { write(text + "\n") }
}
