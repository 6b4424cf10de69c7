import AUJACK
import Foundation

/// A real `jackd -d dummy` server of the test's own, under a unique name, stopped by PID.
///
/// libjack keeps process-wide state, and clients of different servers opened from
/// concurrent tests of one process crash it; so one test at a time holds a server: the
/// lock is taken by `init` and given back when the server object goes away (keep it alive
/// until the test's JACK clients are gone).
public final class JACKTestServer: @unchecked Sendable {
    public let name: String
    private var process = Process()
    private let arguments: [String]
    /// A semaphore, not a mutex: the test that takes it may give it back from another thread.
    private static let exclusive = DispatchSemaphore(value: 1)
    private var ownsTurn = true

    /// Runs `body` while no other test of the process talks to JACK.
    public static func exclusively<T>(_ body: () throws -> T) rethrows -> T {
        exclusive.wait()
        defer { exclusive.signal() }
        return try body()
    }

    /// Whether this machine lets jackd run real-time (SCHED_FIFO: root, or CAP_SYS_NICE, or an
    /// rtprio limit): `chrt -f 1 true` succeeds. Then every test server is real-time, and so
    /// are its clients' process threads (JACK gives them its priority): a compiler or the CPU
    /// track of `make test` on both cores then delays the control threads, never a cycle. Run
    /// not real-time, 1 of 3 runs beside the CPU track failed (xruns in each of 5 tries of the
    /// MIDI clock tests).
    public static let realTimeAllowed: Bool = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/chrt")
        probe.arguments = ["-f", "1", "/bin/true"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    public init(periodFrames: Int = 64, sampleRate: Int = 48_000, realTime: Bool = JACKTestServer.realTimeAllowed) throws {
        Self.exclusive.wait()
        name = "auhost-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        arguments = ["-n", name, realTime ? "-R" : "-r", "-d", "dummy", "-r", "\(sampleRate)", "-p", "\(periodFrames)"]
        do {
            try launch()
        } catch {
            ownsTurn = false
            Self.exclusive.signal()
            throw error
        }
    }

    /// Starts jackd and waits until a client can connect (up to 15 s on a loaded machine).
    private func launch() throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/jackd")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try ChildProcess.launch(process)
        for _ in 0..<300 {
            if (try? JACKClient(name: "probe", serverName: name)) != nil { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        stop()
        throw JACKError("jackd -n \(name) did not come up")
    }

    /// Starts the server again under the same name (after ``stop()``).
    public func restart() throws {
        stop()
        try launch()
    }

    public var pid: Int32 { process.processIdentifier }

    /// Stops the server (SIGTERM to its PID) and waits for it; one that has not ended
    /// within 10 s is killed.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        if !ChildProcess.waitForExit(process, timeout: 10) {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit {
        stop()
        if ownsTurn { Self.exclusive.signal() }
    }
}

/// Plain memory that a render function writes into and the test reads afterwards.
public final class Recording: @unchecked Sendable {
    public let samples: UnsafeMutableBufferPointer<Float>
    public private(set) var count = 0
    public init(capacity: Int) {
        samples = .allocate(capacity: capacity)
        samples.initialize(repeating: 0)
    }
    deinit { samples.deallocate() }
    /// - Thread: render.
    public func append(_ source: UnsafeMutableBufferPointer<Float>) {
        let room = min(source.count, samples.count - count)
        guard room > 0 else { return }
        (samples.baseAddress! + count).update(from: source.baseAddress!, count: room)
        count += room
    }
    public var array: [Float] { Array(samples[0..<count]) }

    /// Waits until at least `frames` samples are recorded; false when `timeout` seconds
    /// pass first (a stalled JACK graph fails the test instead of hanging the suite).
    /// - Thread: control (the test's).
    public func wait(forCount frames: Int, timeout: TimeInterval = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while count < frames {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }
}
