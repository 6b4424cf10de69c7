import Glibc

/// The probe child's private channel to its parent (the child side of ``ProbeProcess``).
///
/// The parent reads the child's standard output; before the child runs any plugin code it
/// calls ``claimStandardOutput()``, which moves that pipe to a descriptor of its own (close-on-exec)
/// and points descriptor 1 at standard error. From then on whatever a plugin prints —
/// `printf`, `write(1, …)` or a forged `auhost-probe verdict` line — goes to standard error
/// (which the parent discards) and never reaches the parent's reader; only this channel does.
/// - Thread: [control] (the probe child's main thread).
public struct ProbeChannel: Sendable {
    /// The first word of every line on the channel.
    public static let linePrefix = "auhost-probe"

    private let descriptor: Int32

    /// Takes the pipe on standard output for this channel and redirects standard output to
    /// standard error. Call it before loading any plugin.
    /// - Thread: [control]
    public static func claimStandardOutput() -> ProbeChannel {
        let descriptor = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        dup2(STDERR_FILENO, STDOUT_FILENO)
        return ProbeChannel(descriptor: descriptor)
    }

    /// Says the child is about to probe the item at `index` of its arguments.
    /// - Thread: [control]
    public func begin(_ index: Int) { write("begin \(index)") }

    /// The verdict on the item at `index`: one line of words, newlines flattened.
    /// - Thread: [control]
    public func verdict(_ index: Int, _ words: String) {
        write("verdict \(index) " + words.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " "))
    }

    private func write(_ line: String) {
        let bytes = Array("\(Self.linePrefix) \(line)\n".utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
