/// Everything a unit's render path touches, allocated when the unit is initialized and
/// freed when it is uninitialized: bus buffers, the views handed to `process`, the MIDI
/// events of the current cycle and its ``ParameterScheduler``.
/// - Thread: [control] creates and releases it; [render] uses it.
final class RenderResources: @unchecked Sendable {
    let inputs: [OwnedAudioBuffers]
    let outputs: [OwnedAudioBuffers]
    let inputViews: UnsafeMutableBufferPointer<AudioBuffers>
    let outputViews: UnsafeMutableBufferPointer<AudioBuffers>
    /// The ``BufferStamp`` of `inputViews` and `outputViews`, whose channel pointers never move.
    let viewsStamp = BufferStamp.next()
    /// Channel pointers of slice views: inputs then outputs.
    private let sliceChannels: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    private let sliceInputViews: UnsafeMutableBufferPointer<AudioBuffers>
    private let sliceOutputViews: UnsafeMutableBufferPointer<AudioBuffers>
    private let inputChannelCount: Int

    let midi: UnsafeMutablePointer<MIDIEvent>
    /// The unit's MIDI output, for a unit that has one.
    let midiOutput: UnsafeMutablePointer<MIDIOutputList>?
    let scheduler = ParameterScheduler()

    /// Whether the unit renders only power-of-two blocks (``BlockSizeRequirement/powerOfTwo``):
    /// the scheduler then splits the slices it cuts into such blocks.
    let rendersPowerOfTwoBlocks: Bool

    var lastSampleTime = -Double.infinity
    var lastFrameCount = 0
    /// MIDI events that did not fit in a cycle (more than ``AudioUnit/eventCapacity``).
    var droppedMIDIInput = 0

    init(inputs: [BusConfiguration], outputs: [BusConfiguration], maximumFrames: Int, powerOfTwoBlocks: Bool, midiOutput: Bool) {
        rendersPowerOfTwoBlocks = powerOfTwoBlocks
        self.inputs = inputs.map { OwnedAudioBuffers(channels: $0.format.channelsPerFrame, capacity: maximumFrames) }
        self.outputs = outputs.map { OwnedAudioBuffers(channels: $0.format.channelsPerFrame, capacity: maximumFrames) }
        inputViews = .allocate(capacity: inputs.count)
        outputViews = .allocate(capacity: outputs.count)
        for (index, owned) in self.inputs.enumerated() { inputViews.initializeElement(at: index, to: owned.buffers()) }
        for (index, owned) in self.outputs.enumerated() { outputViews.initializeElement(at: index, to: owned.buffers()) }
        inputChannelCount = inputs.reduce(0) { $0 + $1.format.channelsPerFrame }
        let totalChannels = inputChannelCount + outputs.reduce(0) { $0 + $1.format.channelsPerFrame }
        sliceChannels = .allocate(capacity: totalChannels)
        sliceChannels.initialize(repeating: UnsafeMutablePointer<Float>(bitPattern: 0x10)!)
        sliceInputViews = .allocate(capacity: inputs.count)
        sliceOutputViews = .allocate(capacity: outputs.count)
        var channel = 0
        for (index, bus) in inputs.enumerated() {
            let count = bus.format.channelsPerFrame
            sliceInputViews.initializeElement(at: index, to: AudioBuffers(channelPointers: UnsafeMutableBufferPointer(rebasing: sliceChannels[channel..<channel + count]), frameCount: 0))
            channel += count
        }
        for (index, bus) in outputs.enumerated() {
            let count = bus.format.channelsPerFrame
            sliceOutputViews.initializeElement(at: index, to: AudioBuffers(channelPointers: UnsafeMutableBufferPointer(rebasing: sliceChannels[channel..<channel + count]), frameCount: 0))
            channel += count
        }
        midi = .allocate(capacity: AudioUnit.eventCapacity)
        if midiOutput {
            let list = UnsafeMutablePointer<MIDIOutputList>.allocate(capacity: 1)
            list.initialize(to: MIDIOutputList())
            self.midiOutput = list
        } else {
            self.midiOutput = nil
        }
    }

    deinit {
        inputViews.deallocate()
        outputViews.deallocate()
        sliceChannels.deallocate()
        sliceInputViews.deallocate()
        sliceOutputViews.deallocate()
        midi.deallocate()
        if let midiOutput {
            midiOutput.pointee.deallocate()
            midiOutput.deallocate()
        }
    }

    /// Sets the frame count of the full-cycle views.
    /// - Thread: [render]
    func prepareViews(frameCount: Int) {
        for index in inputViews.indices { inputViews[index].frameCount = frameCount }
        for index in outputViews.indices { outputViews[index].frameCount = frameCount }
    }

    /// Views of `frames` frames of `buses` starting at `offset`, in preallocated storage.
    /// Buses whose channel counts differ from the unit's formats keep as many channels as fit.
    /// - Thread: [render]
    func sliceViews(of buses: UnsafeBufferPointer<AudioBuffers>, input: Bool, offset: Int, frames: Int) -> UnsafeBufferPointer<AudioBuffers> {
        let views = input ? sliceInputViews : sliceOutputViews
        for bus in 0..<min(views.count, buses.count) {
            let source = buses[bus]
            let target = views[bus].channelPointers
            for channel in 0..<target.count {
                target[channel] = channel < source.channelCount ? source.channelPointers[channel] + offset : source.channelPointers[0] + offset
            }
            views[bus].frameCount = frames
        }
        return UnsafeBufferPointer(views)
    }

    /// Merges the waiting MIDI events and the caller's into this cycle's list, sorted by
    /// offset (stable), offsets clamped into the cycle.
    /// - Thread: [render]
    func takeMIDIEvents(
        from ring: SharedProducerRing<MIDIEvent>, adding extra: UnsafeBufferPointer<MIDIEvent>, frameCount: Int
    ) -> Int {
        var count = 0
        for event in extra where count < AudioUnit.eventCapacity { insertMIDI(event, count: &count, frameCount: frameCount) }
        droppedMIDIInput &+= max(0, extra.count - AudioUnit.eventCapacity)
        while count < AudioUnit.eventCapacity, let event = ring.pop() { insertMIDI(event, count: &count, frameCount: frameCount) }
        return count
    }

    /// Inserts one event in offset order (a method, not a nested function: a nested function
    /// capturing `count` boxes it on the heap in debug builds).
    /// - Thread: [render]
    @inline(__always)
    private func insertMIDI(_ event: MIDIEvent, count: inout Int, frameCount: Int) {
        var event = event
        event.offset = max(0, min(event.offset, Int32(max(0, frameCount - 1))))
        midi.insertSorted(event, count: &count, by: { $0.offset })
    }

    /// Forgets ramps and the cached cycle.
    /// - Thread: [control]
    func clearRunningState() {
        scheduler.clear()
        lastSampleTime = -.infinity
        lastFrameCount = 0
        for owned in inputs + outputs { owned.buffers().clear() }
    }
}
