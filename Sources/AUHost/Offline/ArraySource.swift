import AUCore
import AUFiles

/// Planar samples in memory as an offline render's input (``ChainProcessor``): the caller's
/// channels mapped to the chain's input channels as a file's are (``ChannelMapper``), then
/// silence after the end. The caller's memory must outlive the render.
/// - Thread: [control] the job's thread.
final class ArraySource: OfflineSource {
    let totalFrames: Int
    private let samples: AudioBuffers
    private let mapper: ChannelMapper
    /// Channel pointers for a window into ``samples``.
    private let window: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    private var position = 0
    /// The screened stretch, from ``position`` to this frame, and whether it is all finite.
    private var screened = (end: 0, isFinite: false)
    /// How many frames the in-place input is screened for NaN and infinity at once: a long
    /// stretch read ahead in one pass streams from memory (the caller's array is touched
    /// first here) and stays in the cache for the cycles that take it.
    static let screenedFrames = 8192

    /// Reads `samples` (all their frames) into a chain that takes `chainChannels` channels.
    init(_ samples: AudioBuffers, chainChannels: Int) {
        self.samples = samples
        totalFrames = samples.frameCount
        mapper = ChannelMapper(from: samples.channelCount, to: chainChannels)
        window = .allocate(capacity: samples.channelCount)
    }

    deinit { window.deallocate() }

    func read(into buffers: AudioBuffers) throws(AudioUnitError) {
        let count = min(buffers.frameCount, totalFrames - position)
        // The mapper writes every channel's first `count` frames; only the rest is cleared.
        if count < buffers.frameCount {
            for channel in 0..<buffers.channelCount { (buffers.channelPointers[channel] + count).update(repeating: 0, count: buffers.frameCount - count) }
        }
        guard count > 0 else { return }
        mapper.map(samples.window(from: position, count: count, pointers: window), into: buffers)
        position += count
    }

    /// The caller's memory itself, when its channels are the chain's; screened ahead,
    /// ``screenedFrames`` at a time.
    func takeInPlace(_ frames: Int) -> (buffers: AudioBuffers, isFinite: Bool)? {
        guard mapper.isIdentity, position + frames <= totalFrames else { return nil }
        if position + frames > screened.end {
            let ahead = min(max(frames, Self.screenedFrames), totalFrames - position)
            screened = (position + ahead, !samples.window(from: position, count: ahead, pointers: window).containsNonFinite())
        }
        let view = samples.window(from: position, count: frames, pointers: window)
        position += frames
        return (view, screened.isFinite)
    }

    func stop() {}
}
