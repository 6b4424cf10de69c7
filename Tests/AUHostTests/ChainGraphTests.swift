import AUCore
import AUHost
import AUTestSupport
import AUPresets
import Foundation
import Testing

/// Loads preset JSON text against the machine's registry.
func loadPreset(_ json: String, registry: ComponentRegistry) throws -> LoadedPreset {
    try PresetLoader(registry: registry).load(data: Data(json.utf8), file: "test.json")
}

@Suite struct ChainGraphTests {
    @Test(arguments: [1, 17, 64, 4096])
    func aGainChainRendersOffline(blockSize: Int) throws {
        let registry = HostRegistry.make()
        let loaded = try loadPreset(gainChain, registry: registry)
        let chain = try ChainGraph(loaded, registry: registry, sampleRate: 48_000)
        defer { chain.dispose() }
        try chain.graph.start()
        #expect(chain.inputChannels == 2 && chain.outputChannels == 2)
        let input = OwnedAudioBuffers(channels: 2, capacity: blockSize)
        let output = OwnedAudioBuffers(channels: 2, capacity: blockSize)
        for channel in 0..<2 { input.buffers()[channel].update(repeating: 0.8) }
        var time = 0.0
        for _ in 0..<3 {
            let status = chain.graph.render(
                frameCount: blockSize, timestamp: RenderTimestamp(sampleTime: time), input: input.buffers(), output: output.buffers())
            #expect(status == 0)
            time += Double(blockSize)
        }
        for channel in 0..<2 {
            #expect(output.buffers()[channel].allSatisfy { abs($0 - 0.4) < 1e-4 })
        }
    }
}
