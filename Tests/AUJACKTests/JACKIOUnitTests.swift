import AUCore
import AUEngine
import AUJACK
import AUTestSupport
import Foundation
import Testing

/// `auou:jack:AUHs` as the output node of a graph, as AUHAL is in an AUGraph: JACK's
/// capture feeds the graph, the graph feeds JACK's playback, every period.
@Suite(.serialized) struct JACKIOUnitTests {
    /// A mono graph: capture → `unit` → playback, with the I/O unit as its output node
    /// (added after `unit` with `unitFirst`), started on `server` by `graph.start()`. The
    /// caller disposes the graph.
    static func startGraph(_ unit: AudioUnit?, clientName: String, server: JACKTestServer, transport: HostTransport? = nil,
                           playback: RenderCallback? = nil, unitFirst: Bool = false) throws -> (graph: AudioGraph, io: JACKIOUnit) {
        let io = JACKIOUnit()
        io.clientName = clientName
        io.serverName = server.name
        try io.open()
        io.hostTransport = transport
        try io.setValue(.canonical(sampleRate: 48_000, channels: 1), for: .streamFormat, scope: .input, element: JACKIOUnit.playbackBus)
        try io.setValue(.canonical(sampleRate: 48_000, channels: 1), for: .streamFormat, scope: .output, element: JACKIOUnit.captureBus)
        let graph = AudioGraph()
        var addedFirst: GraphNode?
        if unitFirst, let unit { addedFirst = try graph.addNode(unit) }
        let output = try graph.addNode(io)
        if let unit {
            let node = try addedFirst ?? graph.addNode(unit)
            try graph.connect(output, output: 0, to: node, input: 0)
            try graph.connect(node, output: 0, to: output, input: 0)
        } else if let playback {
            try graph.setInputCallback(playback, for: output, input: 0)
        }
        io.graph = graph
        try graph.initialize()
        io.latencyFrames = graph.latencyFrames
        try graph.start()
        return (graph, io)
    }

    @Test(arguments: [0, 100])
    func aSignalComesThroughTheGraphWithItsGainAndTheReportedLatency(latency: Int) throws {
        let server = try JACKTestServer()
        defer { server.stop() }
        let (graph, io) = try Self.startGraph(GainDelayUnit(gain: 0.5, delay: latency), clientName: "io-unit", server: server)
        defer { graph.dispose() }
        #expect(io.latencyFrames == latency)

        let through = Recording(capacity: 48_000)
        let direct = Recording(capacity: 48_000)
        let source = SignalSource()
        let tester = try startLoopbackTester(serverName: server.name, through: through, direct: direct) { source.fill($0) }
        defer { tester.stop() }
        try tester.client.connect(tester.playbackPorts[0].fullName, to: "io-unit:in_1")
        try tester.client.connect("io-unit:out_1", to: tester.capturePorts[0].fullName)
        try #require(direct.wait(forCount: 24_000), "the loopback recorded \(direct.count) of 24000 frames")
        tester.stop()
        io.stop()

        let measured = bestLag(Array(through.array[4_000..<20_000]), Array(direct.array[4_000..<20_000]), maxLag: 400)
        #expect(measured == latency, "measured \(measured) frames, reported \(latency)")
        let gain = rms(through.array[(6_000 + latency)..<(18_000 + latency)]) / rms(direct.array[6_000..<18_000])
        #expect(abs(gain - 0.5) < 1e-3, "gain \(gain)")
        #expect(io.playbackPorts[0].latency(playback: false).max == latency)
        #expect(io.renderErrorCount == 0)
    }

    @Test func startingBeforeInitializingIsTheCoreAudioError() {
        let io = JACKIOUnit()
        #expect {
            try io.start()
        } throws: { error in
            (error as? AudioUnitError)?.code == .uninitialized
        }
    }

    @Test func theServerRateIsTheOnlyRate() throws {
        let server = try JACKTestServer()
        defer { server.stop() }
        let io = JACKIOUnit()
        io.serverName = server.name
        defer { io.dispose() }
        try io.open()
        #expect(try io.value(of: .sampleRate) == 48_000)
        // Playing a graph, it captures for it at the server's rate only; alone, what it
        // captures goes nowhere and its input is resampled (JACKIOUnitStandaloneLiveTests).
        let graph = AudioGraph()
        io.graph = graph
        #expect(throws: AudioUnitError.self) { try io.setValue(44_100, for: .sampleRate) }
    }

    @Test func noServerGivesAClearError() {
        JACKTestServer.exclusively {
            let io = JACKIOUnit()
            io.clientName = "lonely"
            io.serverName = "no-such-server-\(getpid())"
            #expect {
                try io.open()
            } throws: { error in
                "\(error)".contains("cannot connect to JACK server 'no-such-server-\(getpid())' as 'lonely': it is not running")
            }
        }
    }

    @Test func theServerGoingAwayIsNoticed() throws {
        let server = try JACKTestServer()
        defer { withExtendedLifetime(server) {} }
        let (graph, io) = try Self.startGraph(nil, clientName: "survivor", server: server)
        defer { graph.dispose() }
        let client = try #require(io.client)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!client.serverIsGone)
        server.stop()
        for _ in 0..<100 where !client.serverIsGone { Thread.sleep(forTimeInterval: 0.05) }
        #expect(client.serverIsGone)
        io.stop()  // returns at once; no crash
    }

    @Test func jackTransportReachesTheHostTransport() throws {
        let server = try JACKTestServer()
        defer { server.stop() }
        let transport = HostTransport()
        let seen = TransportLog()
        let (graph, io) = try Self.startGraph(nil, clientName: "follower", server: server, transport: transport, playback: RenderCallback { _, _, _, playback in
            seen.record(transport.state)
            playback.clear()
            return 0
        })
        defer { graph.dispose() }
        let client = try #require(io.client)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!seen.latest.isRolling)
        client.startTransport()
        Thread.sleep(forTimeInterval: 0.5)
        let rolling = seen.latest
        #expect(rolling.isRolling)
        #expect(rolling.frame > 0)
        // No timebase master: beats are counted from the frame at 120 BPM.
        #expect(abs(rolling.beat - Double(rolling.frame) / 48_000 * 2) < 1e-9)
        client.stopTransport()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!seen.latest.isRolling)
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

/// The last transport state the render callback saw (plain memory, read after a pause).
final class TransportLog: @unchecked Sendable {
    private(set) var latest = TransportState()
    func record(_ state: TransportState) { latest = state }
}
