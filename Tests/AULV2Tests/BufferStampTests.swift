import AUCore
import Testing
@testable import AULV2

/// An LV2 unit connects its audio ports again exactly when the caller's buffer stamp says
/// the buffers moved (swh amp at 0 dB: the output is the input).
@Suite struct BufferStampTests {
    /// Mono input and output buffers of 64 frames, the input filled with `level`.
    final class Buses {
        let input = OwnedAudioBuffers(channels: 1, capacity: 64)
        let output = OwnedAudioBuffers(channels: 1, capacity: 64)
        let views = UnsafeMutableBufferPointer<AudioBuffers>.allocate(capacity: 2)

        init(level: Float) {
            input.buffers()[0].update(repeating: level)
            views.initializeElement(at: 0, to: input.buffers())
            views.initializeElement(at: 1, to: output.buffers())
        }
        deinit { views.deallocate() }

        var written: [Float] { Array(output.buffers()[0]) }
    }

    private func unitAtUnityGain() throws -> LV2Unit {
        let unit = try LV2TestSupport.unit(AmpTests.uri)
        try unit.setParameter(try #require(unit.parameters.infos.first { $0.identifier == "gain" }).id, value: 0)
        try unit.initialize()
        return unit
    }

    private func render(_ unit: LV2Unit, _ buses: Buses, stamp: UInt64) -> AudioUnitStatus {
        RenderThread.run {
            unit.renderCycleFromGraph(
                timestamp: RenderTimestamp(sampleTime: 0), frameCount: 64,
                inputs: UnsafeBufferPointer(rebasing: buses.views[0..<1]), outputs: UnsafeBufferPointer(rebasing: buses.views[1..<2]),
                midi: UnsafeBufferPointer(start: nil, count: 0), buffersStamp: stamp)
        }
    }

    @Test func aNewStampConnectsTheNewBuffers() throws {
        let unit = try unitAtUnityGain()
        defer { unit.dispose() }
        let first = Buses(level: 0.25), second = Buses(level: 0.5)
        #expect(render(unit, first, stamp: BufferStamp.next()) == 0)
        #expect(first.written == Array(repeating: 0.25, count: 64))
        #expect(render(unit, second, stamp: BufferStamp.next()) == 0)
        #expect(second.written == Array(repeating: 0.5, count: 64))
    }

    @Test func stampZeroAlwaysChecksTheBuffers() throws {
        let unit = try unitAtUnityGain()
        defer { unit.dispose() }
        let first = Buses(level: 0.25), second = Buses(level: 0.5)
        #expect(render(unit, first, stamp: 0) == 0)
        #expect(render(unit, second, stamp: 0) == 0)
        #expect(second.written == Array(repeating: 0.5, count: 64))
    }

    /// The promise is trusted: with the stamp of the last call the ports stay where they
    /// were, so the plugin reads and writes the first buffers although other views came.
    @Test func theSameStampReadsNoPointers() throws {
        let unit = try unitAtUnityGain()
        defer { unit.dispose() }
        let first = Buses(level: 0.25), second = Buses(level: 0.5)
        let stamp = BufferStamp.next()
        #expect(render(unit, first, stamp: stamp) == 0)
        first.input.buffers()[0].update(repeating: 0.75)
        #expect(render(unit, second, stamp: stamp) == 0)
        #expect(first.written == Array(repeating: 0.75, count: 64))
        #expect(second.written == Array(repeating: 0, count: 64))
    }
}
