import AUCore
import AUFiles

/// An offline render's output kept in memory, one growing array per channel, metered as a
/// file's output is (``ChainProcessor``).
/// - Thread: [control] the job's thread.
final class MemorySink: OfflineSink {
    /// The samples written, per channel.
    private(set) var channels: [[Float]]
    private let meter: LevelMeter

    /// An empty output of `channelCount` channels with room for `expectedFrames`.
    init(channelCount: Int, expectedFrames: Int) {
        channels = Array(repeating: [], count: channelCount)
        for channel in channels.indices { channels[channel].reserveCapacity(expectedFrames) }
        meter = LevelMeter(channels: channelCount)
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
