import AUJACK
import Foundation

/// A real `jackd -d dummy` server of the test's own, under a unique name, stopped by PID.
public final class JACKTestServer {
    public let name: String
    private let process = Process()

    public init(periodFrames: Int = 64, sampleRate: Int = 48_000, realTime: Bool = false) throws {
        name = "auhost-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/jackd")
        process.arguments = ["-n", name, realTime ? "-R" : "-r", "-d", "dummy", "-r", "\(sampleRate)", "-p", "\(periodFrames)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Ready when a client can connect.
        for _ in 0..<100 {
            if (try? JACKClient(name: "probe", serverName: name)) != nil { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        stop()
        throw JACKError("jackd -n \(name) did not come up")
    }

    public var pid: Int32 { process.processIdentifier }

    /// Stops the server (SIGTERM to its PID) and waits for it.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    deinit { stop() }
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
}
