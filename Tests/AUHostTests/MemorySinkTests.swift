import AUCore
import AUTestSupport
import Testing

@testable import AUHost

/// The levels of an output rendered into memory: written by copy or in place, they are the
/// samples' own.
@Suite struct MemorySinkTests {
    @Test(arguments: [1, 7, 8, 9, 512, 515])
    func peakAndSquaresAreTheSamples(count: Int) {
        var generator = Fuzz.SeededGenerator(state: UInt64(count))
        var samples = (0..<count).map { _ in Float(generator.next() % 20_001) / 10_000 - 1 }
        samples[count / 2] = -1.5
        let (peak, squares) = samples.withUnsafeBufferPointer { MemorySink.peakAndSquares($0) }
        #expect(peak == 1.5)
        let expected = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        #expect(abs(squares - expected) <= expected * 1e-5, "\(squares) against \(expected)")
    }

    @Test func framesRenderedInPlaceAreMeteredAndKept() throws {
        let destination = OwnedAudioBuffers(channels: 2, capacity: 24)
        let sink = MemorySink(channelCount: 2, expectedFrames: 24, destination: destination.buffers(), rendersInPlace: true)
        let written = OwnedAudioBuffers(channels: 2, capacity: 8)
        written.buffers()[0][3] = 0.25
        try sink.write(written.buffers())
        let place = try #require(sink.placeFor(16))
        place[1][15] = -0.5
        sink.tookInPlace(16)
        #expect(sink.placeFor(1) == nil, "the destination is full")
        #expect(sink.output == nil, "the output is the destination")
        #expect(destination.buffers()[0][3] == 0.25 && destination.buffers()[1][23] == -0.5)
        let levels = try sink.finish(committing: true)
        #expect(levels.frames == 24)
        #expect(levels.channels.map(\.samplePeak) == [0.25, 0.5])
        let refused = MemorySink(channelCount: 2, expectedFrames: 24, destination: destination.buffers(), rendersInPlace: false)
        #expect(refused.placeFor(8) == nil, "not where the input is")
    }
}

