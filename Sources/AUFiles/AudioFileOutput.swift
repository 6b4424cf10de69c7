import AUCore

/// An output file fed by a chain: blocks at the chain's rate and channel count are converted
/// to the file's channel count (``ChannelMapper``) and sample rate (libsamplerate), measured
/// (``LevelMeter``, before integer quantization, so clipping is seen) and written atomically
/// (``AudioFileWriter``).
///
/// The file gets exactly `round(chain frames × ratio)` frames. Buffers are allocated in
/// `init`; ``write(_:)`` does not allocate.
/// - Thread: [control] (the offline driver's thread); one output per job.
public final class AudioFileOutput {
    /// - Thread: [control]
    public var path: String { writer.path }
    public let chainSampleRate: Double
    public let chainChannels: Int
    /// Frames the chain has written so far.
    public private(set) var chainFrames = 0

    private let writer: AudioFileWriter
    private let converter: SampleRateConverter
    private let mapper: ChannelMapper
    private let meter: LevelMeter
    private let mapped: OwnedAudioBuffers
    private var isFinished = false
    /// Frames gathered per write to the file: a `write` system call per 64-frame block cost
    /// about 9 % of a render's CPU (docs/BENCHMARKS.md).
    static let framesPerFileWrite = 8192

    /// Checks and opens the output before anything is rendered (see ``AudioFileWriter``).
    /// - Parameters:
    ///   - fileSampleRate, fileChannels: what the file gets (usually the input file's).
    ///   - chainSampleRate, chainChannels: what ``write(_:)`` takes.
    ///   - blockSize: the usual block size (larger blocks work too).
    ///   - inputs: the files the caller reads, never written over.
    ///   - measuresTruePeak: whether the levels include the true peak (4× oversampled, the
    ///     meter's main cost; ``LevelMeter``).
    /// - Thread: [control]
    public init(
        path: String, encoding: AudioFileEncoding, fileSampleRate: Double, fileChannels: Int,
        chainSampleRate: Double, chainChannels: Int, blockSize: Int, overwrite: Bool = false, inputs: [String] = [],
        quality: SampleRateQuality = .best, measuresTruePeak: Bool = true
    ) throws(AudioUnitError) {
        precondition(chainChannels > 0 && blockSize > 0, "an output needs channels and a block size")
        do {
            converter = try SampleRateConverter(
                channels: fileChannels, inputRate: chainSampleRate, outputRate: fileSampleRate, quality: quality,
                maxInputFrames: blockSize)
        } catch {
            throw error.naming(path)
        }
        writer = try AudioFileWriter(
            path: path, encoding: encoding, sampleRate: fileSampleRate, channels: fileChannels, overwrite: overwrite, inputs: inputs,
            maxFramesPerWrite: max(blockSize, Self.framesPerFileWrite), buffersWrites: true)
        mapper = ChannelMapper(from: chainChannels, to: fileChannels)
        meter = LevelMeter(channels: fileChannels, measuresTruePeak: measuresTruePeak)
        mapped = OwnedAudioBuffers(channels: fileChannels, capacity: blockSize)
        self.chainSampleRate = chainSampleRate
        self.chainChannels = chainChannels
    }

    /// Takes `buffers.frameCount` frames of the chain's output (any count).
    /// - Thread: [control]; allocation-free.
    public func write(_ buffers: AudioBuffers) throws(AudioUnitError) {
        precondition(buffers.channelCount == chainChannels, "\(buffers.channelCount) channels into a \(chainChannels)-channel output")
        var offset = 0
        while offset < buffers.frameCount {
            let count = min(mapped.capacity, buffers.frameCount - offset)
            withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Float>.self, capacity: chainChannels) { pointers in
                for channel in 0..<chainChannels { pointers[channel] = buffers.channelPointers[channel] + offset }
                mapper.map(AudioBuffers(channelPointers: pointers, frameCount: count), into: mapped.buffers(frameCount: count))
            }
            do {
                try converter.process(mapped.buffers(frameCount: count)) { (block) throws(AudioUnitError) in try store(block) }
            } catch {
                throw error.naming(path)
            }
            offset += count
        }
        chainFrames += buffers.frameCount
    }

    /// Flushes the converter, completes the file and, when `committing`, renames it into
    /// place (else ``commit()`` does, later, maybe on another thread); returns the levels of
    /// everything written.
    /// - Thread: [control]
    public func finish(committing: Bool = true) throws(AudioUnitError) -> AudioLevels {
        precondition(!isFinished, "AudioFileOutput.finish twice")
        isFinished = true
        do {
            try converter.finish { (block) throws(AudioUnitError) in try store(block) }
            try writer.complete()
        } catch {
            writer.cancel()
            throw error.naming(path)
        }
        if committing { try commit() }
        return meter.levels()
    }

    /// Flushes the file ``finish(committing:)`` completed to disk and renames it into place;
    /// on failure nothing is left at ``path``.
    /// - Thread: [control] or [worker], one thread at a time.
    public func commit() throws(AudioUnitError) {
        do {
            try writer.commit()
        } catch {
            writer.cancel()
            throw error.naming(path)
        }
    }

    /// Abandons the output: nothing appears at ``path``, an existing file is untouched.
    /// - Thread: [control]
    public func cancel() {
        isFinished = true
        writer.cancel()
    }

    private func store(_ block: AudioBuffers) throws(AudioUnitError) {
        meter.process(block)
        try writer.write(block)
    }
}
