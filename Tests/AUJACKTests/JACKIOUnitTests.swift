import AUCore
import AUJACK
import AUTestSupport
import Foundation
import Testing

/// `auou:jack:AUHs`: a render callback on input bus 0 feeds playback, with the capture
/// audio at hand, as AUHAL does.
@Suite(.serialized) struct JACKIOUnitTests {
    @Test func theIOUnitPullsItsInputIntoThePlaybackPorts() throws {
        let server = try JACKTestServer()
        defer { server.stop() }
        let io = JACKIOUnit()
        io.clientName = "io-unit"
        io.serverName = server.name
        try io.open()
        #expect(try io.value(of: .sampleRate) == 48_000)
        #expect(throws: AudioUnitError.self) { try io.setValue(44_100, for: .sampleRate) }  // not the server's rate
        try io.setValue(.canonical(sampleRate: 48_000, channels: 1), for: .streamFormat, scope: .input)
        try io.setValue(.canonical(sampleRate: 48_000, channels: 1), for: .streamFormat, scope: .output)
        // Playback = capture × 0.5.
        try io.setValue(RenderCallback { [unowned(unsafe) io] _, _, _, playback in
            guard let capture = io.captureBuffers else { return AudioUnitErrorCode.noConnection.rawValue }
            for frame in 0..<playback.frameCount { playback[0][frame] = capture[0][frame] * 0.5 }
            return 0
        }, for: .setRenderCallback, scope: .input)
        try io.initialize()
        try io.start()
        defer { io.dispose() }

        let through = Recording(capacity: 48_000)
        let direct = Recording(capacity: 48_000)
        let source = SignalSource()
        let tester = try startLoopbackTester(serverName: server.name, through: through, direct: direct) { source.fill($0) }
        defer { tester.stop() }
        try tester.client.connect(tester.outputPorts[0].fullName, to: "io-unit:in_1")
        try tester.client.connect("io-unit:out_1", to: tester.inputPorts[0].fullName)
        while direct.count < 24_000 { Thread.sleep(forTimeInterval: 0.05) }
        let window = 6_000..<18_000
        #expect(bestLag(Array(through.array[4_000..<20_000]), Array(direct.array[4_000..<20_000]), maxLag: 400) == 0)
        let gain = rms(through.array[window]) / rms(direct.array[window])
        #expect(abs(gain - 0.5) < 1e-3, "gain \(gain)")
        #expect(io.driver?.renderErrorCount == 0)
    }

    @Test func startingBeforeInitializingIsTheCoreAudioError() {
        let io = JACKIOUnit()
        #expect {
            try io.start()
        } throws: { error in
            (error as? AudioUnitError)?.code == .uninitialized
        }
    }
}
