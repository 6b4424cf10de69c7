import AUCore

/// Renders one initialized unit block by block over buffers allocated once, through
/// ``AudioUnit/renderCycleFromDriver(timestamp:frameCount:inputs:outputs:midi:)``; an
/// output unit (`auou`) as auval renders one, through `AudioUnitRender`
/// (``AudioUnit/render(flags:timestamp:outputBus:buffers:)``), which pulls its input from a
/// render callback on each input bus. Nothing between two render calls of
/// ``renderBlock(frames:midi:)`` allocates, so the allocation test can bracket the calls alone.
/// Used by one thread at a time (the allocation test hands it to a thread of its own).
/// - Thread: [control] (it plays the render thread itself, one cycle at a time).
final class UnitRenderer: @unchecked Sendable {
    let unit: AudioUnit
    /// The most frames one block may have (may exceed the unit's MaximumFramesPerSlice, to
    /// ask it for more than it allows).
    let capacity: Int
    private let inputs: [OwnedAudioBuffers]
    private let outputs: [OwnedAudioBuffers]
    private let inputViews: UnsafeMutableBufferPointer<AudioBuffers>
    private let outputViews: UnsafeMutableBufferPointer<AudioBuffers>
    /// The next block's sample time (a test may line two renderers up).
    var sampleTime = 0.0
    /// Whether blocks are pulled (`AudioUnitRender`, an output unit) rather than pushed.
    let pulls: Bool

    init(unit: AudioUnit, capacity: Int) throws(AudioUnitError) {
        self.unit = unit
        self.capacity = capacity
        let inputs = unit.formats(.input).map { OwnedAudioBuffers(channels: $0.channelsPerFrame, capacity: capacity) }
        self.inputs = inputs
        outputs = unit.formats(.output).map { OwnedAudioBuffers(channels: $0.channelsPerFrame, capacity: capacity) }
        inputViews = .allocate(capacity: inputs.count)
        outputViews = .allocate(capacity: outputs.count)
        for (index, owned) in inputs.enumerated() { inputViews.initializeElement(at: index, to: owned.buffers()) }
        for (index, owned) in outputs.enumerated() { outputViews.initializeElement(at: index, to: owned.buffers()) }
        pulls = unit.componentDescription.type == ComponentType.output
        guard pulls else { return }
        for (bus, owned) in inputs.enumerated() {
            // The block's input, handed over when the unit pulls it.
            try unit.setValue(RenderCallback { _, _, _, buffers in
                buffers.copy(from: owned.buffers(frameCount: buffers.frameCount))
                return 0
            }, for: .setRenderCallback, scope: .input, element: bus)
        }
    }

    deinit {
        inputViews.deallocate()
        outputViews.deallocate()
    }

    /// Channels of every input bus, in order.
    var inputChannelCount: Int { inputs.reduce(0) { $0 + $1.channelCount } }
    /// Channels of every output bus, in order.
    var outputChannelCount: Int { outputs.reduce(0) { $0 + $1.channelCount } }

    /// Writes the next block's input: `sample(channel, frame)` over every input channel
    /// (buses in order), frames counted from the block's start.
    func fillInput(frames: Int, _ sample: (Int, Int) -> Float) {
        var flat = 0
        for owned in inputs {
            let view = owned.buffers(frameCount: frames)
            for channel in 0..<owned.channelCount {
                for frame in 0..<frames { view[channel][frame] = sample(flat, frame) }
                flat += 1
            }
        }
    }

    /// Renders one block of `frames` over the filled input; the status is the unit's.
    func renderBlock(frames: Int, midi: UnsafeBufferPointer<MIDIEvent> = UnsafeBufferPointer(start: nil, count: 0)) -> AudioUnitStatus {
        for index in inputViews.indices { inputViews[index].frameCount = frames }
        for index in outputViews.indices { outputViews[index].frameCount = frames }
        let timestamp = RenderTimestamp(sampleTime: sampleTime)
        sampleTime += Double(frames)
        guard pulls else {
            return unit.renderCycleFromDriver(
                timestamp: timestamp, frameCount: frames, inputs: UnsafeBufferPointer(inputViews), outputs: UnsafeBufferPointer(outputViews), midi: midi)
        }
        for bus in outputViews.indices {
            var flags = RenderFlags()
            let status = unit.render(flags: &flags, timestamp: timestamp, outputBus: bus, buffers: outputViews[bus])
            if status != 0 { return status }
        }
        return 0
    }

    /// The last block's output, every channel of every bus in order.
    func lastOutput(frames: Int) -> [[Float]] {
        outputs.flatMap { owned in (0..<owned.channelCount).map { Array(owned.buffers(frameCount: frames)[$0]) } }
    }

    /// The events of `midi` (at absolute frames) in the block of `frames` from `start`, at offsets within it.
    static func events(_ midi: [MIDIEvent], from start: Int, frames: Int) -> [MIDIEvent] {
        midi.filter { Int($0.offset) >= start && Int($0.offset) < start + frames }.map { event in
            var shifted = event
            shifted.offset -= Int32(start)
            return shifted
        }
    }

    /// Renders `frameCount` frames in blocks of `block`: `input(channel, frame)` by absolute
    /// frame, `midi` at absolute frames, `beforeBlock(start, frames)` called before each
    /// block (to schedule parameter events). Returns every output channel; a render status
    /// other than 0 is thrown as a failure naming the frame.
    func render(
        frameCount: Int, block: Int, input: (Int, Int) -> Float = { _, _ in 0 }, midi: [MIDIEvent] = [],
        beforeBlock: (Int, Int) throws -> Void = { _, _ in }
    ) throws -> [[Float]] {
        var result = [[Float]](repeating: [], count: outputChannelCount)
        for index in result.indices { result[index].reserveCapacity(frameCount) }
        var start = 0
        while start < frameCount {
            let frames = min(block, frameCount - start)
            fillInput(frames: frames) { input($0, start + $1) }
            try beforeBlock(start, frames)
            let events = UnitRenderer.events(midi, from: start, frames: frames)
            let status = events.withUnsafeBufferPointer { renderBlock(frames: frames, midi: $0) }
            guard status == 0 else {
                throw ValidationFailure("render of \(frames) frames at frame \(start) returned \(statusName(status))")
            }
            for (index, channel) in lastOutput(frames: frames).enumerated() { result[index] += channel }
            start += frames
        }
        return result
    }
}
