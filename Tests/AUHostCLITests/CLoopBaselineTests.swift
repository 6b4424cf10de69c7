import AUCore
import AUFiles
import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Testing

/// The benchmark baseline does the same work as `auhost render`: the C loop
/// (`lv2-chain-bench --file`, CLV2ChainLoop) and `auhost render Presets/reference.json`
/// turn the same file into the same samples, so comparing their speed compares hosts, not
/// workloads (docs/BENCHMARKS.md, "Offline rendering").
@Suite struct CLoopBaselineTests {
    @Test func theCLoopRendersWhatAuhostRenders() throws {
        let folder = NSTemporaryDirectory() + "auhost-cloop-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/in.wav", ours = folder + "/auhost.wav", theirs = folder + "/c-loop.wav"

        // Two seconds of stereo at 48 kHz, 16-bit: tones with a swell, so the compressor,
        // delay, reverb and limiter all do something.
        let frames = 96_000
        let source = OwnedAudioBuffers(channels: 2, capacity: frames)
        for frame in 0..<frames {
            let time = Double(frame) / 48_000
            let swell = 0.2 + 0.7 * abs(sin(2 * Double.pi * 0.75 * time))
            source.buffers()[0][frame] = Float(swell * sin(2 * Double.pi * 220 * time))
            source.buffers()[1][frame] = Float(swell * sin(2 * Double.pi * 330 * time))
        }
        let writer = try AudioFileWriter(path: input, encoding: AudioFileEncoding(format: .wav, bitDepth: .int16), sampleRate: 48_000, channels: 2)
        try writer.write(source.buffers())
        try writer.finish()

        let preset = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Presets/reference.json").path
        let output = TextOutput(), errors = TextOutput()
        let status = AUHostCLI.run(["render", preset, input, "-o", ours, "--tail", "0", "--bit-depth", "16"], output: output, errors: errors)
        #expect(status == 0, "\(errors.captured)")

        let loop = Process()
        loop.executableURL = try auhostExecutable().deletingLastPathComponent().appendingPathComponent("lv2-chain-bench")
        loop.arguments = ["--file", input, theirs, "--block", "1024"]
        try ChildProcess.launch(loop)
        loop.waitUntilExit()
        #expect(loop.terminationStatus == 0)

        let a = try AudioFileReader(path: ours).readAll(), b = try AudioFileReader(path: theirs).readAll()
        #expect(a.channelCount == 2 && b.channelCount == 2)
        // auhost compensates the chain's latency (the limiter's look-ahead); the C loop does
        // not: its output is later by that many frames. Both quantize to 16 bits, with
        // different rounding of halves: within 2 LSB.
        let left = Array(a.buffers()[0]), cLeft = Array(b.buffers()[0])
        let lag = bestLag(cLeft, left, maxLag: 512)
        #expect(lag >= 0 && lag <= 512)
        var largest: Float = 0
        for channel in 0..<2 {
            let mine = a.buffers()[channel], other = b.buffers()[channel]
            for frame in 0..<(frames - lag) { largest = max(largest, abs(mine[frame] - other[frame + lag])) }
        }
        #expect(largest <= 2.0 / 32768, "largest difference \(largest * 32768) LSB at a lag of \(lag) frames")
    }
}
