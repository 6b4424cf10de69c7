import AUCore
import AUJACK
import AUTestSupport
import Foundation
import Synchronization
import Testing

/// `auou:jack:AUHs` without a graph, an output unit as Apple's are: a render callback on its
/// input bus 0 is what JACK plays, recorded by a client of the test's on its own `jackd -d dummy`.
@Suite(.serialized) struct JACKIOUnitStandaloneLiveTests {
    /// A callback that writes `signal(n)` for the n-th frame it is asked for, counted over every call.
    final class Source: @unchecked Sendable {
        let frames = Atomic<Int>(0)
        let signal: @Sendable (Int) -> Float
        init(_ signal: @escaping @Sendable (Int) -> Float) { self.signal = signal }
        var callback: RenderCallback {
            RenderCallback { [self] _, _, _, buffers in
                let start = frames.load(ordering: .relaxed)
                for channel in 0..<buffers.channelCount { for frame in 0..<buffers.frameCount { buffers[channel][frame] = signal(start + frame) } }
                frames.store(start + buffers.frameCount, ordering: .relaxed)
                return 0
            }
        }
    }

    /// Plays `source` through a standalone unit whose input bus is mono at `rate` on a 48 kHz
    /// server and returns 1 s of what JACK delivered to a recorder on `out_1`.
    static func record(_ source: Source, rate: Double) throws -> [Float] {
        let server = try JACKTestServer()
        defer { server.stop() }
        let io = JACKIOUnit()
        io.clientName = "standalone"
        io.serverName = server.name
        defer { io.dispose() }
        try io.open()
        try io.setValue(StreamFormat.canonical(sampleRate: rate, channels: 1), for: .streamFormat, scope: .input, element: JACKIOUnit.playbackBus)
        try io.setValue(source.callback, for: .setRenderCallback, scope: .input, element: JACKIOUnit.playbackBus)
        try io.initialize()
        let recording = Recording(capacity: 96_000)
        let recorder = try JACKTestClient(name: "recorder", serverName: server.name, captureChannels: 1, playbackChannels: 0) { _, capture, _ in
            if capture[0].contains(where: { $0 != 0 }) || recording.count > 0 { recording.append(capture[0]) }
        }
        defer { recorder.stop() }
        try recorder.start()
        try io.start()
        try recorder.client.connect("standalone:out_1", to: recorder.capturePorts[0].fullName)
        try #require(recording.wait(forCount: 48_000), "the recorder got \(recording.count) of 48000 frames")
        io.stop()
        recorder.stop()
        return Array(recording.array.prefix(48_000))
    }

    @Test func jackPlaysTheInputCallbackSampleForSample() throws {
        // A ramp whose every value names its frame (mod 1000): exact in 32-bit float. Each
        // 64-frame period recorded holds 64 consecutive frames of it; a period the recorder
        // missed (a non-real-time server on a loaded machine skips a client now and then) is
        // a jump between periods, counted.
        let value: @Sendable (Int) -> Float = { Float($0 % 1000 + 1) / 2000 }
        let recorded = try Self.record(Source(value), rate: 48_000)
        let period = 64  // JACKTestServer's default period
        var jumps = 0
        var expected: Int?
        for start in stride(from: 0, to: recorded.count, by: period) {
            let origin = Int((recorded[start] * 2000).rounded()) - 1
            let mismatch = (0..<period).first { recorded[start + $0] != value(origin + $0) }
            try #require(mismatch == nil, "frame \(start + (mismatch ?? 0)) of the recording is \(recorded[start + (mismatch ?? 0)]), not frame \(origin + (mismatch ?? 0)) of the ramp")
            if let expected, origin != expected { jumps += 1 }
            expected = (origin + period) % 1000
        }
        #expect(jumps <= 8, "\(jumps) of \(recorded.count / period) periods did not follow the one before")
    }

    @Test func aCallbackAtAnotherRateIsResampledToTheServers() throws {
        // 1 kHz at 44.1 kHz played on a 48 kHz server is 1 kHz there (1088 Hz unresampled).
        let recorded = try Self.record(Source { 0.5 * Float(sin(2 * Double.pi * 1000 * Double($0) / 44_100)) }, rate: 44_100)
        // A period the recorder missed (a non-real-time server on a loaded machine skips a
        // client now and then) moves the zero crossings after it, so a count of them over the
        // second miscounts (2014 seen); the median period between them does not: 48 frames for
        // 1 kHz at 48 kHz (44.1 unresampled).
        let period = try #require(medianRisingPeriod(recorded[...], minimumCount: 900), "no steady tone recorded")
        #expect(abs(period - 48) < 0.2, "a period of \(period) frames (median); 1 kHz at 48 kHz has 48")
        let level = rms(recorded[4_800..<43_200])
        #expect(abs(level - 0.5 / Float(2).squareRoot()) < 0.01, "RMS \(level); a sine of peak 0.5 has 0.354")
    }
}
