internal import AUCore

/// Samples between a program's AudioBufferList in a linear PCM format (any sample type,
/// either byte order, interleaved or not) and AUHost's float non-interleaved buffers: AUCore's
/// SampleConverter in this machine's byte order, big-endian samples swapped. Control side
/// (ExtAudioFile, AudioConverter): it may allocate.
struct PCMBufferCodec {
    let format: StreamFormat
    private let converter: SampleConverter
    private let swapsBytes: Bool

    /// nil for a format that is not linear PCM SampleConverter takes.
    init?(_ format: StreamFormat) {
        var native = format
        native.formatFlags = FormatFlags(rawValue: format.formatFlags.rawValue & ~kAudioFormatFlagIsBigEndian)
        guard format.formatID == "lpcm", let converter = try? SampleConverter(format: native) else { return nil }
        self.format = format
        self.converter = converter
        swapsBytes = format.formatFlags.rawValue & kAudioFormatFlagIsBigEndian != 0 && (format.bitsPerChannel + 7) / 8 > 1
    }

    var channels: Int { format.channelsPerFrame }

    /// The raw buffers of `list` from frame `offset`, or nil when the list does not have the
    /// format's buffer count or does not hold `offset + frames` frames.
    func pointers(_ list: UnsafeMutablePointer<AudioBufferList>, offset: Int, frames: Int) -> [UnsafeMutableRawPointer]? {
        let buffers = UnsafeMutableAudioBufferListPointer(list)
        guard buffers.count == (format.isInterleaved ? 1 : channels) else { return nil }
        var pointers: [UnsafeMutableRawPointer] = []
        for buffer in buffers {
            guard let data = buffer.mData, Int(buffer.mDataByteSize) >= (offset + frames) * format.bytesPerFrame else { return nil }
            pointers.append(data + offset * format.bytesPerFrame)
        }
        return pointers
    }

    /// Reverses the bytes of each sample of `frames` frames at `pointers`.
    private func swap(_ pointers: [UnsafeMutableRawPointer], frames: Int) {
        let size = (format.bitsPerChannel + 7) / 8
        let samples = frames * (format.isInterleaved ? channels : 1)
        for pointer in pointers {
            let bytes = pointer.assumingMemoryBound(to: UInt8.self)
            for sample in 0..<samples {
                let base = bytes + sample * size
                for index in 0..<(size / 2) { Swift.swap(&base[index], &base[size - 1 - index]) }
            }
        }
    }

    /// Writes `frames` float frames of `input` into `pointers` in the format.
    func encode(_ input: AudioBuffers, frames: Int, into pointers: [UnsafeMutableRawPointer]) {
        pointers.withUnsafeBufferPointer { converter.encode(input, frameCount: frames, into: $0) }
        if swapsBytes { swap(pointers, frames: frames) }
    }

    /// Reads `frames` frames at `pointers` (left as they are) into float `output`.
    func decode(_ pointers: [UnsafeRawPointer], frames: Int, into output: AudioBuffers) {
        guard swapsBytes else {
            pointers.withUnsafeBufferPointer { converter.decode($0, frameCount: frames, into: output) }
            return
        }
        let bytes = frames * format.bytesPerFrame
        let copies = pointers.map { pointer -> UnsafeMutableRawPointer in
            let copy = UnsafeMutableRawPointer.allocate(byteCount: max(bytes, 1), alignment: 16)
            copy.copyMemory(from: pointer, byteCount: bytes)
            return copy
        }
        defer { for copy in copies { copy.deallocate() } }
        swap(copies, frames: frames)
        copies.map { UnsafeRawPointer($0) }.withUnsafeBufferPointer { converter.decode($0, frameCount: frames, into: output) }
    }
}

/// Frames converted and waiting to be handed out, per channel (ExtAudioFile reading,
/// AudioConverter output).
struct PendingFrames {
    private var samples: [[Float]]
    private var start = 0

    init(channels: Int) { samples = Array(repeating: [], count: channels) }

    var count: Int { (samples.first?.count ?? 0) - start }

    mutating func append(_ buffers: AudioBuffers) {
        if start > 0 && count == 0 { self = PendingFrames(channels: samples.count) }
        for channel in 0..<samples.count { samples[channel] += buffers[channel] }
    }

    /// Takes up to `frames` frames into `scratch` (whose capacity holds them); returns how many.
    mutating func take(_ frames: Int, into scratch: OwnedAudioBuffers) -> AudioBuffers {
        let taken = min(frames, count, scratch.capacity)
        let view = scratch.buffers(frameCount: taken)
        for channel in 0..<samples.count {
            for frame in 0..<taken { view.channelPointers[channel][frame] = samples[channel][start + frame] }
        }
        start += taken
        return view
    }

    /// Encodes up to `frames` waiting frames into `list` from frame `offset` in `codec`'s
    /// format (through `scratch`); returns how many.
    mutating func drain(_ frames: Int, to codec: PCMBufferCodec, list: UnsafeMutablePointer<AudioBufferList>, offset: Int, scratch: OwnedAudioBuffers) -> Int {
        let taken = take(frames, into: scratch)
        codec.encode(taken, frames: taken.frameCount, into: codec.pointers(list, offset: offset, frames: taken.frameCount)!)
        return taken.frameCount
    }

    mutating func removeAll() { self = PendingFrames(channels: samples.count) }

}
