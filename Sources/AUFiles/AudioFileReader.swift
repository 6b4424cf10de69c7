import AUCore

/// Reads any file libsndfile reads (WAV, AIFF, FLAC, Ogg Vorbis/Opus, CAF, W64, AU, MP3 where
/// libsndfile has it...) as non-interleaved float samples, integers scaled so full scale is ±1.
///
/// The interleaved scratch buffer is allocated once in `init`; ``read(into:)`` neither
/// allocates nor locks, so the per-block loop is allocation-free.
/// - Thread: [control] (the offline driver's thread); one reader is used by one thread at a time.
public final class AudioFileReader {
    public let info: AudioFileInfo
    /// The most frames one libsndfile call reads (the scratch buffer's size).
    public let maxFramesPerRead: Int
    /// The next frame ``read(into:)`` returns.
    public private(set) var position: Int = 0

    private let file: SndfileHandle
    private let scratch: UnsafeMutablePointer<Float>

    /// Opens `path`. A missing, unreadable, corrupt or unsupported file is one
    /// ``AudioUnitError`` naming the file and what is wrong (libsndfile's message).
    /// - Thread: [control]
    public init(path: String, maxFramesPerRead: Int = 4096) throws(AudioUnitError) {
        precondition(maxFramesPerRead > 0, "maxFramesPerRead must be positive")
        switch PathCheck.forReading(path) {
        case .missing: throw .file(path, .invalidFilePath, "no such file; expected an audio file to read")
        case .directory: throw .file(path, .invalidFilePath, "is a folder; expected an audio file to read")
        case .notAFile(let kind): throw .file(path, .invalidFilePath, "is \(kind), not a file; expected an audio file to read")
        case .unreadable: throw .file(path, .invalidFilePath, "permission denied; expected a readable audio file")
        case .readable: break
        }
        let file: SndfileHandle
        switch SndfileHandle.openForReading(path: path) {
        case .success(let opened): file = opened
        case .failure(let failure):
            let (code, what): (AudioUnitErrorCode, String) = switch failure.kind {
            case .unrecognisedFormat: (.unknownFileType, "not an audio format libsndfile reads")
            case .unsupportedEncoding: (.formatNotSupported, "unsupported audio encoding")
            case .malformed: (.invalidFile, "corrupt or malformed audio file")
            case .system, .other: (.invalidFile, "cannot open audio file")
            }
            throw .file(path, code, "\(what) (libsndfile: \(failure.message))")
        }
        let sf = file.info
        guard sf.channels > 0, sf.samplerate > 0 else {
            throw .file(path, .invalidFile, "header says \(sf.channels) channels at \(sf.samplerate) Hz; expected at least 1 channel and a positive rate")
        }
        let names = SndfileHandle.formatNames(sf.format)
        let major = sf.format & SndfileCode.typeMask
        let format: AudioFileFormat? = switch major {
        // What AUFiles writes as WAV reads back as WAVE_FORMAT_EXTENSIBLE (an RF64 made
        // a WAV), or stays RF64 past 4 GiB.
        case SndfileCode.wav, SndfileCode.wavex, SndfileCode.rf64: .wav
        case SndfileCode.aiff: .aiff
        case SndfileCode.caf: .caf
        case SndfileCode.flac: .flac
        case SndfileCode.ogg: .ogg
        default: nil
        }
        var info = AudioFileInfo(
            path: path, sampleRate: Double(sf.samplerate), channels: Int(sf.channels),
            frames: sf.frames >= 0 && sf.frames < Int64(Int.max) ? Int(sf.frames) : 0, format: format,
            containerName: names.major, encodingName: names.subtype, codec: SndfileCode.codec(sf.format))
        info.truncation = AudioFileInfo.truncation(log: file.log())
        self.info = info
        self.file = file
        self.maxFramesPerRead = maxFramesPerRead
        scratch = .allocate(capacity: maxFramesPerRead * Int(sf.channels))
        scratch.initialize(repeating: 0, count: maxFramesPerRead * Int(sf.channels))
    }

    deinit {
        _ = file.close()
        scratch.deallocate()
    }

    /// The MIDI key of the file's sound from its instrument chunk (WAV `smpl`, AIFF `INST`),
    /// nil when it has none.
    /// - Thread: [control]
    public var rootKey: Int? { file.instrumentRootKey() }

    /// Where each channel is meant to sound, from the file's channel map; nil when it has
    /// none (or names a position libsndfile does not).
    /// - Thread: [control]
    public var channelMap: [ChannelPosition]? {
        file.channelMap(channels: info.channels).flatMap { codes in
            let positions = codes.compactMap(ChannelPosition.init(rawValue:))
            return positions.count == codes.count ? positions : nil
        }
    }

    /// The texts the file carries (title, artist…), as libsndfile reads them.
    /// - Thread: [control]
    public var tags: [AudioFileTag: String] {
        var tags: [AudioFileTag: String] = [:]
        for tag in AudioFileTag.allCases { tags[tag] = file.string(SndfileCode.stringKind(tag)) }
        return tags
    }

    /// Reads up to `buffers.frameCount` frames into `buffers`; returns how many were read
    /// (fewer only at the end of the file, 0 after it). File channels beyond the buffers'
    /// are skipped, buffer channels beyond the file's are zeroed, and frames after the
    /// returned count are zeroed.
    /// - Thread: [control]; allocation-free.
    public func read(into buffers: AudioBuffers) throws(AudioUnitError) -> Int {
        let channels = info.channels
        let shared = min(channels, buffers.channelCount)
        var done = 0
        while done < buffers.frameCount {
            let wanted = min(maxFramesPerRead, buffers.frameCount - done)
            let got = file.readFrames(into: scratch, frames: wanted)
            if got < wanted, file.hasError {
                throw .file(info.path, .invalidFile, "read error at frame \(position + done + max(got, 0)) of \(info.frames) (libsndfile: \(file.errorMessage))")
            }
            guard got > 0 else { break }
            for channel in 0..<shared {
                let destination = buffers.channelPointers[channel] + done
                var source = scratch + channel
                for frame in 0..<got {
                    destination[frame] = source.pointee
                    source += channels
                }
            }
            done += got
            if got < wanted { break }
        }
        for channel in 0..<buffers.channelCount {
            let start = channel < shared ? done : 0
            if start < buffers.frameCount {
                (buffers.channelPointers[channel] + start).update(repeating: 0, count: buffers.frameCount - start)
            }
        }
        position += done
        return done
    }

    /// Moves to `frame` (0 rewinds).
    /// - Thread: [control]
    public func seek(toFrame frame: Int) throws(AudioUnitError) {
        guard frame >= 0, frame <= info.frames, file.seek(toFrame: frame) else {
            throw .file(info.path, .invalidFile, "cannot seek to frame \(frame); expected 0...\(info.frames) (libsndfile: \(file.errorMessage))")
        }
        position = frame
    }

    /// Reads the rest of the file into new buffers (for tests and short files; the render
    /// loop reads blocks instead). Memory grows with the frames the file really holds, not
    /// with the count its header promises: a corrupt header (a FLAC STREAMINFO claiming two
    /// billion frames in 300 bytes) is a read error, not a 17 GB allocation.
    /// - Thread: [control]
    public func readAll() throws(AudioUnitError) -> OwnedAudioBuffers {
        let remaining = max(0, info.frames - position)
        let block = OwnedAudioBuffers(channels: info.channels, capacity: maxFramesPerRead)
        var samples = [[Float]](repeating: [], count: info.channels)
        var total = 0
        try withExtendedLifetime(block) { () throws(AudioUnitError) in
            while total < remaining {
                let wanted = min(maxFramesPerRead, remaining - total)
                let got = try read(into: block.buffers(frameCount: wanted))
                for channel in 0..<info.channels {
                    samples[channel].append(contentsOf: UnsafeBufferPointer(start: block.buffers().channelPointers[channel], count: got))
                }
                total += got
                if got < wanted { break }
            }
        }
        guard total == remaining else {
            throw .file(info.path, .invalidFile, "file ended after \(position) frames; its header promised \(info.frames)")
        }
        let owned = OwnedAudioBuffers(channels: info.channels, capacity: total)
        withExtendedLifetime(owned) {
            for channel in 0..<info.channels where total > 0 {
                samples[channel].withUnsafeBufferPointer { owned.buffers().channelPointers[channel].update(from: $0.baseAddress!, count: total) }
            }
        }
        return owned
    }
}
