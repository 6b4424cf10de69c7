import AUCore
import AUFiles

/// An offline render's output kept in memory, one growing array per channel, metered for
/// the render's report: sample peak and RMS, no true peak (its 4× oversampling would cost
/// more than most chains) (``ChainProcessor``).
/// - Thread: [control] the job's thread.
final class MemorySink: OfflineSink {
    /// The samples written, per channel.
    private(set) var channels: [[Float]]
    private let meter: LevelMeter

    /// An empty output of `channelCount` channels with room for `expectedFrames`, in
    /// `storage`'s arrays when it has as many (a previous output handed back: its pages are
    /// not allocated and faulted in again).
    init(channelCount: Int, expectedFrames: Int, storage: consuming [[Float]] = []) {
        var arrays = storage
        if arrays.count != channelCount { arrays = Array(repeating: [], count: channelCount) }
        for channel in arrays.indices {
            arrays[channel].removeAll(keepingCapacity: true)
            arrays[channel].reserveCapacity(expectedFrames)
        }
        channels = arrays
        meter = LevelMeter(channels: channelCount, measuresTruePeak: false)
    }

    func write(_ buffers: AudioBuffers) throws(AudioUnitError) {
        for channel in channels.indices {
            channels[channel].append(contentsOf: UnsafeBufferPointer(start: buffers.channelPointers[channel], count: buffers.frameCount))
        }
        meter.process(buffers)
    }

    func finish() throws(AudioUnitError) -> AudioLevels { meter.levels() }

    func cancel() {
        channels = channels.map { _ in [] }
    }
}
