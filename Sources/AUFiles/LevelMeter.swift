import AUCore

/// Measures ``AudioLevels`` over a stream of blocks: sample peak, RMS and BS.1770 true peak
/// per channel. State is allocated in `init`; ``process(_:)`` does not allocate.
/// - Thread: [control]; one meter per stream.
public final class LevelMeter {
    public let channelCount: Int
    private let filters: [TruePeakFilter]
    private let peaks: UnsafeMutablePointer<Float>
    private let squares: UnsafeMutablePointer<Double>
    private var frames = 0
    private var isFlushed = false

    /// `measuresTruePeak: false` leaves the 4× oversampling out (most of the meter's cost):
    /// the levels then say the true peak was not measured.
    /// - Thread: [control]
    public init(channels: Int, measuresTruePeak: Bool = true) {
        precondition(channels > 0, "a meter needs channels")
        channelCount = channels
        filters = measuresTruePeak ? (0..<channels).map { _ in TruePeakFilter() } : []
        peaks = .allocate(capacity: channels)
        peaks.initialize(repeating: 0, count: channels)
        squares = .allocate(capacity: channels)
        squares.initialize(repeating: 0, count: channels)
    }

    deinit {
        peaks.deallocate()
        squares.deallocate()
    }

    /// Adds a block (at least ``channelCount`` channels; extra channels are not measured).
    /// - Thread: [control]; allocation-free.
    public func process(_ buffers: AudioBuffers) {
        precondition(!isFlushed, "LevelMeter.process after levels()")
        precondition(buffers.channelCount >= channelCount, "\(buffers.channelCount) channels into a \(channelCount)-channel meter")
        for channel in 0..<channelCount {
            let samples = buffers.channelPointers[channel]
            var peak = peaks[channel]
            var sum: Double = 0
            for frame in 0..<buffers.frameCount {
                let sample = samples[frame]
                peak = max(peak, abs(sample))
                sum += Double(sample) * Double(sample)
            }
            peaks[channel] = peak
            squares[channel] += sum
            if !filters.isEmpty { filters[channel].process(samples, count: buffers.frameCount) }
        }
        frames += buffers.frameCount
    }

    /// The levels of everything processed; the first call runs the true-peak filters out,
    /// after which the meter takes no more blocks.
    /// - Thread: [control]
    public func levels() -> AudioLevels {
        if !isFlushed {
            isFlushed = true
            for filter in filters { filter.flush() }
        }
        let channels = (0..<channelCount).map { channel in
            let peak = Double(peaks[channel])
            return ChannelLevels(
                samplePeak: peak,
                rms: frames > 0 ? (squares[channel] / Double(frames)).squareRoot() : 0,
                truePeak: filters.isEmpty ? peak : max(peak, filters[channel].peak))
        }
        return AudioLevels(channels: channels, frames: frames, measuresTruePeak: !filters.isEmpty)
    }
}
