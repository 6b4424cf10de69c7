import AUCore
import AUFiles

/// An offline render's output kept in memory, one growing array per channel, metered for
/// the render's report (sample peak and RMS; no true peak: its 4× oversampling would cost
/// more than most chains) or not at all (a stream) (``ChainProcessor``).
/// - Thread: [control] the job's thread.
final class MemorySink: OfflineSink {
    /// The samples written, per channel.
    private(set) var channels: [[Float]]
    private let meter: LevelMeter?

    /// An empty output of `channelCount` channels with room for `expectedFrames`, metered
    /// when `metered`, in `storage`'s arrays when it has as many (a previous output handed
    /// back: its pages are not allocated and faulted in again).
    init(channelCount: Int, expectedFrames: Int, metered: Bool, storage: consuming [[Float]] = []) {
        var arrays = storage
        if arrays.count != channelCount { arrays = Array(repeating: [], count: channelCount) }
        for channel in arrays.indices {
            arrays[channel].removeAll(keepingCapacity: true)
            arrays[channel].reserveCapacity(expectedFrames)
        }
        channels = arrays
        meter = metered ? LevelMeter(channels: channelCount, measuresTruePeak: false) : nil
    }

    func write(_ buffers: AudioBuffers) throws(AudioUnitError) {
        for channel in channels.indices {
            channels[channel].append(contentsOf: UnsafeBufferPointer(start: buffers.channelPointers[channel], count: buffers.frameCount))
        }
        meter?.process(buffers)
    }

    func finish() throws(AudioUnitError) -> AudioLevels {
        (meter ?? LevelMeter(channels: max(1, channels.count), measuresTruePeak: false)).levels()
    }

    func cancel() {
        channels = channels.map { _ in [] }
    }
}
