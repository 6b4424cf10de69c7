import AUCore
import CAUSupport
import AUFiles

/// An offline render's output kept in memory: in the caller's memory while it fits
/// (`destination`: a NumPy array the size the output will be), else one growing array per
/// channel; metered for the render's report: sample peak and RMS, no true peak (its 4×
/// oversampling would cost more than most chains), measured while the block is in cache,
/// eight samples at a time (``ChainProcessor``).
/// - Thread: [control] the job's thread.
final class MemorySink: OfflineSink {
    /// The samples written, per channel, when not in the destination.
    private var channels: [[Float]]
    /// The caller's memory, written from its first frame while the output fits.
    private var destination: AudioBuffers?
    /// Per channel: the largest magnitude and the sum of the squares so far.
    private var peaks: [Float]
    private var squares: [Double]
    private var frames = 0
    /// Whether the graph may render straight into the destination (``placeFor(_:)``): not
    /// when it shares memory with the input.
    private let rendersInPlace: Bool
    /// Channel pointers for a window into the destination.
    private let window: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>

    /// An empty output of `channelCount` channels: into `destination` (as many channels)
    /// while it fits, else in arrays with room for `expectedFrames`, `storage`'s when it has
    /// as many (a previous output handed back: its pages are not allocated and faulted in
    /// again).
    init(channelCount: Int, expectedFrames: Int, storage: consuming [[Float]] = [], destination: AudioBuffers? = nil, rendersInPlace: Bool = false) {
        self.destination = destination?.channelCount == channelCount ? destination : nil
        self.rendersInPlace = rendersInPlace
        window = .allocate(capacity: max(1, channelCount))
        var arrays = storage
        if arrays.count != channelCount { arrays = Array(repeating: [], count: channelCount) }
        for channel in arrays.indices {
            arrays[channel].removeAll(keepingCapacity: true)
            if self.destination == nil { arrays[channel].reserveCapacity(expectedFrames) }
        }
        channels = arrays
        peaks = Array(repeating: 0, count: channelCount)
        squares = Array(repeating: 0, count: channelCount)
    }

    deinit { window.deallocate() }

    /// The output: nil when it is the whole destination, else its channels.
    var output: [[Float]]? {
        if let destination, frames == destination.frameCount { return nil }
        leaveDestination()
        return channels
    }

    func write(_ buffers: AudioBuffers) throws(AudioUnitError) {
        if let destination, frames + buffers.frameCount > destination.frameCount { leaveDestination() }
        for channel in channels.indices {
            let block = UnsafeBufferPointer(start: buffers.channelPointers[channel], count: buffers.frameCount)
            if let destination {
                (destination.channelPointers[channel] + frames).update(from: block.baseAddress!, count: block.count)
            } else {
                channels[channel].append(contentsOf: block)
            }
            meter(block, channel: channel)
        }
        frames += buffers.frameCount
    }

    /// The destination's next `count` frames, while they are inside it.
    func placeFor(_ count: Int) -> AudioBuffers? {
        guard rendersInPlace, let destination, frames + count <= destination.frameCount else { return nil }
        return destination.window(from: frames, count: count, pointers: window)
    }

    func tookInPlace(_ count: Int) {
        for channel in channels.indices { meter(UnsafeBufferPointer(start: window[channel], count: count), channel: channel) }
        frames += count
    }

    private func meter(_ block: UnsafeBufferPointer<Float>, channel: Int) {
        let (peak, sum) = Self.peakAndSquares(block)
        peaks[channel] = max(peaks[channel], peak)
        squares[channel] += sum
    }

    /// Moves what the destination holds into the arrays, which take the rest.
    private func leaveDestination() {
        guard let destination else { return }
        for channel in channels.indices {
            channels[channel].append(contentsOf: UnsafeBufferPointer(start: destination.channelPointers[channel], count: frames))
        }
        self.destination = nil
    }

    func finish(committing: Bool) throws(AudioUnitError) -> AudioLevels {
        let levels = channels.indices.map { channel in
            ChannelLevels(
                samplePeak: Double(peaks[channel]), rms: frames > 0 ? (squares[channel] / Double(frames)).squareRoot() : 0, truePeak: Double(peaks[channel]))
        }
        return AudioLevels(channels: levels, frames: frames, measuresTruePeak: false)
    }

    func cancel() {
        channels = channels.map { _ in [] }
        destination = nil
    }

    /// The largest magnitude in `block` and the sum of its squares, in one pass of eight
    /// lanes (`au_peak_and_squares`, compiled for AVX2 and the baseline): the magnitudes are
    /// compared as floats (the graph's output holds no NaN, its nodes' are silenced); the
    /// squares are summed in single precision within the block (a render's block of a few
    /// thousand frames), the blocks in double precision by the caller.
    static func peakAndSquares(_ block: UnsafeBufferPointer<Float>) -> (peak: Float, squares: Double) {
        guard let base = block.baseAddress else { return (0, 0) }
        var squares = 0.0
        let peak = au_peak_and_squares(base, block.count, &squares)
        return (peak, squares)
    }
}
