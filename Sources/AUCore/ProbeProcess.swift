import Foundation

/// Runs a probe in child processes, `<executable> <arguments…> item…`, so that code which
/// crashes, aborts or hangs takes only a child down: the LV2 probe (`auhost probe-unit`)
/// and the native library probe (`auhost probe-library`) both use it.
///
/// The child reports on its ``ProbeChannel`` — `auhost-probe begin INDEX` before each item
/// and `auhost-probe verdict INDEX WORDS…` after it, INDEX counting the child's items from
/// 0 — and nothing else it writes is read. When a child dies, the item it had begun is
/// recorded as crashed (with the signal) and a new child carries on with the rest; a child
/// silent for ``timeout`` seconds is killed and its item recorded as crashed (timed out).
/// - Thread: [control]
public struct ProbeProcess: Sendable {
    /// What became of one item.
    /// - Thread: [control]
    public enum Outcome: Sendable, Equatable {
        /// The child's verdict words.
        case reported(String)
        /// The child died while on this item, or was killed after ``ProbeProcess/timeout``
        /// seconds of silence: why (`died of signal 6 (SIGABRT)`, `timed out after 10 s`).
        case crashed(String)
        /// The child died before it began anything (it could not run, or failed on start-up): why.
        case notRun(String)
    }

    /// The child's executable (an `auhost`).
    public var executable: URL
    /// The arguments before the items (the subcommand).
    public var arguments: [String]
    /// Seconds a child may stay silent on its channel before it is killed.
    public var timeout: TimeInterval
    /// Extra environment for the children (LV2_PATH…).
    public var environment: [String: String] = [:]

    /// Children of `executable` run with `arguments` before the items, killed after `timeout` seconds of silence.
    /// - Thread: [control]
    public init(executable: URL, arguments: [String], timeout: TimeInterval) {
        self.executable = executable
        self.arguments = arguments
        self.timeout = timeout
    }

    /// Probes every item, in as many children as crashes require; every item gets an outcome.
    /// - Thread: [control]
    public func run(_ items: [String]) -> [String: Outcome] {
        var outcomes: [String: Outcome] = [:]
        var remaining = items
        while !remaining.isEmpty {
            let batch = runChild(remaining)
            for (index, words) in batch.verdicts { outcomes[remaining[index]] = .reported(words) }
            if let begun = batch.unfinished {
                outcomes[remaining[begun]] = .crashed(batch.cause)
            } else if batch.verdicts.isEmpty {
                for item in remaining { outcomes[item] = .notRun(batch.cause) }
            }
            remaining = remaining.filter { outcomes[$0] == nil }
        }
        return outcomes
    }

    /// The verdict on each item: from `cache` while the item's binary (`binaries[item]`) is
    /// unchanged, unless `force`, else from children; the new verdicts are recorded in
    /// `cache` (but for those of a child that could not run, which say nothing of the item)
    /// and the cache is saved.
    /// - Thread: [control]
    public func verdicts(_ items: [String], binaries: [String: String], cache: inout ProbeCache, force: Bool = false) -> [String: ProbeVerdict] {
        var verdicts: [String: ProbeVerdict] = [:]
        var pending: [String] = []
        for item in items {
            if !force, let cached = cache.verdict(for: item, binaryPath: binaries[item]) { verdicts[item] = cached } else { pending.append(item) }
        }
        guard !pending.isEmpty else { return verdicts }
        for (item, outcome) in run(pending) {
            let verdict = ProbeVerdict(outcome)
            verdicts[item] = verdict
            if case .notRun = outcome { continue }
            cache.record(verdict, for: item, binaryPath: binaries[item])
        }
        try? cache.save()
        return verdicts
    }

    private struct Batch {
        var verdicts: [Int: String] = [:]
        var unfinished: Int?
        var cause = ""
    }

    private func runChild(_ items: [String]) -> Batch {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments + items
        var childEnvironment = ProcessInfo.processInfo.environment
        for (key, value) in environment { childEnvironment[key] = value }
        process.environment = childEnvironment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let collected = CollectedBytes()
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
                kill(process.processIdentifier, SIGKILL)
                batch.cause = "timed out after \(Self.seconds(timeout)) s"
                break
            }
        }
        process.waitUntilExit()
        pipe.fileHandleForReading.readabilityHandler = nil
        collected.append(pipe.fileHandleForReading.readDataToEndOfFile())
        for line in collected.lines() where line.hasPrefix(ProbeChannel.linePrefix + " ") {
            let fields = line.dropFirst(ProbeChannel.linePrefix.count + 1).split(separator: " ", maxSplits: 2).map(String.init)
            guard fields.count >= 2, let index = Int(fields[1]), items.indices.contains(index) else { continue }
            if fields[0] == "begin" {
                batch.unfinished = index
            } else if fields[0] == "verdict" {
                batch.verdicts[index] = fields.count > 2 ? fields[2] : ""
                if batch.unfinished == index { batch.unfinished = nil }
            }
        }
        if batch.cause.isEmpty {
            if process.terminationReason == .uncaughtSignal {
                batch.cause = "died of signal \(process.terminationStatus)" + (Self.signalNames[process.terminationStatus].map { " (\($0))" } ?? "")
            } else {
                batch.cause = "exited with status \(process.terminationStatus)"
            }
        }
        return batch
    }

    private static let signalNames: [Int32: String] = [
        SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGILL: "SIGILL", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM",
    ]

    /// `10`, `0.5`: seconds as a message shows them.
    /// - Thread: [control]
    public static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? String(Int(interval)) : String(interval)
    }
}

/// Bytes a child wrote, gathered from the pipe's reader thread.
private final class CollectedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func append(_ more: Data) { lock.lock(); data.append(more); lock.unlock() }
    var byteCount: Int { lock.lock(); defer { lock.unlock() }; return data.count }
    func lines() -> [String] {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
