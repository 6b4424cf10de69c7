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
    /// The queue holds frames `head..<queued`; the rest move to its start only when more
    /// are read (not after each block handed out).
    private var head = 0
    private var queued = 0
    private var isDrained = false

    /// Frames read from the file at once when it needs no rate conversion: a `read` system
    /// call per 64-frame block cost about 7 % of a render's CPU (docs/BENCHMARKS.md). A
    /// converted file is read in blocks of the size asked for, as before (libsamplerate's
    /// output is only the same sample for sample when it is fed the same blocks).
    static let framesPerFileRead = 8192

    /// Opens `path` for a chain running at `sampleRate` with `channels` channels, pulling
    /// blocks of up to `blockSize` frames.
    /// - Thread: [control]
    public init(
        path: String, sampleRate: Double, channels: Int, blockSize: Int, quality: SampleRateQuality = .best
    ) throws(AudioUnitError) {
        precondition(channels > 0 && blockSize > 0, "an input needs channels and a block size")
        let unconvertedBlock = max(blockSize, Self.framesPerFileRead)
        reader = try AudioFileReader(path: path, maxFramesPerRead: unconvertedBlock)
        let readFrames = reader.info.sampleRate == sampleRate ? unconvertedBlock : blockSize
        do {
            converter = try SampleRateConverter(
                channels: reader.info.channels, inputRate: reader.info.sampleRate, outputRate: sampleRate,
                quality: quality, maxInputFrames: readFrames)
        } catch {
            throw error.naming(path)
        }
        mapper = ChannelMapper(from: reader.info.channels, to: channels)
        fileBlock = OwnedAudioBuffers(channels: reader.info.channels, capacity: readFrames)
        queue = OwnedAudioBuffers(channels: channels, capacity: 2 * readFrames + Int((Double(readFrames) * converter.ratio).rounded(.up)) + 8192)
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
        while queued - head < buffers.frameCount, !isDrained {
            compact()
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
        let count = min(queued - head, buffers.frameCount)
        let queue = self.queue.buffers()
        for channel in 0..<channels {
            let source = queue.channelPointers[channel] + head
            let target = buffers.channelPointers[channel]
            target.update(from: source, count: count)
            (target + count).update(repeating: 0, count: buffers.frameCount - count)
        }
        head += count
        position += count
        return count
    }

    /// Moves the frames not yet handed out to the queue's start.
    private func compact() {
        guard head > 0 else { return }
        let queue = self.queue.buffers()
        for channel in 0..<channels {
            queue.channelPointers[channel].update(from: queue.channelPointers[channel] + head, count: queued - head)
        }
        queued -= head
        head = 0
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
