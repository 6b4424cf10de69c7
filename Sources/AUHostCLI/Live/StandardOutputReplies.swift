import Glibc

/// Writes `auhost run`'s replies to commands on standard input to standard output with
/// write(2), so that a closed output (`auhost run … | head -1`) is a failure the runner
/// reports and stops on rather than a trap: `FileHandle.write` traps on EPIPE, and the tool
/// ignores SIGPIPE.
/// - Thread: [control] (the standard input thread of `auhost run`).
enum StandardOutputReplies {
    /// Writes `reply` and a newline; returns the system's reason when standard output is
    /// closed or the write fails, else nil.
    static func write(_ reply: String) -> String? {
        let bytes = Array((reply + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return String(cString: strerror(errno)) }
            written += count
        }
        return nil
    }
}
