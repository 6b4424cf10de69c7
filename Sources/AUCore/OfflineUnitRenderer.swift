/// Renders one initialized unit offline, block by block, through
/// ``AudioUnit/renderCycleFromDriver(timestamp:frameCount:inputs:outputs:midi:)``: the loop a probe
/// and the tests use in place of a JACK callback.
/// - Thread: [control] (it plays the render thread itself, one cycle at a time).
public struct OfflineUnitRenderer {
    public let unit: AudioUnit
    public let blockSize: Int
    private let inputs: [OwnedAudioBuffers]
    private let outputs: [OwnedAudioBuffers]
    private var sampleTime: Double = 0

    /// Buffers for every bus of `unit`, `blockSize` frames each (≤ MaximumFramesPerSlice).
    /// - Thread: [control]
    public init(unit: AudioUnit, blockSize: Int) {
        self.unit = unit
        self.blockSize = blockSize
        inputs = unit.formats(.input).map { OwnedAudioBuffers(channels: $0.channelsPerFrame, capacity: blockSize) }
        outputs = unit.formats(.output).map { OwnedAudioBuffers(channels: $0.channelsPerFrame, capacity: blockSize) }
    }

    /// Renders `frameCount` frames. `input(bus, channel, frame)` gives input samples by
    /// absolute frame; `midi` events have absolute frame offsets. Returns the output
    /// samples as `[bus][channel][frame]`.
    /// - Thread: [control]
    public mutating func render(
        frameCount: Int, midi: [MIDIEvent] = [], input: (Int, Int, Int) -> Float = { _, _, _ in 0 }
    ) throws(AudioUnitError) -> [[[Float]]] {
        var result = outputs.map { [[Float]](repeating: [], count: $0.channelCount) }
        var start = 0
        while start < frameCount {
            let frames = min(blockSize, frameCount - start)
            for (bus, owned) in inputs.enumerated() {
                let view = owned.buffers(frameCount: frames)
                for channel in 0..<owned.channelCount {
                    for frame in 0..<frames { view[channel][frame] = input(bus, channel, start + frame) }
                }
            }
            let events = midi.filter { Int($0.offset) >= start && Int($0.offset) < start + frames }.map { event -> MIDIEvent in
                var shifted = event
                shifted.offset -= Int32(start)
                return shifted
            }
            let inputViews = inputs.map { $0.buffers(frameCount: frames) }
            let outputViews = outputs.map { $0.buffers(frameCount: frames) }
            let status = inputViews.withUnsafeBufferPointer { inputPointer in
                outputViews.withUnsafeBufferPointer { outputPointer in
                    events.withUnsafeBufferPointer { midiPointer in
                        unit.renderCycleFromDriver(
                            timestamp: RenderTimestamp(sampleTime: sampleTime), frameCount: frames, inputs: inputPointer,
                            outputs: outputPointer, midi: midiPointer)
                    }
                }
            }
            guard status == 0 else { throw AudioUnitError(status: status, context: "\(unit.name): render at frame \(start)") }
            for (bus, view) in outputViews.enumerated() {
                for channel in 0..<view.channelCount { result[bus][channel] += view[channel] }
            }
            sampleTime += Double(frames)
            start += frames
        }
        return result
    }
}
