import AUCore

/// An input file as a chain wants it: read, converted to the chain's sample rate
/// (libsamplerate) and channel count (``ChannelMapper``), and handed out in blocks of
/// exactly the size asked for — what the offline driver pulls each cycle.
///
/// Every buffer is allocated in `init` (the queue between the converter and the blocks grows
/// only if libsamplerate ever emits more at once than planned for, which it does not for
/// rates at most 256 times apart); ``read(into:)`` does not allocate.
/// - Thread: [control] (the offline driver's thread); one input per job.
public final class AudioFileInput {
    /// The file as libsndfile describes it.
    /// - Thread: [control]
    public var info: AudioFileInfo { reader.info }
    public let sampleRate: Double
    public let channels: Int
    /// How many frames the whole input gives at ``sampleRate``: `round(file frames × ratio)`.
    public let totalFrames: Int
    /// Frames handed out so far.
    public private(set) var position = 0

    private let reader: AudioFileReader
    private let converter: SampleRateConverter
    private let mapper: ChannelMapper
    private let fileBlock: OwnedAudioBuffers
    private var queue: OwnedAudioBuffers
    private var queued = 0
    private var isDrained = false

    /// Opens `path` for a chain running at `sampleRate` with `channels` channels, pulling
    /// blocks of up to `blockSize` frames.
    /// - Thread: [control]
    public init(
        path: String, sampleRate: Double, channels: Int, blockSize: Int, quality: SampleRateQuality = .best
    ) throws(AudioUnitError) {
        precondition(channels > 0 && blockSize > 0, "an input needs channels and a block size")
        reader = try AudioFileReader(path: path, maxFramesPerRead: blockSize)
        do {
            converter = try SampleRateConverter(
                channels: reader.info.channels, inputRate: reader.info.sampleRate, outputRate: sampleRate,
                quality: quality, maxInputFrames: blockSize)
        } catch {
            throw error.naming(path)
        }
        mapper = ChannelMapper(from: reader.info.channels, to: channels)
        fileBlock = OwnedAudioBuffers(channels: reader.info.channels, capacity: blockSize)
        queue = OwnedAudioBuffers(channels: channels, capacity: 2 * blockSize + Int((Double(blockSize) * converter.ratio).rounded(.up)) + 8192)
        self.sampleRate = sampleRate
        self.channels = channels
        totalFrames = converter.outputLength(forInputFrames: reader.info.frames)
    }

    /// Fills `buffers` (``channels`` channels) with the next `buffers.frameCount` frames and
    /// returns how many are real: all of them until the end, then fewer (the rest zeroed),
    /// then 0.
    /// - Thread: [control]; allocation-free.
    public func read(into buffers: AudioBuffers) throws(AudioUnitError) -> Int {
        precondition(buffers.channelCount == channels, "\(buffers.channelCount) channels from a \(channels)-channel input")
        while queued < buffers.frameCount, !isDrained {
            let got = try reader.read(into: fileBlock.buffers())
            do {
                if got > 0 {
                    try converter.process(fileBlock.buffers(frameCount: got)) { (block) throws(AudioUnitError) in enqueue(block) }
                } else {
                    try converter.finish { (block) throws(AudioUnitError) in enqueue(block) }
                    isDrained = true
                }
            } catch {
                throw error.naming(info.path)
            }
        }
        let count = min(queued, buffers.frameCount)
        let queue = self.queue.buffers()
        for channel in 0..<channels {
            let source = queue.channelPointers[channel]
            let target = buffers.channelPointers[channel]
            target.update(from: source, count: count)
            (target + count).update(repeating: 0, count: buffers.frameCount - count)
            source.update(from: source + count, count: queued - count)
        }
        queued -= count
        position += count
        return count
    }

    private func enqueue(_ block: AudioBuffers) {
        if queued + block.frameCount > queue.capacity {
            let larger = OwnedAudioBuffers(channels: channels, capacity: 2 * (queued + block.frameCount))
            for channel in 0..<channels {
                larger.buffers().channelPointers[channel].update(from: queue.buffers().channelPointers[channel], count: queued)
            }
            queue = larger
        }
        let all = queue.buffers()
        withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Float>.self, capacity: channels) { pointers in
            for channel in 0..<channels { pointers[channel] = all.channelPointers[channel] + queued }
            mapper.map(block, into: AudioBuffers(channelPointers: pointers, frameCount: block.frameCount))
        }
        queued += block.frameCount
    }
}
