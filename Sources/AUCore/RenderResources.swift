/// Everything a unit's render path touches, allocated when the unit is initialized and
/// freed when it is uninitialized: bus buffers, the views handed to `process`, the event
/// lists of the current cycle and the ramps in flight.
/// - Thread: created and released on the control thread; used on the render thread.
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

    let events: UnsafeMutablePointer<ParameterEvent>
    let midi: UnsafeMutablePointer<MIDIEvent>
    private let ramps: UnsafeMutablePointer<Ramp>
    private(set) var activeRampCount = 0

    var lastSampleTime = -Double.infinity
    var lastFrameCount = 0

    struct Ramp {
        var slot: Int
        var from: Float
        var to: Float
        var total: Int
        var elapsed: Int
    }

    init(inputs: [BusConfiguration], outputs: [BusConfiguration], maximumFrames: Int) {
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
        events = .allocate(capacity: AudioUnit.eventCapacity)
        midi = .allocate(capacity: AudioUnit.eventCapacity)
        ramps = .allocate(capacity: AudioUnit.eventCapacity)
    }

    deinit {
        inputViews.deallocate()
        outputViews.deallocate()
        sliceChannels.deallocate()
        sliceInputViews.deallocate()
        sliceOutputViews.deallocate()
        events.deallocate()
        midi.deallocate()
        ramps.deallocate()
    }

    /// Sets the frame count of the full-cycle views.
    /// - Thread: render.
    func prepareViews(frameCount: Int) {
        for index in inputViews.indices { inputViews[index].frameCount = frameCount }
        for index in outputViews.indices { outputViews[index].frameCount = frameCount }
    }

    /// Views of `frames` frames of `buses` starting at `offset`, in preallocated storage.
    /// Buses whose channel counts differ from the unit's formats keep as many channels as fit.
    /// - Thread: render.
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

    /// Moves the waiting parameter events into this cycle's list, sorted by offset.
    /// - Thread: render.
    func takeParameterEvents(from ring: SharedProducerRing<ParameterEvent>) -> Int {
        var count = 0
        while count < AudioUnit.eventCapacity, let event = ring.pop() {
            var position = count
            while position > 0 && events[position - 1].offset > event.offset {
                events[position] = events[position - 1]
                position -= 1
            }
            events[position] = event
            count += 1
        }
        return count
    }

    /// Merges the waiting MIDI events and the caller's into this cycle's list, sorted by
    /// offset (stable), offsets clamped into the cycle.
    /// - Thread: render.
    func takeMIDIEvents(
        from ring: SharedProducerRing<MIDIEvent>, renderRing: RealTimeRing<MIDIEvent>, adding extra: UnsafeBufferPointer<MIDIEvent>, frameCount: Int
    ) -> Int {
        var count = 0
        for event in extra where count < AudioUnit.eventCapacity { insertMIDI(event, count: &count, frameCount: frameCount) }
        while count < AudioUnit.eventCapacity, let event = renderRing.pop() { insertMIDI(event, count: &count, frameCount: frameCount) }
        while count < AudioUnit.eventCapacity, let event = ring.pop() { insertMIDI(event, count: &count, frameCount: frameCount) }
        return count
    }

    /// Inserts one event in offset order (a method, not a nested function: a nested function
    /// capturing `count` boxes it on the heap in debug builds).
    /// - Thread: render.
    @inline(__always)
    private func insertMIDI(_ event: MIDIEvent, count: inout Int, frameCount: Int) {
        var event = event
        event.offset = max(0, min(event.offset, Int32(max(0, frameCount - 1))))
        var position = count
        while position > 0 && midi[position - 1].offset > event.offset {
            midi[position] = midi[position - 1]
            position -= 1
        }
        midi[position] = event
        count += 1
    }

    /// Starts (or restarts) a ramp of one parameter slot.
    /// - Thread: render.
    func startRamp(slot: Int, from: Float, to: Float, frames: Int) {
        cancelRamp(slot: slot)
        guard activeRampCount < AudioUnit.eventCapacity else { return }
        ramps[activeRampCount] = Ramp(slot: slot, from: from, to: to, total: frames, elapsed: 0)
        activeRampCount += 1
    }

    /// Stops a ramp, when one runs on `slot`.
    /// - Thread: render.
    func cancelRamp(slot: Int) {
        var index = 0
        while index < activeRampCount {
            if ramps[index].slot == slot {
                activeRampCount -= 1
                ramps[index] = ramps[activeRampCount]
            } else {
                index += 1
            }
        }
    }

    /// Applies each ramp's value at the start of a slice of `frames` frames and advances it;
    /// a ramp that ends within the slice is set to its end value and removed.
    /// - Thread: render.
    func advanceRamps(frames: Int, apply: (Int, Float) -> Void) {
        var index = 0
        while index < activeRampCount {
            var ramp = ramps[index]
            let position = Float(ramp.elapsed) / Float(ramp.total)
            ramp.elapsed += frames
            if ramp.elapsed >= ramp.total {
                apply(ramp.slot, ramp.to)
                activeRampCount -= 1
                ramps[index] = ramps[activeRampCount]
            } else {
                apply(ramp.slot, ramp.from + (ramp.to - ramp.from) * position)
                ramps[index] = ramp
                index += 1
            }
        }
    }

    /// Forgets ramps and the cached cycle.
    /// - Thread: control.
    func clearRunningState() {
        activeRampCount = 0
        lastSampleTime = -.infinity
        lastFrameCount = 0
        for owned in inputs + outputs { owned.buffers().clear() }
    }
}
