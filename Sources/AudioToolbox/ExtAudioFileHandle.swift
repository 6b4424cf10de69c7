internal import AUCore
internal import AUFiles

// What an ExtAudioFileRef points at: an AUFiles reader or writer (libsndfile), the client
// format the program reads or writes in (any linear PCM, converted by AUCore's
// SampleConverter, big-endian samples swapped), and a libsamplerate converter (best quality)
// between the file's rate and the client's. Control side only: ExtAudioFile calls are never
// made from a render callback here.

/// An `ExtAudioFileRef`.
final class ExtAudioFileHandle: @unchecked Sendable {
    static let live = LiveHandles<ExtAudioFileHandle>()

    private let reader: AudioFileReader?
    private let writer: AudioFileWriter?
    /// The file's data format (ASBD).
    let fileFormat: StreamFormat
    /// The format the program reads or writes in; the file's until set.
    private(set) var clientFormat: StreamFormat
    private var converter: SampleRateConverter
    /// Frames converted to the client's rate and not yet handed out (reading).
    private var pending: [[Float]]
    private var pendingStart = 0
    private var readerFinished = false
    /// The client frame the next read returns (`ExtAudioFileTell`).
    private(set) var clientPosition = 0
    private let block: OwnedAudioBuffers
    static let blockFrames = 4096

    var channels: Int { fileFormat.channelsPerFrame }

    init(reader: AudioFileReader, fileFormat: StreamFormat) throws(AudioUnitError) {
        self.reader = reader
        writer = nil
        self.fileFormat = fileFormat
        clientFormat = fileFormat
        converter = try SampleRateConverter(channels: reader.info.channels, inputRate: fileFormat.sampleRate, outputRate: fileFormat.sampleRate)
        pending = Array(repeating: [], count: reader.info.channels)
        block = OwnedAudioBuffers(channels: reader.info.channels, capacity: Self.blockFrames)
    }

    init(writer: AudioFileWriter, fileFormat: StreamFormat) throws(AudioUnitError) {
        reader = nil
        self.writer = writer
        self.fileFormat = fileFormat
        clientFormat = fileFormat
        converter = try SampleRateConverter(channels: writer.channels, inputRate: fileFormat.sampleRate, outputRate: fileFormat.sampleRate)
        pending = []
        block = OwnedAudioBuffers(channels: writer.channels, capacity: Self.blockFrames)
    }

    /// The file's length in frames (at the file's rate): what it holds, or what was written.
    var fileLengthFrames: Int { reader?.info.frames ?? writer?.framesWritten ?? 0 }

    /// Sets the client format: linear PCM with the file's channel count, any rate (resampled
    /// from or to the file's). Reading goes on from the same client position.
    func setClientFormat(_ format: StreamFormat) throws(StatusError) {
        guard format.formatID == "lpcm" else { throw StatusError(kExtAudioFileError_NonPCMClientFormat) }
        guard format.channelsPerFrame == channels, format.sampleRate > 0,
              (try? SampleConverter(format: Self.nativeEndian(format))) != nil
        else { throw StatusError(kExtAudioFileError_InvalidDataFormat) }
        if let writer, writer.framesWritten > 0 { throw StatusError(kExtAudioFileError_InvalidOperationOrder) }
        let position = Double(clientPosition) / clientFormat.sampleRate
        do {
            converter = try SampleRateConverter(channels: channels, inputRate: reader != nil ? fileFormat.sampleRate : format.sampleRate,
                                                outputRate: reader != nil ? format.sampleRate : fileFormat.sampleRate)
        } catch {
            throw StatusError(kExtAudioFileError_InvalidDataFormat)
        }
        clientFormat = format
        if reader != nil { try seek(toClientFrame: Int((position * format.sampleRate).rounded())) }
    }

    /// `format` with its samples in this machine's byte order (what SampleConverter takes).
    static func nativeEndian(_ format: StreamFormat) -> StreamFormat {
        var native = format
        native.formatFlags = FormatFlags(rawValue: format.formatFlags.rawValue & ~kAudioFormatFlagIsBigEndian)
        return native
    }

    /// Whether the client's samples are big-endian (this library runs on little-endian hosts).
    private var swapsBytes: Bool { clientFormat.formatFlags.rawValue & kAudioFormatFlagIsBigEndian != 0 }

    /// The client buffers of `list` from client frame `offset`, checked against the format:
    /// the raw pointers, or nil when the list does not hold `frames` frames.
    private func raw(_ list: UnsafeMutablePointer<AudioBufferList>, offset: Int, frames: Int) -> [UnsafeMutableRawPointer]? {
        let buffers = UnsafeMutableAudioBufferListPointer(list)
        let expected = clientFormat.isInterleaved ? 1 : channels
        guard buffers.count == expected else { return nil }
        var pointers: [UnsafeMutableRawPointer] = []
        for buffer in buffers {
            guard let data = buffer.mData, Int(buffer.mDataByteSize) >= (offset + frames) * clientFormat.bytesPerFrame else { return nil }
            pointers.append(data + offset * clientFormat.bytesPerFrame)
        }
        return pointers
    }

    /// Swaps the byte order of `frames` client frames at `pointers`.
    private func swap(_ pointers: [UnsafeMutableRawPointer], frames: Int) {
        let size = (clientFormat.bitsPerChannel + 7) / 8
        guard size > 1 else { return }
        let samplesPerBuffer = frames * (clientFormat.isInterleaved ? channels : 1)
        for pointer in pointers {
            let bytes = pointer.assumingMemoryBound(to: UInt8.self)
            for sample in 0..<samplesPerBuffer {
                let base = bytes + sample * size
                for index in 0..<(size / 2) { Swift.swap(&base[index], &base[size - 1 - index]) }
            }
        }
    }

    // MARK: - Reading

    /// Reads up to `frames` client frames into `list`; returns how many (0 at the end).
    func read(frames: Int, into list: UnsafeMutablePointer<AudioBufferList>) throws -> Int {
        guard let reader else { throw StatusError(kExtAudioFileError_InvalidOperationOrder) }
        guard raw(list, offset: 0, frames: frames) != nil else { throw StatusError(kAudio_ParamError) }
        let encoder = try SampleConverter(format: Self.nativeEndian(clientFormat))
        var produced = 0
        while produced < frames {
            let available = (pending.first?.count ?? 0) - pendingStart
            if available > 0 {
                let count = min(available, frames - produced)
                let out = OwnedAudioBuffers(channels: channels, capacity: count)
                let view = out.buffers(frameCount: count)
                for channel in 0..<channels {
                    for frame in 0..<count { view.channelPointers[channel][frame] = pending[channel][pendingStart + frame] }
                }
                let pointers = raw(list, offset: produced, frames: count)!
                pointers.withUnsafeBufferPointer { encoder.encode(view, frameCount: count, into: $0) }
                if swapsBytes { swap(pointers, frames: count) }
                pendingStart += count
                produced += count
                continue
            }
            pending = Array(repeating: [], count: channels)
            pendingStart = 0
            if readerFinished { break }
            let got = try reader.read(into: block.buffers(frameCount: Self.blockFrames))
            let collect: (AudioBuffers) throws(AudioUnitError) -> Void = { emitted in
                for channel in 0..<self.channels { self.pending[channel] += emitted[channel] }
            }
            if got > 0 {
                try converter.process(block.buffers(frameCount: got), emit: collect)
            } else {
                try converter.finish(emit: collect)
                readerFinished = true
            }
        }
        clientPosition += produced
        return produced
    }

    /// Moves reading to client frame `frame` (at the client's rate).
    func seek(toClientFrame frame: Int) throws(StatusError) {
        guard let reader else { throw StatusError(kExtAudioFileError_InvalidOperationOrder) }
        let ratio = clientFormat.sampleRate / fileFormat.sampleRate
        let fileFrame = Int((Double(frame) / ratio).rounded(.down))
        guard frame >= 0, fileFrame <= reader.info.frames else { throw StatusError(kExtAudioFileError_InvalidSeek) }
        do {
            try reader.seek(toFrame: fileFrame)
            converter = try SampleRateConverter(channels: channels, inputRate: fileFormat.sampleRate, outputRate: clientFormat.sampleRate)
        } catch {
            throw StatusError(kExtAudioFileError_InvalidSeek)
        }
        pending = Array(repeating: [], count: channels)
        pendingStart = 0
        readerFinished = false
        clientPosition = frame
    }

    // MARK: - Writing

    /// Writes `frames` client frames from `list` (converted and resampled to the file's).
    func write(frames: Int, from list: UnsafePointer<AudioBufferList>) throws {
        guard let writer else { throw StatusError(kExtAudioFileError_InvalidOperationOrder) }
        let mutable = UnsafeMutablePointer(mutating: list)
        guard let pointers = raw(mutable, offset: 0, frames: frames) else { throw StatusError(kAudio_ParamError) }
        let decoder = try SampleConverter(format: Self.nativeEndian(clientFormat))
        var done = 0
        while done < frames {
            let count = min(Self.blockFrames, frames - done)
            let bytes = count * clientFormat.bytesPerFrame
            let chunk = pointers.map { pointer -> UnsafeMutableRawPointer in
                let copy = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
                copy.copyMemory(from: pointer + done * clientFormat.bytesPerFrame, byteCount: bytes)
                return copy
            }
            defer { for copy in chunk { copy.deallocate() } }
            if swapsBytes { swap(chunk, frames: count) }
            let view = block.buffers(frameCount: count)
            chunk.map { UnsafeRawPointer($0) }.withUnsafeBufferPointer { decoder.decode($0, frameCount: count, into: view) }
            try converter.process(view) { (emitted: AudioBuffers) throws(AudioUnitError) in try writer.write(emitted) }
            done += count
        }
    }

    /// Finishes a written file (the converter's last frames, then the file appears whole);
    /// a read file is closed with the handle.
    func close() throws(AudioUnitError) {
        guard let writer, !writer.isFinished else { return }
        try converter.finish { (emitted: AudioBuffers) throws(AudioUnitError) in try writer.write(emitted) }
        try writer.finish()
    }
}
