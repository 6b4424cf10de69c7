import AUCore

/// A multichannel delay of a fixed number of frames: how a plan aligns parallel paths whose
/// latencies differ, and how a bypassed node keeps its latency. Allocated on the control
/// thread; a plan compiled later reuses the same line when the delay did not change, so an
/// edit elsewhere in the graph does not disturb the audio in it.
/// - Thread: [control] init/deinit; ``process(_:into:frames:)``, ``feed(_:frames:)``
///   on the render thread.
final class DelayLine: @unchecked Sendable {
    let delay: Int
    let channelCount: Int
    private let mask: Int
    private let storage: UnsafeMutablePointer<Float>
    private var position = 0

    init(delay: Int, channels: Int, maximumFrames: Int) {
        precondition(delay >= 0 && channels >= 0)
        self.delay = delay
        channelCount = channels
        var length = 2
        while length < delay + maximumFrames { length <<= 1 }
        mask = length - 1
        storage = .allocate(capacity: max(1, length * channels))
        storage.initialize(repeating: 0, count: max(1, length * channels))
    }

    deinit { storage.deallocate() }

    /// Writes `frames` frames of `input` and reads the same number, `delay` frames older, into
    /// `output` (which may be the same memory). Extra output channels are cleared.
    /// - Thread: [render]
    #if !DEBUG
    @_noLocks
    #endif
    func process(_ input: AudioBuffers, into output: AudioBuffers, frames: Int) {
        let length = mask + 1
        for channel in 0..<output.channelCount {
            let target = output.channelPointers[channel]
            guard channel < channelCount, channel < input.channelCount else {
                target.update(repeating: 0, count: frames)
                continue
            }
            let source = input.channelPointers[channel]
            let ring = storage + channel * length
            var write = position
            var read = (position &- delay) & mask
            for frame in 0..<frames {
                let sample = source[frame]
                ring[write] = sample
                target[frame] = ring[read]
                write = (write + 1) & mask
                read = (read + 1) & mask
            }
        }
        position = (position + frames) & mask
    }

    /// Writes `frames` frames of `input` without reading: keeps a bypass line current while
    /// the node is not bypassed. Channels `input` lacks are written silent.
    /// - Thread: [render]
    #if !DEBUG
    @_noLocks
    #endif
    func feed(_ input: AudioBuffers, frames: Int) {
        let length = mask + 1
        for channel in 0..<channelCount {
            let ring = storage + channel * length
            var write = position
            if channel < input.channelCount {
                let source = input.channelPointers[channel]
                for frame in 0..<frames {
                    ring[write] = source[frame]
                    write = (write + 1) & mask
                }
            } else {
                for _ in 0..<frames {
                    ring[write] = 0
                    write = (write + 1) & mask
                }
            }
        }
        position = (position + frames) & mask
    }
}
