import CAUPluginABI

/// The audio of one slice of a render call, as a unit's ``PluginUnit/process(_:)`` sees
/// it: plain Swift buffers per channel over the host's memory, `frameCount` frames each.
/// The SDK cuts a render call into slices at its events, so parameter values and MIDI
/// messages apply at their exact frame. Making and using a block allocates nothing.
///
/// An input and an output channel may share memory (in-place processing): read sample
/// `i` of the inputs before writing sample `i` of the outputs.
/// - Thread: [render]
public struct AudioBlock {
    @usableFromInline let process: UnsafePointer<auhost_process>
    /// The first frame of this slice within the render call.
    public let offset: Int
    /// How many frames to produce.
    public let frameCount: Int
    /// The sample time of the slice's first frame.
    public let sampleTime: Double

    @usableFromInline
    init(process: UnsafePointer<auhost_process>, offset: Int, frameCount: Int) {
        self.process = process
        self.offset = offset
        self.frameCount = frameCount
        sampleTime = process.pointee.sample_time + Double(offset)
    }

    /// The host's transport at the render call's first frame (tempo, bar and beat,
    /// rolling; this slice starts ``offset`` frames later), nil when the host gives none.
    /// - Thread: [render]
    @inlinable public var transport: PluginTransportState? {
        guard let pointer = process.pointee.transport else { return nil }
        return PluginTransportState(pointer.pointee)
    }

    /// How many input buses the host passed.
    /// - Thread: [render]
    @inlinable public var inputBusCount: Int { Int(process.pointee.input_bus_count) }
    /// How many output buses the host passed.
    /// - Thread: [render]
    @inlinable public var outputBusCount: Int { Int(process.pointee.output_bus_count) }

    /// How many channels input bus `bus` has (0 when there is no such bus).
    /// - Thread: [render]
    @inlinable
    public func inputChannelCount(bus: Int = 0) -> Int {
        bus < inputBusCount ? Int(process.pointee.inputs[bus].channel_count) : 0
    }

    /// How many channels output bus `bus` has (0 when there is no such bus).
    /// - Thread: [render]
    @inlinable
    public func outputChannelCount(bus: Int = 0) -> Int {
        bus < outputBusCount ? Int(process.pointee.outputs[bus].channel_count) : 0
    }

    /// The samples of one input channel. Precondition: the bus and channel exist.
    /// - Thread: [render]
    @inlinable
    public func input(_ channel: Int, bus: Int = 0) -> UnsafeMutableBufferPointer<Float> {
        UnsafeMutableBufferPointer(start: process.pointee.inputs[bus].channels[channel]! + offset, count: frameCount)
    }

    /// The samples of one output channel, to fill. Precondition: the bus and channel exist.
    /// - Thread: [render]
    @inlinable
    public func output(_ channel: Int, bus: Int = 0) -> UnsafeMutableBufferPointer<Float> {
        UnsafeMutableBufferPointer(start: process.pointee.outputs[bus].channels[channel]! + offset, count: frameCount)
    }

    /// Writes zeros into every channel of every output bus.
    /// - Thread: [render]
    @inlinable
    public func clearOutputs() {
        for bus in 0..<outputBusCount {
            for channel in 0..<outputChannelCount(bus: bus) { output(channel, bus: bus).update(repeating: 0) }
        }
    }

    /// Reports the value of an output parameter (a meter, gain reduction) at this slice's
    /// first frame. Dropped silently when the host's list is full.
    /// - Thread: [render]
    @inlinable
    public func report(_ id: UInt32, value: Float) {
        _ = appendOutputEvent(auhost_event(offset: UInt32(offset), kind: AUHOST_EVENT_PARAMETER, id: id, value: value, midi: (0, 0, 0, 0)))
    }

    /// Sends a MIDI message out of the unit at `frame` of this slice (0 ..< ``frameCount``;
    /// clamped into it), for a unit whose descriptor declares ``UnitDescriptor/sendsMIDI``
    /// (the host ignores it otherwise). Send in frame order: a render call's messages must
    /// reach the host sorted by frame. False when the host's list is full and the message
    /// was dropped (it has room for at least 256 per render call).
    /// - Thread: [render] No allocation.
    @inlinable @discardableResult
    public func sendMIDI(_ message: PluginMIDIEvent, at frame: Int = 0) -> Bool {
        let within = offset + min(max(frame, 0), max(frameCount - 1, 0))
        return appendOutputEvent(auhost_event(
            offset: UInt32(within), kind: AUHOST_EVENT_MIDI, id: 0, value: 0, midi: (message.status, message.data1, message.data2, 0)))
    }

    /// Tells the host that every sample this slice wrote into its output channels is finite:
    /// the unit checked as it wrote them (``scale(_:by:into:)`` says so). When every slice of
    /// a render call did, the host skips its own scan of the unit's output for NaN and
    /// infinity; call it only for a slice whose every output sample was checked. Dropped
    /// when the host's list is full (the host then scans).
    /// - Thread: [render]
    @inlinable
    public func reportOutputsFinite() {
        _ = appendOutputEvent(auhost_event(offset: UInt32(offset), kind: AUHOST_EVENT_OUTPUT_FINITE, id: UInt32(frameCount), value: 0, midi: (0, 0, 0, 0)))
    }

    /// Appends an event to the render call's output events; false when the list is full.
    /// - Thread: [render]
    @inlinable
    func appendOutputEvent(_ event: auhost_event) -> Bool {
        let process = process.pointee
        guard let counter = process.output_event_count, let events = process.output_events else { return false }
        let count = counter.pointee
        guard count < process.output_event_capacity else { return false }
        events[Int(count)] = event
        counter.pointee = count + 1
        return true
    }
}
