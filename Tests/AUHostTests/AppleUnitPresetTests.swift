import AUHost
import Foundation
import Testing

/// A chain preset names Apple's units (AUAppleUnits, in AUHost's registry) by their
/// descriptions and sets their parameters by identifier: AUDynamicsProcessor with an overall
/// gain of +6 dB into AUNBandEQ with a global gain of −6 dB gives back a sine at −40 dBFS
/// (under the threshold) within 1e-4, once the follower has risen (after 0.1 s).
@Suite struct AppleUnitPresetTests {
    static let preset = """
        {"auhost": 1, "name": "apple", "sampleRate": 48000, "nodes": [
          {"id": "dynamics", "unit": "aufx:dcmp:appl", "parameters": {"overallGain": 6}},
          {"id": "eq", "unit": "aufx:nbeq:appl", "parameters": {"globalGain": -6}}],
         "chain": ["dynamics", "eq"]}
        """

    @Test func aPresetChainsAppleUnitsByTheirDescriptions() throws {
        let frames = 512, cycles = 40
        let registry = ComponentRegistry(providers: HostRegistry.providers().filter { $0.format == .builtin })
        let loaded = try PresetLoader(registry: registry).load(data: Data(Self.preset.utf8), file: "apple.json")
        let chain = try ChainGraph(loaded, registry: registry, sampleRate: 48_000, maximumFrames: frames, parallelism: .singleThreaded)
        defer { chain.dispose() }
        try chain.graph.start()
        let input = OwnedAudioBuffers(channels: chain.inputChannels, capacity: frames)
        let output = OwnedAudioBuffers(channels: chain.outputChannels, capacity: frames)
        var worst: Float = 0
        for cycle in 0..<cycles {
            let sine = (0..<frames).map { 0.01 * sin(2 * Float.pi * 1000 * Float(cycle * frames + $0) / 48_000) }
            for channel in 0..<chain.inputChannels { for frame in 0..<frames { input.buffers()[channel][frame] = sine[frame] } }
            let status = chain.graph.render(
                frameCount: frames, timestamp: RenderTimestamp(sampleTime: Double(cycle * frames)), input: input.buffers(), output: output.buffers())
            try #require(status == 0)
            guard cycle * frames >= 4800 else { continue }
            for channel in 0..<chain.outputChannels { for frame in 0..<frames { worst = max(worst, abs(output.buffers()[channel][frame] - sine[frame])) } }
        }
        #expect(worst < 1e-4, "+6 dB then -6 dB differs from the input by \(worst)")
    }
}
