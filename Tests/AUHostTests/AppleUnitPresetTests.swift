import AUHost
import Foundation
import Testing

/// A chain preset names Apple's units (AUAppleUnits, in AUHost's registry) by their
/// descriptions and sets their parameters by identifier: AUDynamicsProcessor with an overall
/// gain of +6 dB into AUNBandEQ with a global gain of −6 dB gives back a sine at −40 dBFS
/// (under the threshold) within 1e-4, once the follower has risen (after 0.1 s). The
/// AUAudioFilePlayer plays the file its `file` property parameter names, sample for sample
/// from the first frame (a 24 kHz file resampled to the chain's 48 kHz: its tone's level
/// within 0.01 dB), and silence after it.
@Suite struct AppleUnitPresetTests {
    static let preset = """
        {"auhost": 1, "name": "apple", "sampleRate": 48000, "nodes": [
          {"id": "dynamics", "unit": "aufx:dcmp:appl", "parameters": {"overallGain": 6}},
          {"id": "eq", "unit": "aufx:nbeq:appl", "parameters": {"globalGain": -6}}],
         "chain": ["dynamics", "eq"]}
        """

    static let frames = 512

    /// The left channel of `json`'s chain over `cycles` cycles of `input(frame)` at 48 kHz.
    static func render(_ json: String, cycles: Int, input signal: (Int) -> Float = { _ in 0 }) throws -> [Float] {
        let registry = ComponentRegistry(providers: HostRegistry.providers().filter { $0.format == .builtin })
        let loaded = try PresetLoader(registry: registry).load(data: Data(json.utf8), file: "apple.json")
        let chain = try ChainGraph(loaded, registry: registry, sampleRate: 48_000, maximumFrames: frames, parallelism: .singleThreaded)
        defer { chain.dispose() }
        try chain.graph.start()
        let input = OwnedAudioBuffers(channels: chain.inputChannels, capacity: frames)
        let output = OwnedAudioBuffers(channels: chain.outputChannels, capacity: frames)
        var rendered: [Float] = []
        for cycle in 0..<cycles {
            for channel in 0..<chain.inputChannels { for frame in 0..<frames { input.buffers()[channel][frame] = signal(cycle * frames + frame) } }
            let status = chain.graph.render(
                frameCount: frames, timestamp: RenderTimestamp(sampleTime: Double(cycle * frames)), input: input.buffers(), output: output.buffers())
            try #require(status == 0)
            rendered += Array(output.buffers()[0])
        }
        return rendered
    }

    @Test func aPresetChainsAppleUnitsByTheirDescriptions() throws {
        let sine = { (frame: Int) in 0.01 * sin(2 * Float.pi * 1000 * Float(frame) / 48_000) }
        let rendered = try Self.render(Self.preset, cycles: 40, input: sine)
        let worst = rendered.indices.dropFirst(4800).map { abs(rendered[$0] - sine($0)) }.max() ?? .infinity
        #expect(worst < 1e-4, "+6 dB then -6 dB differs from the input by \(worst)")
    }

    /// Writes `frames` of `sample` at `rate` to a float WAV in a folder of its own.
    static func writeFile(_ name: String, rate: Double, frames: Int, _ sample: (Int) -> Float) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apple-preset-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name
        let audio = OwnedAudioBuffers(channels: 1, capacity: frames)
        for frame in 0..<frames { audio.buffers()[0][frame] = sample(frame) }
        let writer = try AudioFileWriter(path: path, encoding: AudioFileEncoding(format: .wav, bitDepth: .float32), sampleRate: rate, channels: 1)
        try writer.write(audio.buffers())
        try writer.finish()
        return path
    }

    static func filePlayer(_ path: String) -> String {
        #"{"auhost": 1, "name": "player", "sampleRate": 48000, "nodes": [{"id": "player", "unit": "augn:afpl:appl", "parameters": {"file": "\#(path)"}}], "chain": ["player"]}"#
    }

    @Test func theFilePlayerPlaysTheFileAPresetNames() throws {
        let ramp = { (frame: Int) in Float(frame % 1000) / 1000 - 0.5 }
        let path = try Self.writeFile("ramp.wav", rate: 48_000, frames: 10_000, ramp)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let rendered = try Self.render(Self.filePlayer(path), cycles: 24)
        try #require(rendered.count == 24 * Self.frames)
        #expect(rendered[..<10_000].enumerated().allSatisfy { $0.element == ramp($0.offset) }, "the file sample for sample from frame 0")
        #expect(rendered[10_000...].allSatisfy { $0 == 0 }, "silence after the file")
    }

    @Test func theFilePlayerResamplesAFileToTheChainsRate() throws {
        let path = try Self.writeFile("tone.wav", rate: 24_000, frames: 24_000) { 0.5 * sin(2 * Float.pi * 1000 * Float($0) / 24_000) }
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let rendered = try Self.render(Self.filePlayer(path), cycles: 110)
        try #require(rendered.count > 50_000)
        let middle = Array(rendered[12_000..<36_000])
        let level = (2 * middle.reduce(0) { $0 + Double($1) * Double($1) } / Double(middle.count)).squareRoot()
        #expect(abs(20 * log10(level / 0.5)) < 0.01, "a 1 kHz tone at 0.5 comes out at \(level)")
        #expect(rendered[48_500...].allSatisfy { abs($0) < 1e-3 }, "one second of file, then silence")
    }
}
