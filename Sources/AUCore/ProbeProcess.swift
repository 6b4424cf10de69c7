import CAUSupport
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
        var batch = Batch()
        var ends: [Int32] = [0, 0]
        guard au_spawn_pipe(&ends) == 0 else {
            batch.cause = "cannot make a pipe for \(executable.path): \(String(cString: strerror(errno)))"
            return batch
        }
        let channel = ends[0]
        defer { close(channel) }
        let started = ChildSpawn.start(
            executable.path, arguments: arguments + items, environment: environment.merging([ProbeChannel.parentVariable: String(getpid())]) { $1 },
            descriptors: [0: .null, 1: .parent(ends[1]), 2: .null])
        close(ends[1])
        let child: pid_t
        switch started {
        case .success(let pid): child = pid
        case .failure(let error):
            batch.cause = "cannot run \(executable.path): \(error)"
            return batch
        }
        // The channel is read, without blocking, while the child is watched; once the child
        // is gone, what it wrote is all in the pipe, whoever else holds its write end (a
        // process the child started that lives on).
        var collected = Data()
        var lastProgress = Date()
        var killed = false
        while !Self.hasEnded(child) {
            var ready = pollfd(fd: channel, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 20)
            if Self.readAvailable(channel, into: &collected) > 0 {
                lastProgress = Date()
            } else if ready.revents & Int16(POLLHUP) != 0 {
                usleep(20_000)  // the child closed the channel and lives on
            }
            if !killed, Date().timeIntervalSince(lastProgress) > timeout {
                kill(-child, SIGKILL)
                killed = true
                batch.cause = "timed out after \(Self.seconds(timeout)) s"
            }
        }
        _ = Self.readAvailable(channel, into: &collected)
        // Whatever the child started goes with it (its process group), then it is reaped.
        kill(-child, SIGKILL)
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        let ending = ChildSpawn.Ending(waitStatus: status)
        for line in String(decoding: collected, as: UTF8.self).split(separator: "\n") where line.hasPrefix(ProbeChannel.linePrefix + " ") {
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
            switch ending {
            case .signaled(let signal): batch.cause = "died of signal \(signal)" + (ChildSpawn.Ending.name(ofSignal: signal).map { " (\($0))" } ?? "")
            case .exited(let status): batch.cause = "exited with status \(status)"
            }
        }
        return batch
    }

    /// Whether `child` has ended (it is left to reap).
    private static func hasEnded(_ child: pid_t) -> Bool {
        var info = siginfo_t()
        while waitid(P_PID, id_t(child), &info, WEXITED | WNOHANG | WNOWAIT) < 0 {
            if errno != EINTR { return true }
        }
        return info._sifields._sigchld.si_pid == child
    }

    /// Appends what the non-blocking `channel` holds now to `data`; how many bytes.
    private static func readAvailable(_ channel: Int32, into data: inout Data) -> Int {
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(channel, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: chunk[0..<count])
                total += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return total
            }
        }
    }

    /// `10`, `0.5`: seconds as a message shows them.
    /// - Thread: [control]
    public static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? String(Int(interval)) : String(interval)
    }
}
