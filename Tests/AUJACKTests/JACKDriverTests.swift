import AUCore
import AUJACK
import AUTestSupport
import Foundation
import Testing

@Suite(.serialized) struct JACKDriverTests {
    @Test(arguments: [0, 100])
    func aSignalComesThroughWithItsGainAndTheReportedLatency(latency: Int) throws {
        let server = try JACKTestServer()
        defer { server.stop() }

        // The driver under test: ×0.5 and a delay of `latency` frames, reported to JACK.
        let history = UnsafeMutableBufferPointer<Float>.allocate(capacity: latency + 8192)
        history.initialize(repeating: 0)
        defer { history.deallocate() }
        let state = DelayState(history: history, delay: latency)
        let driver = try JACKDriver(
            .init(clientName: "under-test", serverName: server.name, inputChannels: 1, outputChannels: 1)
        ) { frames, _, inputs, outputs, _ in
            state.process(inputs[0], into: outputs[0], gain: 0.5)
            return 0
        }
        driver.latencyFrames = latency

        // The test client: plays a noise-like signal, records it through the driver and directly.
        let through = Recording(capacity: 48_000)
        let direct = Recording(capacity: 48_000)
        let source = SignalSource()
        let tester = try JACKDriver(
            .init(clientName: "tester", serverName: server.name, inputChannels: 2, outputChannels: 1)
        ) { frames, _, inputs, outputs, _ in
            source.fill(outputs[0])
            through.append(inputs[0])
            direct.append(inputs[1])
            return 0
        }
        try driver.start()
        try tester.start()
        try tester.client.connect(tester.outputPorts[0].fullName, to: driver.inputPorts[0].fullName)
        try tester.client.connect(driver.outputPorts[0].fullName, to: tester.inputPorts[0].fullName)
        try tester.client.connect(tester.outputPorts[0].fullName, to: tester.inputPorts[1].fullName)
        while direct.count < 24_000 { Thread.sleep(forTimeInterval: 0.05) }
        tester.stop()
        driver.stop()

        let measured = bestLag(Array(through.array[4_000..<20_000]), Array(direct.array[4_000..<20_000]), maxLag: 400)
        #expect(measured == latency, "measured \(measured) frames, reported \(latency)")
        let gain = rms(through.array[(6_000 + latency)..<(18_000 + latency)]) / rms(direct.array[6_000..<18_000])
        #expect(abs(gain - 0.5) < 1e-3, "gain \(gain)")
        #expect(driver.outputPorts[0].latency(playback: false).max == latency)
        #expect(driver.renderErrorCount == 0)
    }

    @Test func noServerGivesAClearError() {
        _ = JACKTestServer.exclusively {
            #expect {
                _ = try JACKDriver(.init(clientName: "lonely", serverName: "no-such-server-\(getpid())")) { _, _, _, _, _ in 0 }
            } throws: { error in
                "\(error)".contains("no JACK server 'no-such-server-") && "\(error)".contains("is running")
            }
        }
    }

    @Test func theServerGoingAwayIsNoticed() throws {
        let server = try JACKTestServer()
        defer { withExtendedLifetime(server) {} }
        let driver = try JACKDriver(.init(clientName: "survivor", serverName: server.name)) { _, _, _, outputs, _ in
            outputs.clear()
            return 0
        }
        try driver.start()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!driver.client.serverIsGone)
        server.stop()
        for _ in 0..<100 where !driver.client.serverIsGone { Thread.sleep(forTimeInterval: 0.05) }
        #expect(driver.client.serverIsGone)
        driver.stop()  // returns at once; no crash
    }
}

/// A delay line with a gain, on plain memory.
final class DelayState: @unchecked Sendable {
    let history: UnsafeMutableBufferPointer<Float>
    let delay: Int
    var write = 0
    init(history: UnsafeMutableBufferPointer<Float>, delay: Int) {
        self.history = history
        self.delay = delay
    }
    func process(_ input: UnsafeMutableBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>, gain: Float) {
        let size = history.count
        for frame in 0..<input.count {
            history[write] = input[frame]
            output[frame] = history[(write - delay + size) % size] * gain
            write = (write + 1) % size
        }
    }
}

/// A deterministic pseudo-random signal (so the correlation peak is unique).
final class SignalSource: @unchecked Sendable {
    var seed: UInt32 = 12_345
    func fill(_ output: UnsafeMutableBufferPointer<Float>) {
        for frame in 0..<output.count {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            output[frame] = (Float(seed >> 8) / Float(1 << 24) - 0.5) * 0.8
        }
    }
}

@Suite(.serialized) struct JACKTransportTests {
    @Test func jackTransportReachesTheHostTransport() throws {
        let server = try JACKTestServer()
        defer { server.stop() }
        let transport = HostTransport()
        let seen = TransportLog()
        let driver = try JACKDriver(.init(clientName: "follower", serverName: server.name, transport: transport)) { _, _, _, outputs, _ in
            seen.record(transport.state)
            outputs.clear()
            return 0
        }
        try driver.start()
        defer { driver.stop() }
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!seen.latest.isRolling)
        driver.client.startTransport()
        Thread.sleep(forTimeInterval: 0.5)
        let rolling = seen.latest
        #expect(rolling.isRolling)
        #expect(rolling.frame > 0)
        // No timebase master: beats are counted from the frame at 120 BPM.
        #expect(abs(rolling.beat - Double(rolling.frame) / 48_000 * 2) < 1e-9)
        driver.client.stopTransport()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!seen.latest.isRolling)
    }
}

/// The last transport state the render function saw (plain memory, read after a pause).
final class TransportLog: @unchecked Sendable {
    private(set) var latest = TransportState()
    func record(_ state: TransportState) { latest = state }
}
