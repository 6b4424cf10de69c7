import AUCore
import Foundation

/// Probes plugins in child processes (`<executable> probe-unit URI…`), so that a plugin
/// that crashes or hangs never takes the host down, and caches the verdicts.
///
/// The child prints `auhost-probe begin URI` before each plugin and
/// `auhost-probe verdict URI works|fails|crashed [reason]` after it. When a child dies, the
/// plugin it had begun is recorded as crashed (with the signal) and a new child carries on
/// with the rest; a child silent for ``timeout`` seconds is killed and its plugin recorded
/// as hung.
/// - Thread: control.
public struct LV2ProbeRunner {
    public static let linePrefix = "auhost-probe"
    public var executable: URL
    public var timeout: TimeInterval = 30
    /// Extra environment for the children (LV2_PATH…).
    public var environment: [String: String] = [:]

    public init(executable: URL) { self.executable = executable }

    /// Probes the plugins with `uris` (those without a valid cached verdict unless
    /// `force`), records the verdicts in `cache` and saves it; returns every plugin's
    /// verdict by URI. `binaries` gives each plugin's binary path (``LV2Provider/binaryPaths()``).
    public func probe(_ uris: [String], binaries: [String: String], cache: inout LV2ProbeCache, force: Bool = false) -> [String: LV2ProbeVerdict] {
        var verdicts: [String: LV2ProbeVerdict] = [:]
        var pending: [String] = []
        for uri in uris {
            if !force, let cached = cache.verdict(uri: uri, binaryPath: binaries[uri]) {
                verdicts[uri] = cached
            } else {
                pending.append(uri)
            }
        }
        var remaining = pending
        while !remaining.isEmpty {
            let batch = runChild(remaining)
            for (uri, verdict) in batch.verdicts { verdicts[uri] = verdict }
            var next = remaining.filter { batch.verdicts[$0] == nil }
            if let begun = batch.unfinished {
                verdicts[begun] = LV2ProbeVerdict(outcome: .crashed, reason: batch.cause)
                next.removeAll { $0 == begun }
            } else if batch.verdicts.isEmpty {
                // The child died before it began anything: record the rest as failing.
                for uri in next { verdicts[uri] = LV2ProbeVerdict(outcome: .fails, reason: "the probe process failed: \(batch.cause)") }
                next = []
            }
            remaining = next
        }
        for uri in pending {
            if let verdict = verdicts[uri] { cache.record(verdict, uri: uri, binaryPath: binaries[uri]) }
        }
        try? cache.save()
        return verdicts
    }

    private struct Batch {
        var verdicts: [String: LV2ProbeVerdict] = [:]
        var unfinished: String?
        var cause = ""
    }

    private func runChild(_ uris: [String]) -> Batch {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["probe-unit"] + uris
        var childEnvironment = ProcessInfo.processInfo.environment
        for (key, value) in environment { childEnvironment[key] = value }
        process.environment = childEnvironment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let collected = LockedLines()
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil } else { collected.append(data) }
        }
        var batch = Batch()
        do {
            try process.run()
        } catch {
            batch.cause = "cannot run \(executable.path): \(error)"
            return batch
        }
        var lastProgress = Date()
        var lastCount = 0
        while process.isRunning {
            usleep(20_000)
            let count = collected.byteCount
            if count != lastCount { lastCount = count; lastProgress = Date() }
            if Date().timeIntervalSince(lastProgress) > timeout {
                process.terminate()
                usleep(200_000)
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                batch.cause = "hung: no progress for \(Int(timeout)) s"
                break
            }
        }
        process.waitUntilExit()
        pipe.fileHandleForReading.readabilityHandler = nil
        collected.append(pipe.fileHandleForReading.readDataToEndOfFile())
        var begun: String?
        for line in collected.lines() where line.hasPrefix(Self.linePrefix + " ") {
            let fields = line.dropFirst(Self.linePrefix.count + 1).split(separator: " ", maxSplits: 3).map(String.init)
            guard fields.count >= 2 else { continue }
            if fields[0] == "begin" {
                begun = fields[1]
            } else if fields[0] == "verdict", fields.count >= 3, let outcome = LV2ProbeVerdict.Outcome(rawValue: fields[2]) {
                batch.verdicts[fields[1]] = LV2ProbeVerdict(outcome: outcome, reason: fields.count > 3 ? fields[3] : nil)
                if begun == fields[1] { begun = nil }
            }
        }
        if batch.cause.isEmpty {
            if process.terminationReason == .uncaughtSignal {
                batch.cause = "signal \(process.terminationStatus)" + (Self.signalNames[process.terminationStatus].map { " (\($0))" } ?? "")
            } else {
                batch.cause = "exit status \(process.terminationStatus)"
            }
        }
        batch.unfinished = begun
        return batch
    }

    static let signalNames: [Int32: String] = [
        SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGILL: "SIGILL", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM",
    ]

    /// Prints one probe line on standard output and flushes it (the child's side).
    public static func report(_ words: String) {
        FileHandle.standardOutput.write(Data("\(linePrefix) \(words)\n".utf8))
    }
}

/// Bytes a child wrote, gathered from the pipe's reader thread.
private final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func append(_ more: Data) { lock.lock(); data.append(more); lock.unlock() }
    var byteCount: Int { lock.lock(); defer { lock.unlock() }; return data.count }
    func lines() -> [String] {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
