import AUCore
import CAUSupport

/// Writes non-interleaved float blocks to a WAV, AIFF, CAF, FLAC or Ogg Vorbis file, atomically.
///
/// Samples go to a temporary file in the destination folder, renamed into place by
/// ``finish()``. Any failure — a missing folder, an existing file without `overwrite`, a
/// full disk, a write error — deletes the temporary file and leaves the destination as it
/// was; so does ``cancel()`` or dropping the writer unfinished.
///
/// Integer encodings are quantized here, not by libsndfile: full scale is ±1 with
/// 2^(bits-1) steps (the reader's scale, so a 16-bit round trip is exact to 1/32768),
/// rounded to nearest and clamped (no dither). Float encodings are stored as given.
/// The interleaving buffer is allocated in `init`; ``write(_:)`` does not allocate.
/// - Thread: [control] (the offline driver's thread); one writer is used by one thread at a time.
public final class AudioFileWriter {
    public let path: String
    public let encoding: AudioFileEncoding
    public let sampleRate: Int
    public let channels: Int
    /// Frames taken so far (with `buffersWrites`, the last of them may not be in the file
    /// until ``finish()``).
    public private(set) var framesWritten = 0
    /// Samples clamped to full scale by integer quantization so far.
    public private(set) var clippedSampleCount = 0
    /// True after ``finish()`` (or ``commit()``) succeeded.
    public private(set) var isFinished = false
    /// True once ``complete()`` closed the file (its contents are all written).
    private var isComplete = false

    private let output: AtomicFile
    private let file: SndfileHandle
    /// Frames interleaved per call to libsndfile, at most.
    private let maxFramesPerWrite: Int
    /// Whether frames gather until ``maxFramesPerWrite`` are interleaved (or ``finish()``),
    /// so that a stream of small blocks costs one system call per `maxFramesPerWrite` frames.
    private let buffersWrites: Bool
    /// Frames interleaved in the scratch buffers, not yet handed to libsndfile.
    private var pendingFrames = 0
    /// Frames handed to libsndfile.
    private var fileFrames = 0
    private let intScratch: UnsafeMutablePointer<Int32>
    private let floatScratch: UnsafeMutablePointer<Float>
    /// One channel's quantized samples before they are interleaved, and the channels' sources.
    private let laneScratch: UnsafeMutablePointer<Int32>
    private let sources: UnsafeMutablePointer<UnsafePointer<Float>?>
    private var failed = false

    /// Checks everything that can be checked before any sample is rendered (the encoding,
    /// the rate and channel count for that format, the folder, an existing file) and opens
    /// the temporary file. `inputs` are the files the caller reads, never written over
    /// (nor is a device or a FIFO, see ``AtomicFile``).
    /// - Thread: [control]
    public init(
        path: String, encoding: AudioFileEncoding, sampleRate: Double, channels: Int,
        overwrite: Bool = false, inputs: [String] = [], maxFramesPerWrite: Int = 4096, buffersWrites: Bool = false
    ) throws(AudioUnitError) {
        precondition(maxFramesPerWrite > 0, "maxFramesPerWrite must be positive")
        guard sampleRate.isFinite, sampleRate >= 1, sampleRate <= 768_000, sampleRate == sampleRate.rounded() else {
            throw .file(path, .formatNotSupported, "cannot write \(encoding) at \(sampleRate) Hz; expected a whole rate in 1...768000 Hz")
        }
        guard (1...64).contains(channels) else {
            throw .file(path, .formatNotSupported, "cannot write \(encoding) with \(channels) channels; expected 1...64")
        }
        let info = SndfileCode.info(sampleRate: Int(sampleRate), channels: channels, format: encoding.sndfileFormat)
        guard SndfileHandle.canWrite(info) else {
            throw .file(path, .formatNotSupported, "libsndfile cannot write \(encoding) at \(Int(sampleRate)) Hz with \(channels) channels")
        }
        let output: AtomicFile
        do {
            output = try AtomicFile(destination: path, overwrite: overwrite, inputs: inputs)
        } catch {
            throw .output(path, error)
        }
        switch SndfileHandle.openForWriting(fd: output.descriptor, info: info) {
        case .success(let file): self.file = file
        case .failure(let failure):
            output.discard()
            throw .file(path, .invalidFile, "cannot start writing \(encoding) (libsndfile: \(failure.message))")
        }
        if encoding.format == .ogg { _ = file.setVBRQuality(encoding.vorbisQuality) }
        // Over 4 GiB a WAV's RIFF sizes would wrap: RF64 then, a plain WAV when smaller.
        if encoding.format == .wav { _ = file.setRF64AutoDowngrade() }
        self.output = output
        self.path = path
        self.encoding = encoding
        self.sampleRate = Int(sampleRate)
        self.channels = channels
        self.maxFramesPerWrite = maxFramesPerWrite
        self.buffersWrites = buffersWrites
        intScratch = .allocate(capacity: maxFramesPerWrite * channels)
        floatScratch = .allocate(capacity: maxFramesPerWrite * channels)
        laneScratch = .allocate(capacity: maxFramesPerWrite)
        sources = .allocate(capacity: channels)
        sources.initialize(repeating: nil, count: channels)
    }

    deinit {
        if !isFinished { cancel() }
        intScratch.deallocate()
        floatScratch.deallocate()
        laneScratch.deallocate()
        sources.deallocate()
    }

    /// Appends `buffers.frameCount` frames (any count). Buffer channels beyond the file's
    /// are ignored; file channels beyond the buffers' are written silent.
    /// - Thread: [control]; allocation-free.
    public func write(_ buffers: AudioBuffers) throws(AudioUnitError) {
        guard !failed, !isFinished else {
            throw .file(path, .cannotDoInCurrentContext, "write after the output was \(isFinished ? "finished" : "abandoned after an error")")
        }
        var done = 0
        while done < buffers.frameCount {
            let count = min(maxFramesPerWrite - pendingFrames, buffers.frameCount - done)
            if let bits = encoding.bitDepth?.integerBits {
                interleaveQuantized(buffers, from: done, count: count, bits: bits)
            } else {
                interleaveFloat(buffers, from: done, count: count)
            }
            pendingFrames += count
            done += count
            framesWritten += count
            if !buffersWrites || pendingFrames == maxFramesPerWrite { try writePending() }
        }
    }

    /// Gives the file a channel map (WAV's channel mask, CAF's and AIFF's channel layout
    /// chunk), before the first frame; `formatNotSupported` where the format keeps none or
    /// the map's length is not the channel count.
    /// - Thread: [control]
    public func setChannelMap(_ map: [ChannelPosition]) throws(AudioUnitError) {
        guard framesWritten == 0, !isFinished else { throw .file(path, .cannotDoInCurrentContext, "a channel map is set before the first frame") }
        guard map.count == channels, file.setChannelMap(map.map(\.rawValue)) else {
            throw .file(path, .formatNotSupported, "cannot give \(encoding) with \(channels) channels the channel map \(map)")
        }
    }

    /// Sets a text the file carries (title, artist…), before the first frame;
    /// `formatNotSupported` where the format keeps none of that kind (AIFF keeps title,
    /// copyright, software, artist and comment: libsndfile takes the others and drops them).
    /// - Thread: [control]
    public func setTag(_ tag: AudioFileTag, _ text: String) throws(AudioUnitError) {
        guard framesWritten == 0, !isFinished else { throw .file(path, .cannotDoInCurrentContext, "a tag is set before the first frame") }
        let aiffKeeps: Set<AudioFileTag> = [.title, .copyright, .software, .artist, .comment]
        guard encoding.format != .aiff || aiffKeeps.contains(tag), file.setString(SndfileCode.stringKind(tag), text) else {
            throw .file(path, .formatNotSupported, "\(encoding) keeps no \(tag) text")
        }
    }

    /// Hands the interleaved frames gathered so far to libsndfile (one `write` system call).
    private func writePending() throws(AudioUnitError) {
        guard pendingFrames > 0 else { return }
        let count = pendingFrames
        pendingFrames = 0
        let written = encoding.bitDepth?.integerBits != nil ? file.writeFrames(intScratch, frames: count) : file.writeFrames(floatScratch, frames: count)
        guard written == count else {
            let reason = file.errorMessage
            abandon()
            throw .file(path, .invalidFile, "write error after \(fileFrames + max(0, written)) frames of \(encoding); the partial output was deleted (libsndfile: \(reason))")
        }
        fileFrames += count
    }

    /// Completes the file (header, flush to disk) and renames it into place.
    /// - Thread: [control]
    public func finish() throws(AudioUnitError) {
        try complete()
        try commit()
    }

    /// Completes the file's contents (the last frames, the header), still under its
    /// temporary name: ``commit()`` then flushes it to disk and renames it into place
    /// (maybe on another thread: the flush waits for the disk), or ``cancel()`` deletes it.
    /// - Thread: [control]
    public func complete() throws(AudioUnitError) {
        guard !failed, !isFinished, !isComplete else {
            throw .file(path, .cannotDoInCurrentContext, "finish after the output was \(isFinished || isComplete ? "finished" : "abandoned after an error")")
        }
        try writePending()
        isComplete = true
        if let reason = file.close() {
            abandon()
            throw .file(path, .invalidFile, "cannot complete \(encoding); the partial output was deleted (libsndfile: \(reason))")
        }
    }

    /// Flushes the completed file to disk and renames it into place.
    /// - Thread: [control] or [worker], after ``complete()``.
    public func commit() throws(AudioUnitError) {
        guard isComplete, !failed, !isFinished else {
            throw .file(path, .cannotDoInCurrentContext, "commit of an output \(isFinished ? "committed" : isComplete ? "abandoned after an error" : "not completed")")
        }
        do {
            try output.commit()
        } catch {
            failed = true
            throw .output(path, error)
        }
        isFinished = true
    }

    /// Abandons the output: the temporary file is deleted, the destination is untouched.
    /// - Thread: [control]
    public func cancel() {
        guard !isFinished else { return }
        abandon()
    }

    private func abandon() {
        failed = true
        if !isComplete { _ = file.close() }
        output.discard()
    }

    private func interleaveFloat(_ buffers: AudioBuffers, from start: Int, count: Int) {
        for channel in 0..<channels {
            var target = floatScratch + pendingFrames * channels + channel
            if channel < buffers.channelCount {
                let source = buffers.channelPointers[channel] + start
                for frame in 0..<count {
                    target.pointee = source[frame]
                    target += channels
                }
            } else {
                for _ in 0..<count {
                    target.pointee = 0
                    target += channels
                }
            }
        }
    }

    /// Rounds to `bits` and left-aligns in 32 bits (libsndfile's `int` full scale), in C so
    /// that it vectorizes (`au_quantize_interleave`; a Swift conversion to `Int32` checks
    /// its range per sample, which keeps the loop scalar).
    private func interleaveQuantized(_ buffers: AudioBuffers, from start: Int, count: Int, bits: Int) {
        for channel in 0..<channels {
            sources[channel] = channel < buffers.channelCount ? UnsafePointer(buffers.channelPointers[channel] + start) : nil
        }
        clippedSampleCount += au_quantize_interleave(
            sources, Int32(channels), Int32(count), Int32(bits), laneScratch, intScratch + pendingFrames * channels)
    }
}
