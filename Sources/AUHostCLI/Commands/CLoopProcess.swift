import AUHost
import Foundation

/// The C loop over the reference chain in a process of its own: `lv2-chain-bench --serve`,
/// built beside `auhost` (by the same `swift build`). `auhost bench graph` times it run by run,
/// alternating with the graph, and links no benchmark code. While one side runs, the other
/// waits on a pipe. The process ends at ``close()`` or when this object goes, and with
/// `auhost` (it stops at the end of its input).
/// - Thread: [control]
final class CLoopProcess {
    private let process = Process()
    private let commands = Pipe()
    private let replies = Pipe()
    private let errors = Pipe()
    /// Why a run gave no time, when one did not.
    private var failure: String?

    /// Starts the C loop over cycles of `frames` frames and waits until its plugins are ready.
    /// - Thread: [control]
    init(frames: Int) throws(AudioUnitError) {
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let executable = folder.appendingPathComponent("lv2-chain-bench")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw AudioUnitError(.failedInitialization, "the C loop: no lv2-chain-bench in \(folder.path) (swift build builds it beside auhost)")
        }
        process.executableURL = executable
        process.arguments = ["--serve", String(frames)]
        process.standardInput = commands
        process.standardOutput = replies
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw AudioUnitError(.failedInitialization, "the C loop: \(executable.path) did not start: \(error)")
        }
        guard readReply() == "ready" else { throw AudioUnitError(.failedInitialization, "the C loop: " + errorText()) }
    }

    deinit { end() }

    /// ns per cycle of `cycles` cycles timed by the C loop; NaN when it failed (``close()`` says why).
    /// - Thread: [control]
    func time(cycles: Int) -> Double {
        guard failure == nil else { return .nan }
        let command = Array("\(cycles)\n".utf8)
        let written = command.withUnsafeBytes { write(commands.fileHandleForWriting.fileDescriptor, $0.baseAddress, $0.count) }
        guard written == command.count, let reply = readReply(), let nanoseconds = Double(reply) else {
            failure = "lv2-chain-bench stopped answering: " + errorText()
            return .nan
        }
        return nanoseconds
    }

    /// Ends the process; throws when a run failed or the process did not end cleanly.
    /// - Thread: [control]
    func close() throws(AudioUnitError) {
        end()
        if let failure { throw AudioUnitError(.failedInitialization, "the C loop: " + failure) }
        guard process.terminationStatus == 0 else {
            throw AudioUnitError(.failedInitialization, "the C loop: lv2-chain-bench ended with status \(process.terminationStatus): " + errorText())
        }
    }

    /// Closes the process's input (it stops at the end of its input) and waits for it.
    private func end() {
        guard process.isRunning else { return }
        try? commands.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// One line from the process, without its newline; nil at the end of its output.
    private func readReply() -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(replies.fileHandleForReading.fileDescriptor, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return nil
    }

    /// What the process wrote on standard error once it ended, or what is known without it.
    private func errorText() -> String {
        end()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "lv2-chain-bench ended with status \(process.terminationStatus)" : text
    }
}
