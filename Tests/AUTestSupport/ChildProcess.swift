import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The processes a test starts (jackd, auhost, helpers), tied to the test process: each is
/// started under `setpriv --pdeathsig KILL`, from one thread that lives as long as the test
/// process, so the kernel kills it when the test process ends, however it ends (a failed
/// `#require`, a crash, a SIGKILL). Linux sends the signal when the thread that started the
/// child ends, which is why every start goes through that one thread.
public enum ChildProcess {
    /// Starts `process` (its executable, arguments, environment and pipes as set) tied to
    /// the test process. `processIdentifier`, `terminate()` and `waitUntilExit()` then speak
    /// of the program itself: setpriv executes it in its own place.
    /// - Thread: [any]
    public static func launch(_ process: Process) throws {
        let executable = process.executableURL?.path ?? "/bin/false"
        process.arguments = ["--pdeathsig", "KILL", "--", executable] + (process.arguments ?? [])
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        try Spawner.shared.perform { try process.run() }
    }

    /// What a process that ran to its end said, and how it ended.
    public struct Outcome: Sendable {
        public let status: Int32
        public let output: String
        public let errors: String
        /// Whether it was killed for outliving its deadline.
        public let timedOut: Bool
    }

    /// Runs `executable` to its end (in `directory` if given, with `environment` over this
    /// process's, `input` on its standard input) and returns its status and both outputs,
    /// read side by side so that neither pipe fills. A run that outlives `timeout` seconds
    /// is killed (status 137 with `timedOut`) instead of hanging the suite.
    /// - Thread: [any]
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil, input: Data? = nil,
        timeout: Double = 600
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe(), inputPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        try launch(process)
        if let input {
            DispatchQueue.global().async {
                try? inputPipe.fileHandleForWriting.write(contentsOf: input)
                try? inputPipe.fileHandleForWriting.close()
            }
        }
        let output = PipeReader(out), errors = PipeReader(err)
        let exited = waitForExit(process, timeout: timeout)
        if !exited {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        // A grandchild that inherited a pipe may hold it open: its end is not waited for long.
        return Outcome(
            status: exited ? process.terminationStatus : 137, output: String(decoding: output.wait(), as: UTF8.self),
            errors: String(decoding: errors.wait(), as: UTF8.self), timedOut: !exited)
    }

    /// Waits until `process` has ended, up to `timeout` seconds; false when it still runs.
    /// - Thread: [any]
    public static func waitForExit(_ process: Process, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)
    init(_ pipe: Pipe) {
        Thread.detachNewThread { [self] in
            data = pipe.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
    }
    /// What was read, once the pipe has ended (up to 10 s after the process), else nothing.
    func wait() -> Data {
        done.wait(timeout: .now() + 10) == .success ? data : Data()
    }
}

/// The one thread every child process is started from; it never ends.
private final class Spawner: @unchecked Sendable {
    static let shared = Spawner()
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []

    private init() {
        let thread = Thread { [self] in
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job()
            }
        }
        thread.name = "test-child-spawner"
        thread.start()
    }

    /// Runs `body` on the spawner thread and waits for it.
    func perform(_ body: @escaping () throws -> Void) throws {
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: (any Error)?
        condition.lock()
        jobs.append {
            do { try body() } catch { failure = error }
            finished.signal()
        }
        condition.signal()
        condition.unlock()
        finished.wait()
        if let failure { throw failure }
    }
}
