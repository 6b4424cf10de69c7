import AUCore
import Foundation
import Testing
@testable import AULV2

/// A plugin that requires `bufsz:fixedBlockLength` is offered the feature and, in a graph,
/// runs only blocks of exactly ``LV2Unit/fixedBlockFrames`` frames whatever the cycle length.
@Suite struct FixedBlockTests {
    @Test(arguments: [17, 64, 100])
    func aFixedBlockPluginAlwaysRunsItsBlockLength(cycle: Int) throws {
        let fixtures = try FixtureBundles()
        defer { fixtures.remove() }
        let component = try FailureModeTests.component("urn:auhost:fixture:fixed-block", in: FailureModeTests.components(fixtures))
        let unit = try #require(try component.instantiate() as? LV2Unit)
        #expect(unit.requiresFixedBlocks)
        unit.renderMode = .offline
        unit.fixedBlockFrames = 32
        #expect(unit.blockSizeRequirement == .fixed(32))

        let graph = try LV2TestSupport.graph(around: unit)
        defer { graph.dispose() }
        #expect(graph.latencyFrames == 32)  // the block adapter's buffer

        let input = OwnedAudioBuffers(channels: 1, capacity: cycle)
        let rendered = OwnedAudioBuffers(channels: 1, capacity: cycle)
        var samples: [Float] = []
        for index in 0..<20 {
            #expect(graph.render(frameCount: cycle, timestamp: RenderTimestamp(sampleTime: Double(index * cycle)), input: input.buffers(), output: rendered.buffers()) == 0)
            samples += Array(rendered.buffers()[0])
        }
        // After the adapter's latency every sample says the plugin ran a 32-frame block.
        #expect(samples[32...].allSatisfy { $0 == 32 }, "\(Set(samples[32...]))")
    }
}
