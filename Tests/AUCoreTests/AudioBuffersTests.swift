import AUCore
import Testing

/// The non-finite scan the graph runs over every node's output every cycle.
@Suite struct AudioBuffersTests {
    @Test(arguments: [Float.nan, -Float.nan, .infinity, -.infinity, .signalingNaN])
    func findsANonFiniteSampleAnywhere(value: Float) {
        for channel in 0..<2 {
            for frame in [0, 17, 63] {
                let owned = OwnedAudioBuffers(channels: 2, capacity: 64)
                owned.buffers()[channel][frame] = value
                #expect(owned.buffers().containsNonFinite(), "\(value) at channel \(channel), frame \(frame)")
            }
        }
    }

    @Test func finiteExtremesAreFinite() {
        let owned = OwnedAudioBuffers(channels: 2, capacity: 64)
        let extremes: [Float] = [.greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, -.leastNormalMagnitude, 0, -0.0, 1, -1]
        for (index, value) in extremes.enumerated() {
            owned.buffers()[index % 2][index * 7] = value
        }
        #expect(!owned.buffers().containsNonFinite())
        // Only the frames the view covers count.
        owned.buffers()[1][40] = .nan
        #expect(!owned.buffers(frameCount: 40).containsNonFinite())
        #expect(owned.buffers(frameCount: 41).containsNonFinite())
    }

    /// An offline render writes into the caller's memory only when it is not the input's.
    @Test func viewsShareMemoryOnlyWhereTheirFramesOverlap() {
        let owned = OwnedAudioBuffers(channels: 2, capacity: 64)
        let whole = owned.buffers()
        let pointers = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>.allocate(capacity: 1)
        defer { pointers.deallocate() }
        func window(channel: Int, from frame: Int, count: Int) -> AudioBuffers {
            pointers[0] = whole.channelPointers[channel] + frame
            return AudioBuffers(channelPointers: pointers, frameCount: count)
        }
        #expect(whole.sharesMemory(with: whole))
        #expect(owned.buffers(frameCount: 32).sharesMemory(with: window(channel: 0, from: 31, count: 1)))
        #expect(!owned.buffers(frameCount: 32).sharesMemory(with: window(channel: 0, from: 32, count: 32)))
        #expect(owned.buffers(frameCount: 32).sharesMemory(with: window(channel: 1, from: 0, count: 1)))
        #expect(window(channel: 1, from: 63, count: 1).sharesMemory(with: whole))
        #expect(!OwnedAudioBuffers(channels: 2, capacity: 64).buffers().sharesMemory(with: whole))
    }
}
