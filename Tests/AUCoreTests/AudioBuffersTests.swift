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

    /// The scan runs 32 samples a step (four vectors of eight) and the rest one by one: a
    /// NaN or infinity at every position of every length up to 100 (and of 4,099), from an
    /// address that is not a vector's, is found, and nothing outside the view is read as in it.
    @Test func findsANonFiniteSampleAtEveryPositionOfEveryLength() {
        let owned = OwnedAudioBuffers(channels: 1, capacity: 4_101)
        let pointers = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>.allocate(capacity: 1)
        defer { pointers.deallocate() }
        pointers[0] = owned.buffers().channelPointers[0] + 1
        for value in [Float.nan, .infinity, -.infinity] {
            for length in Array(0...100) + [4_099] {
                let view = AudioBuffers(channelPointers: pointers, frameCount: length)
                owned.buffers()[0][0] = value
                owned.buffers()[0][length + 1] = value
                #expect(!view.containsNonFinite(), "\(value) outside a view of \(length) frames")
                owned.buffers()[0][0] = 0
                owned.buffers()[0][length + 1] = 0
                for frame in length > 100 ? [0, 31, 32, 4_095, 4_096, 4_098] : Array(0..<length) {
                    pointers[0][frame] = value
                    #expect(view.containsNonFinite(), "\(value) at frame \(frame) of \(length)")
                    pointers[0][frame] = 1
                }
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
