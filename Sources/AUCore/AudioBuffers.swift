import CAUSupport

/// A view of non-interleaved 32-bit float channels over memory someone else owns
/// (the canonical `AudioBufferList`). Copying the view copies pointers, never samples.
/// - Thread: [any]; a view used on the render thread must point at memory allocated beforehand.
public struct AudioBuffers: @unchecked Sendable, BitwiseCopyable {
    /// One pointer per channel.
    public let channelPointers: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    /// How many frames each channel holds in this view.
    public var frameCount: Int

    /// - Thread: [any]
    public init(channelPointers: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>, frameCount: Int) {
        self.channelPointers = channelPointers
        self.frameCount = frameCount
    }

    /// - Thread: [any]
    public var channelCount: Int { channelPointers.count }

    /// The samples of one channel.
    /// - Thread: [any]
    @inline(__always)
    public subscript(channel: Int) -> UnsafeMutableBufferPointer<Float> {
        UnsafeMutableBufferPointer(start: channelPointers[channel], count: frameCount)
    }

    /// `count` frames of this view from frame `offset`: its channel pointers, moved, are
    /// written into `pointers` (room for ``channelCount``), which the view returned uses.
    /// - Thread: [any]; allocation-free.
    public func window(from offset: Int, count: Int, pointers: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>) -> AudioBuffers {
        for channel in 0..<channelCount { pointers[channel] = channelPointers[channel] + offset }
        return AudioBuffers(channelPointers: UnsafeMutableBufferPointer(rebasing: pointers[0..<channelCount]), frameCount: count)
    }

    /// Writes zeros into every channel.
    /// - Thread: [render]
    public func clear() {
        for channel in 0..<channelCount { self[channel].update(repeating: 0) }
    }

    /// Copies `frameCount` frames of every channel from `source`; extra channels of
    /// `self` are cleared, extra channels of `source` are ignored.
    /// - Thread: [render]
    public func copy(from source: AudioBuffers) {
        let frames = Swift.min(frameCount, source.frameCount)
        for channel in 0..<channelCount {
            if channel < source.channelCount {
                channelPointers[channel].update(from: source.channelPointers[channel], count: frames)
            } else {
                self[channel].update(repeating: 0)
            }
        }
    }

    /// Whether a channel of this view and one of `other` overlap in memory.
    /// - Thread: [any]
    public func sharesMemory(with other: AudioBuffers) -> Bool {
        for channel in 0..<channelCount {
            let start = UnsafeRawPointer(channelPointers[channel]), end = start + frameCount * MemoryLayout<Float>.stride
            for otherChannel in 0..<other.channelCount {
                let otherStart = UnsafeRawPointer(other.channelPointers[otherChannel])
                if otherStart < end && start < otherStart + other.frameCount * MemoryLayout<Float>.stride { return true }
            }
        }
        return false
    }

    /// Whether any sample's magnitude is above `threshold` (-120 dBFS is `1e-6`).
    /// - Thread: [any]
    public func containsSampleAbove(_ threshold: Float) -> Bool {
        for channel in 0..<channelCount {
            let samples = channelPointers[channel]
            for frame in 0..<frameCount where abs(samples[frame]) > threshold { return true }
        }
        return false
    }

    /// True when some sample is NaN or infinite (`au_contains_nonfinite`, CAUSupport: the
    /// exponent bits of each sample, eight an instruction with AVX2). The graph runs it over
    /// every node's output every cycle.
    /// - Thread: [render]
    @inlinable
    public func containsNonFinite() -> Bool {
        for channel in 0..<channelCount where au_contains_nonfinite(channelPointers[channel], frameCount) != 0 { return true }
        return false
    }
}

/// Channels of float samples owned by this object: allocated and zeroed on the control
/// thread, freed when the last reference goes (never on the render thread).
/// - Thread: [control] for creation and release; the ``buffers`` view may be used on any thread.
public final class OwnedAudioBuffers: @unchecked Sendable {
    public let channelCount: Int
    public let capacity: Int
    private let samples: UnsafeMutablePointer<Float>
    private let pointers: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>

    /// - Thread: [control]
    public init(channels: Int, capacity: Int) {
        precondition(channels >= 0 && capacity >= 0, "negative buffer size")
        channelCount = channels
        self.capacity = capacity
        samples = .allocate(capacity: Swift.max(1, channels * capacity))
        samples.initialize(repeating: 0, count: Swift.max(1, channels * capacity))
        pointers = .allocate(capacity: channels)
        for channel in 0..<channels {
            pointers.initializeElement(at: channel, to: samples + channel * capacity)
        }
    }

    deinit {
        samples.deallocate()
        pointers.deallocate()
    }

    /// A view of all the channels, `frameCount` frames long (at most ``capacity``).
    /// - Thread: [control]
    public func buffers(frameCount: Int? = nil) -> AudioBuffers {
        let frames = frameCount ?? capacity
        precondition(frames <= capacity, "\(frames) frames exceed the capacity of \(capacity)")
        return AudioBuffers(channelPointers: pointers, frameCount: frames)
    }
}
