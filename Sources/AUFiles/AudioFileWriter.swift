import AUCore

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
    /// Frames written so far.
    public private(set) var framesWritten = 0
    /// Samples clamped to full scale by integer quantization so far.
    public private(set) var clippedSampleCount = 0
    /// True after ``finish()`` succeeded.
    public private(set) var isFinished = false

    private let output: AtomicFile
    private let file: SndfileHandle
    private let maxFramesPerWrite: Int
    private let intScratch: UnsafeMutablePointer<Int32>
    private let floatScratch: UnsafeMutablePointer<Float>
    private var failed = false

    /// Checks everything that can be checked before any sample is rendered (the encoding,
    /// the rate and channel count for that format, the folder, an existing file) and opens
    /// the temporary file. `inputs` are the files the caller reads, never written over
    /// (nor is a device or a FIFO, see ``AtomicFile``).
    /// - Thread: [control]
    public init(
        path: String, encoding: AudioFileEncoding, sampleRate: Double, channels: Int,
        overwrite: Bool = false, inputs: [String] = [], maxFramesPerWrite: Int = 4096
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
        intScratch = .allocate(capacity: maxFramesPerWrite * channels)
        floatScratch = .allocate(capacity: maxFramesPerWrite * channels)
    }

    deinit {
        if !isFinished { cancel() }
        intScratch.deallocate()
        floatScratch.deallocate()
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
            let count = min(maxFramesPerWrite, buffers.frameCount - done)
            let written: Int
            if let bits = encoding.bitDepth?.integerBits {
                interleaveQuantized(buffers, from: done, count: count, bits: bits)
                written = file.writeFrames(intScratch, frames: count)
            } else {
                interleaveFloat(buffers, from: done, count: count)
                written = file.writeFrames(floatScratch, frames: count)
            }
            guard written == count else {
                let reason = file.errorMessage
                abandon()
                throw .file(path, .invalidFile, "write error after \(framesWritten + max(0, written)) frames of \(encoding); the partial output was deleted (libsndfile: \(reason))")
            }
            done += count
            framesWritten += count
        }
    }

    /// Completes the file (header, flush to disk) and renames it into place.
    /// - Thread: [control]
    public func finish() throws(AudioUnitError) {
        guard !failed, !isFinished else {
            throw .file(path, .cannotDoInCurrentContext, "finish after the output was \(isFinished ? "finished" : "abandoned after an error")")
        }
        if let reason = file.close() {
            abandon()
            throw .file(path, .invalidFile, "cannot complete \(encoding); the partial output was deleted (libsndfile: \(reason))")
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
        _ = file.close()
        output.discard()
    }

    private func interleaveFloat(_ buffers: AudioBuffers, from start: Int, count: Int) {
        for channel in 0..<channels {
            var target = floatScratch + channel
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

    /// Rounds to `bits` and left-aligns in 32 bits (libsndfile's `int` full scale).
    private func interleaveQuantized(_ buffers: AudioBuffers, from start: Int, count: Int, bits: Int) {
        let scale = Float(1 << (bits - 1))
        let highest = scale - 1
        let shift = Int32(32 - bits)
        var clipped = 0
        for channel in 0..<channels {
            var target = intScratch + channel
            let source: UnsafeMutablePointer<Float>? = channel < buffers.channelCount ? buffers.channelPointers[channel] + start : nil
            for frame in 0..<count {
                var value = (source?[frame] ?? 0) * scale
                if value.isNaN { value = 0 }
                if value > highest {
                    value = highest
                    clipped += 1
                } else if value < -scale {
                    value = -scale
                    clipped += 1
                }
                // Half away from zero, as `rounded()`, by truncation (a plain conversion
                // instruction; `rounded()` is a libm call without SSE4.1).
                target.pointee = Int32(value + (value < 0 ? -0.5 : 0.5)) << shift
                target += channels
            }
        }
        clippedSampleCount += clipped
    }
}
