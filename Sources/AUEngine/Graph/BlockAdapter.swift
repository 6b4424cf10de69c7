import AUCore

/// Gives a unit that renders only blocks of exactly `blockSize` frames those blocks,
/// whatever the cycle length: input is gathered into a block, the unit renders it, and its
/// output is played back one block later (``blockSize`` frames of added latency, reported
/// to delay compensation).
/// - Thread: [control] init/deinit; ``render(_:inputs:outputs:offset:frames:sampleTime:)``
///   on the render thread.
final class BlockAdapter: @unchecked Sendable {
    let blockSize: Int
    private let inputBuffers: [OwnedAudioBuffers]
    private let outputBuffers: [OwnedAudioBuffers]
    private let inputViews: UnsafeMutableBufferPointer<AudioBuffers>
    private let outputViews: UnsafeMutableBufferPointer<AudioBuffers>
    private var position = 0
    private var blockStart: Double = 0

    init(blockSize: Int, inputChannels: [Int], outputChannels: [Int]) {
        self.blockSize = blockSize
        inputBuffers = inputChannels.map { OwnedAudioBuffers(channels: $0, capacity: blockSize) }
        outputBuffers = outputChannels.map { OwnedAudioBuffers(channels: $0, capacity: blockSize) }
        inputViews = .allocate(capacity: inputBuffers.count)
        outputViews = .allocate(capacity: outputBuffers.count)
        for (index, owned) in inputBuffers.enumerated() { inputViews.initializeElement(at: index, to: owned.buffers()) }
        for (index, owned) in outputBuffers.enumerated() { outputViews.initializeElement(at: index, to: owned.buffers()) }
    }

    deinit {
        inputViews.deallocate()
        outputViews.deallocate()
    }

    /// Moves `frames` frames (from `offset` in the given views) through the block buffers,
    /// rendering a block with `unit` each time one fills. Returns the first failing status.
    /// - Thread: [render]
    func render(
        _ unit: AudioUnit, inputs: UnsafeBufferPointer<AudioBuffers>, outputs: UnsafeBufferPointer<AudioBuffers>,
        offset: Int, frames: Int, sampleTime: Double
    ) -> AudioUnitStatus {
        var done = 0
        var status: AudioUnitStatus = 0
        while done < frames {
            if position == 0 { blockStart = sampleTime + Double(done) }
            let count = min(frames - done, blockSize - position)
            for bus in 0..<min(inputs.count, inputViews.count) {
                let source = inputs[bus]
                let target = inputViews[bus]
                for channel in 0..<min(source.channelCount, target.channelCount) {
                    (target.channelPointers[channel] + position).update(from: source.channelPointers[channel] + offset + done, count: count)
                }
            }
            for bus in 0..<min(outputs.count, outputViews.count) {
                let source = outputViews[bus]
                let target = outputs[bus]
                for channel in 0..<target.channelCount {
                    let destination = target.channelPointers[channel] + offset + done
                    if channel < source.channelCount {
                        destination.update(from: source.channelPointers[channel] + position, count: count)
                    } else {
                        destination.update(repeating: 0, count: count)
                    }
                }
            }
            position += count
            done += count
            if position == blockSize {
                position = 0
                let result = unit.renderCycleFromGraph(
                    timestamp: RenderTimestamp(sampleTime: blockStart), frameCount: blockSize,
                    inputs: UnsafeBufferPointer(inputViews), outputs: UnsafeBufferPointer(outputViews),
                    midi: UnsafeBufferPointer(start: nil, count: 0))
                if result != 0 && status == 0 { status = result }
            }
        }
        return status
    }
}
