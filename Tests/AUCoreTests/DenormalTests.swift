import AUCore
import Testing

/// Denormals are flushed on the render thread and only there; render loops keep them
/// flushed throughout and give the caller's state back.
@Suite struct DenormalTests {
    /// A denormal, 2^-128 (about 2.9e-39), given by its bits: no arithmetic that a flushing
    /// thread could turn into zero.
    static let denormal = Float(bitPattern: 0x0020_0000)

    /// A denormal halved, through a function the optimizer cannot fold: zero
    /// when denormals are flushed, about 1.5e-39 when not.
    @inline(never)
    static func halvedDenormal(_ value: Float = denormal) -> Float { value * 0.5 }

    @Test func aRenderCallFlushesAndTheCallerKeepsItsState() {
        #expect(!RenderThread.flushesDenormals)
        #expect(Self.halvedDenormal() != 0)
        let inside = RenderThread.run { (RenderThread.flushesDenormals, Self.halvedDenormal()) }
        #expect(inside.0)
        #expect(inside.1 == 0)
        #expect(!RenderThread.flushesDenormals)
        #expect(Self.halvedDenormal() != 0)
    }

    @Test func nestedRenderCallsLeaveTheOuterOneFlushing() {
        let outer = RenderThread.run {
            RenderThread.run {}
            return RenderThread.flushesDenormals
        }
        #expect(outer)
        #expect(!RenderThread.flushesDenormals)
    }

    @Test func aRenderLoopFlushesThroughoutAndRestoresAfterwards() {
        let states = RenderThread.flushingDenormals {
            (0..<3).map { _ in RenderThread.run { RenderThread.flushesDenormals } && RenderThread.flushesDenormals }
        }
        #expect(states == [true, true, true])
        #expect(!RenderThread.flushesDenormals)
        #expect(Self.halvedDenormal() != 0)
    }

    @Test func aUnitProcessesWithDenormalsFlushed() throws {
        let unit = TestGainUnit()
        try unit.initialize()
        defer { unit.dispose() }
        let input = OwnedAudioBuffers(channels: 2, capacity: 16), output = OwnedAudioBuffers(channels: 2, capacity: 16)
        for channel in 0..<2 { input.buffers()[channel].update(repeating: Self.denormal) }
        let views = [input.buffers(), output.buffers()]
        let status = views.withUnsafeBufferPointer { views in
            unit.renderCycleFromDriver(
                timestamp: RenderTimestamp(sampleTime: 0), frameCount: 16, inputs: UnsafeBufferPointer(rebasing: views[0..<1]),
                outputs: UnsafeBufferPointer(rebasing: views[1..<2]), midi: UnsafeBufferPointer(start: nil, count: 0))
        }
        #expect(status == 0)
        // Gain 1 on denormal input: with DAZ the input reads as zero, so the output is zero.
        #expect(Array(output.buffers()[0]) == Array(repeating: 0, count: 16))
        #expect(!RenderThread.flushesDenormals)
    }
}
