internal import AUCore
internal import AUFiles

// What an ExtAudioFileRef points at: an AudioFileID (its AUFiles reader or writer, over
// libsndfile), the client format the program reads or writes in (any linear PCM, through
// PCMBufferCodec), and a libsamplerate converter (best quality) between the file's rate and
// the client's. Control side only: ExtAudioFile calls read and write the file on the calling
// thread.

/// An `ExtAudioFileRef`.
final class ExtAudioFileHandle: @unchecked Sendable {
    static let live = LiveHandles<ExtAudioFileHandle>()

    /// The AudioFileID read or written (`kExtAudioFileProperty_AudioFile`).
    let audioFile: AudioFileHandle
    /// Whether the ExtAudioFile opened the AudioFileID (and closes it), or the program did
    /// (`ExtAudioFileWrapAudioFileID`: it stays the program's).
    let ownsAudioFile: Bool
    private var reader: AudioFileReader? { audioFile.reader }
    private var writer: AudioFileWriter? { audioFile.writer }
    /// The file frame the next read of the reader returns, restored before each read when
    /// the program read the wrapped AudioFileID in between.
    private var fileFrame = 0
    /// A layout set over the one a file being read has (`kExtAudioFileProperty_FileChannelLayout`).
    private var fileLayoutOverride: ChannelLayout?
    /// The client's channel layout (`kExtAudioFileProperty_ClientChannelLayout`), nil until set.
    private(set) var clientLayout: ChannelLayout?
    /// For each channel the converter takes, the channel of a block in the other order it
    /// comes from (reading: the file channel of each client channel; writing: the client
    /// channel of each file channel); nil when the client's layout is the file's.
    private var channelOrder: [Int]?
    /// The converter's view of a block in ``channelOrder`` (allocated once).
    private let reordered: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    /// The file's data format (ASBD).
    let fileFormat: StreamFormat
    /// The format the program reads or writes in: the file's data format until set (float
    /// non-interleaved at the file's rate for a compressed file).
    private(set) var client: PCMBufferCodec
    private var converter: SampleRateConverter
    /// Frames converted to the client's rate and not yet handed out (reading).
    private var pending: PendingFrames
    private var readerFinished = false
    /// The client frame the next read returns (`ExtAudioFileTell`).
    private(set) var clientPosition = 0
    private let block: OwnedAudioBuffers
    static let blockFrames = 4096

    var channels: Int { fileFormat.channelsPerFrame }
    var clientFormat: StreamFormat { client.format }

    /// An ExtAudioFile over `audioFile` (read or written as it is open), which it closes at
    /// ``close()`` when it `owns` it.
    init(audioFile: AudioFileHandle, owns: Bool) throws(AudioUnitError) {
        self.audioFile = audioFile
        ownsAudioFile = owns
        fileFormat = audioFile.dataFormat
        let channels = fileFormat.channelsPerFrame
        client = PCMBufferCodec(fileFormat) ?? PCMBufferCodec(.canonical(sampleRate: fileFormat.sampleRate, channels: channels))!
        converter = try SampleRateConverter(channels: channels, inputRate: fileFormat.sampleRate, outputRate: fileFormat.sampleRate)
        pending = PendingFrames(channels: channels)
        block = OwnedAudioBuffers(channels: channels, capacity: Self.blockFrames)
        reordered = .allocate(capacity: channels)
    }

    deinit { reordered.deallocate() }

    /// The file's length in frames (at the file's rate): what it holds, or what was written.
    var fileLengthFrames: Int { reader?.info.frames ?? writer?.framesWritten ?? 0 }

    /// Sets the client format: linear PCM with the file's channel count, any rate (resampled
    /// from or to the file's). Reading goes on from the same time in the file.
    func setClientFormat(_ format: StreamFormat) throws(StatusError) {
        guard format.formatID == "lpcm" else { throw StatusError(kExtAudioFileError_NonPCMClientFormat) }
        guard format.channelsPerFrame == channels, format.sampleRate > 0, let codec = PCMBufferCodec(format) else {
            throw StatusError(kExtAudioFileError_InvalidDataFormat)
        }
        if let writer, writer.framesWritten > 0 { throw StatusError(kExtAudioFileError_InvalidOperationOrder) }
        let seconds = Double(clientPosition) / client.format.sampleRate
        do {
            converter = try SampleRateConverter(channels: channels, inputRate: reader != nil ? fileFormat.sampleRate : format.sampleRate,
                                                outputRate: reader != nil ? format.sampleRate : fileFormat.sampleRate)
        } catch {
            throw StatusError(kExtAudioFileError_InvalidDataFormat)
        }
        client = codec
        if reader != nil { try seek(toClientFrame: Int((seconds * format.sampleRate).rounded())) }
    }

    /// The file's channel layout: the one set over it (reading), else the AudioFileID's.
    var fileLayout: ChannelLayout { fileLayoutOverride ?? audioFile.channelLayout }

    /// Sets the file's channel layout: written into a file being written before its first
    /// frame (AudioFileHandle.setChannelLayout); over the one a file being read has, as Apple
    /// does, before the client's layout is set (kExtAudioFileError_InvalidOperationOrder
    /// after it), of the file's channel count (kExtAudioFileError_InvalidChannelMap).
    func setFileLayout(_ layout: ChannelLayout) throws(StatusError) {
        guard reader != nil else { return try audioFile.setChannelLayout(layout) }
        guard clientLayout == nil else { throw StatusError(kExtAudioFileError_InvalidOperationOrder) }
        guard layout.channelCount == channels else { throw StatusError(kExtAudioFileError_InvalidChannelMap) }
        fileLayoutOverride = layout
    }

    /// Sets the client's channel layout, one of the file's channel count: the file's
    /// channels in another order are remapped (read and written in the client's order);
    /// where either layout names no channels (an unknown or discrete one) they are taken in
    /// the file's order. Another count, or labels that are not the file's each once, are
    /// kExtAudioFileError_InvalidChannelMap; a file written to already
    /// kExtAudioFileError_InvalidOperationOrder. Reading goes on from the same client frame.
    func setClientLayout(_ layout: ChannelLayout) throws(StatusError) {
        guard layout.channelCount == channels else { throw StatusError(kExtAudioFileError_InvalidChannelMap) }
        if let writer, writer.framesWritten > 0 { throw StatusError(kExtAudioFileError_InvalidOperationOrder) }
        var order: [Int]?
        if let wanted = layout.labels, let held = fileLayout.labels, wanted != held {
            let (targets, sources) = reader != nil ? (wanted, held) : (held, wanted)
            let mapped = targets.compactMap { sources.firstIndex(of: $0) }
            guard mapped.count == channels, Set(mapped).count == channels else { throw StatusError(kExtAudioFileError_InvalidChannelMap) }
            order = mapped
        }
        clientLayout = layout
        channelOrder = order
        if reader != nil { try seek(toClientFrame: clientPosition) }
    }

    /// `buffers` as the converter takes them: in ``channelOrder`` when there is one.
    private func inChannelOrder(_ buffers: AudioBuffers) -> AudioBuffers {
        guard let channelOrder else { return buffers }
        for (index, source) in channelOrder.enumerated() { reordered[index] = buffers.channelPointers[source] }
        return AudioBuffers(channelPointers: reordered, frameCount: buffers.frameCount)
    }

    // MARK: - Reading

    /// Reads up to `frames` client frames into `list`; returns how many (0 at the end).
    func read(frames: Int, into list: UnsafeMutablePointer<AudioBufferList>) throws -> Int {
        guard let reader else { throw StatusError(kExtAudioFileError_InvalidOperationOrder) }
        guard client.pointers(list, offset: 0, frames: frames) != nil else { throw StatusError(kAudio_ParamError) }
        let scratch = OwnedAudioBuffers(channels: channels, capacity: Self.blockFrames)
        var produced = 0
        while produced < frames {
            if pending.count > 0 {
                produced += pending.drain(frames - produced, to: client, list: list, offset: produced, scratch: scratch)
                continue
            }
            if readerFinished { break }
            if reader.position != fileFrame { try reader.seek(toFrame: fileFrame) }
            let got = try reader.read(into: block.buffers(frameCount: Self.blockFrames))
            fileFrame = reader.position
            let collect: (AudioBuffers) throws(AudioUnitError) -> Void = { self.pending.append($0) }
            if got > 0 {
                try converter.process(inChannelOrder(block.buffers(frameCount: got)), emit: collect)
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
        let fileFrame = Int((Double(frame) * fileFormat.sampleRate / client.format.sampleRate).rounded(.down))
        guard frame >= 0, fileFrame <= reader.info.frames else { throw StatusError(kExtAudioFileError_InvalidSeek) }
        do {
            try reader.seek(toFrame: fileFrame)
            self.fileFrame = fileFrame
            converter = try SampleRateConverter(channels: channels, inputRate: fileFormat.sampleRate, outputRate: client.format.sampleRate)
        } catch {
            throw StatusError(kExtAudioFileError_InvalidSeek)
        }
        pending.removeAll()
        readerFinished = false
        clientPosition = frame
    }

    // MARK: - Writing

    /// Writes `frames` client frames from `list` (converted and resampled to the file's).
    func write(frames: Int, from list: UnsafePointer<AudioBufferList>) throws {
        guard let writer else { throw StatusError(kExtAudioFileError_InvalidOperationOrder) }
        guard let pointers = client.pointers(UnsafeMutablePointer(mutating: list), offset: 0, frames: frames) else { throw StatusError(kAudio_ParamError) }
        var done = 0
        while done < frames {
            let count = min(Self.blockFrames, frames - done)
            let view = block.buffers(frameCount: count)
            client.decode(pointers.map { UnsafeRawPointer($0 + done * client.format.bytesPerFrame) }, frames: count, into: view)
            try converter.process(inChannelOrder(view)) { (emitted: AudioBuffers) throws(AudioUnitError) in try writer.write(emitted) }
            done += count
        }
    }

    /// Writes the converter's last frames; then, when the ExtAudioFile owns its AudioFileID,
    /// finishes a written file (it appears whole) and lets the AudioFileID go.
    func close() throws(AudioUnitError) {
        if ownsAudioFile { AudioFileHandle.live.unregister(audioFile) }
        guard let writer, !writer.isFinished else { return }
        try converter.finish { (emitted: AudioBuffers) throws(AudioUnitError) in try writer.write(emitted) }
        if ownsAudioFile { try writer.finish() }
    }
}
