import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Testing

/// `render --threads` end to end on the shipped two-branch preset and the reference chain
/// (real LV2 plugins): the plans are parallel and pipelined, the output is the same, sample
/// for sample, on 1, 2, 3 and 5 threads, and `auhost graph` shows how many threads render,
/// why, the branches and the stages.
@Suite struct ParallelRenderCommandTests {
    static let preset = ShippedPresets.path("two-branches.json")

    @Test("render --threads 1, 2, 3 and 5 write the same samples through two branches of LV2 plugins, and through the pipelined reference chain")
    func threadCountsRenderTheSameSamples() throws {
        try Self.expectTheSameSamples(through: Self.preset)
        try Self.expectTheSameSamples(through: ShippedPresets.path("reference.json"))
    }

    /// Renders 2 s through `preset` on 1, 2, 3 and 5 threads: bit for bit the same.
    static func expectTheSameSamples(through preset: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("in.wav")
        // A decaying 440 Hz burst every 0.25 s and a little noise-like detail: 2 s, stereo.
        try writeAudio(input, sampleRate: 48_000, channels: 2, frames: 96_000) { channel, frame in
            let t = Double(frame % 12_000) / 48_000
            return Float(0.5 * exp(-t * 20) * sin(2 * .pi * 440 * t + Double(channel)) + 0.01 * sin(Double(frame * 7919 % 1000)))
        }
        var outputs: [[[Float]]] = []
        for threads in [1, 2, 3, 5] {
            let output = folder.file("out-\(threads).wav")
            let result = render([preset, input, "-o", output, "--threads", "\(threads)", "--bit-depth", "32f", "--block", "256"])
            #expect(result.status == 0, "\(result.errors)")
            outputs.append(try readAudio(output).samples)
        }
        #expect(outputs[0].flatMap { $0 }.contains { abs($0) > 0.01 }, "the render is silent")
        for (index, threads) in [2, 3, 5].enumerated() {
            let a = outputs[0], b = outputs[index + 1]
            #expect(a.count == b.count && zip(a, b).allSatisfy { $0.0.count == $0.1.count })
            let differs = zip(a, b).contains { zip($0.0, $0.1).contains { $0.0.bitPattern != $0.1.bitPattern } }
            #expect(!differs, "\(preset): --threads \(threads) differs from --threads 1")
        }
    }

    @Test("auhost graph shows how many threads render, why, and the branches; --threads is checked")
    func graphShowsTheDecision() throws {
        let output = TextOutput(), errors = TextOutput()
        #expect(AUHostCLI.run(["graph", Self.preset, "--threads", "2"], output: output, errors: errors) == 0, "\(errors.captured)")
        #expect(output.captured.contains("Threads: 2 (parallel: "), "\(output.captured)")
        #expect(output.captured.contains("branch 2: 'eqB'"), "\(output.captured)")
        // The reference chain is serial: pipelined in two stages balanced by estimate.
        let chain = TextOutput()
        #expect(AUHostCLI.run(["graph", ShippedPresets.path("reference.json"), "--threads", "2"], output: chain, errors: errors) == 0, "\(errors.captured)")
        #expect(chain.captured.contains("Threads: 2 (pipelined in 2 stages"), "\(chain.captured)")
        #expect(chain.captured.contains("stage 1: 'eq'") && chain.captured.contains("stage 2: "), "\(chain.captured)")
        let bad = render([Self.preset, "x.wav", "-o", "y.wav", "--threads", "many"])
        #expect(bad.status == 64 && bad.errors.contains("--threads"), "\(bad.errors)")
    }

    /// `--threads N` counts every thread that renders: 1 is one thread, no render worker;
    /// 0 and more than 64 are usage errors that say threads count from 1, in every command.
    @Test("--threads 1 renders on one thread; --threads 0 and 65 are usage errors")
    func threadsCountFromOne() throws {
        let one = TextOutput(), errors = TextOutput()
        #expect(AUHostCLI.run(["graph", Self.preset, "--threads", "1"], output: one, errors: errors) == 0, "\(errors.captured)")
        #expect(one.captured.contains("Threads: 1 (single-threaded: one thread asked for)"), "\(one.captured)")
        for command in ["render", "run", "play", "graph"] {
            for count in ["0", "65"] {
                let refused = TextOutput()
                let arguments = command == "render" ? [command, Self.preset, "x.wav", "-o", "y.wav"] : [command, Self.preset]
                #expect(AUHostCLI.run(arguments + ["--threads", count], output: TextOutput(), errors: refused) == 64, "\(command) --threads \(count)")
                #expect(refused.captured.hasPrefix("auhost: --threads takes the number of threads that render, counted from 1 (one thread) to 64, not '\(count)'"), "\(refused.captured)")
            }
        }
    }
}
