import CAUSupport
import Glibc

/// The probe child's private channel to its parent (the child side of ``ProbeProcess``).
///
/// The parent reads the child's standard output. `auhost` claims that pipe for the command
/// before any plugin code runs (AUHostCLI's `TextOutput.standardOutput()` moves it to a
/// descriptor of its own, close-on-exec, and points descriptor 1 at standard error), and
/// the probe commands write their lines on it through this channel. Whatever a plugin
/// prints — `printf`, `write(1, …)` or a forged `auhost-probe verdict` line — goes to
/// standard error (which the parent discards) and never reaches the parent's reader.
/// - Thread: [control] (the probe child's main thread).
public struct ProbeChannel: Sendable {
    /// The first word of every line on the channel.
    public static let linePrefix = "auhost-probe"

    private let descriptor: Int32

    /// The environment variable through which ``ProbeProcess`` tells its child the parent's
    /// process ID.
    public static let parentVariable = "AUHOST_PROBE_PARENT"

    /// The channel on `descriptor`: the claimed standard output of the probe child. A child
    /// of ``ProbeProcess`` (which leads its own process group, out of reach of the
    /// terminal's ^C) is killed when its parent dies, so a parent interrupted while a
    /// plugin hangs leaves no probe behind; it exits at once if the parent is already gone.
    /// - Thread: [control]
    public init(descriptor: Int32) {
        self.descriptor = descriptor
        if let parent = getenv(Self.parentVariable).flatMap({ pid_t(String(cString: $0)) }), au_bridge_die_with_parent(parent) != 0 { exit(1) }
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
