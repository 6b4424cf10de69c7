import AUCore

/// The render entry point a driver calls each cycle, and what a watchdog reads of it.
extension AudioGraph {
    /// Renders `frameCount` frames of the graph into `output` (the output node's input bus 0),
    /// with `input` as the output node's output bus 0 (silence when nil): the pull of the
    /// generic output unit, and what a JACK or offline driver calls each cycle. Any frame
    /// count works; cycles longer than MaximumFramesPerSlice are split. Adopts a newly
    /// published plan first. Returns 0, or Uninitialized when the graph is not initialized
    /// (the output is then silent). The render notifications (``addRenderNotify(_:)``) are
    /// called before and after, and the render time of one cycle in 32 counts towards ``cpuLoad``. `midi` is the
    /// graph's MIDI input of the cycle (sorted, offsets within it); what reaches the graph's
    /// MIDI output is in ``midiOutputFromRender`` afterwards. When the device that plays the
    /// graph runs at another rate (``resampleOutput(graphRate:deviceRate:channels:)``), the
    /// graph renders at its own, 64 frames at a time, into `frameCount` frames at the device's.
    /// - Thread: [render] No allocation, no lock.
    public func render(
        frameCount: Int, timestamp: RenderTimestamp, input: AudioBuffers? = nil, output: AudioBuffers,
        midi: UnsafeBufferPointer<MIDIEvent> = UnsafeBufferPointer(start: nil, count: 0)
    ) -> AudioUnitStatus {
        if let resampler = outputResampler, frameCount <= output.frameCount {
            // At the graph's own rate, 64 frames at a time, interpolated to the device's.
            let deviceFrames = AudioBuffers(channelPointers: output.channelPointers, frameCount: frameCount)
            return resampler.render(into: deviceFrames) { chunk, sampleTime in
                renderAtOwnRate(
                    frameCount: chunk.frameCount, timestamp: RenderTimestamp(sampleTime: sampleTime, hostTime: timestamp.hostTime), input: nil,
                    output: chunk, midi: UnsafeBufferPointer(start: nil, count: 0))
            }
        }
        return renderAtOwnRate(frameCount: frameCount, timestamp: timestamp, input: input, output: output, midi: midi)
    }

    /// One render of the graph at its own rate, with its notifications and its timing.
    /// - Thread: [render]
    private func renderAtOwnRate(
        frameCount: Int, timestamp: RenderTimestamp, input: AudioBuffers?, output: AudioBuffers, midi: UnsafeBufferPointer<MIDIEvent>
    ) -> AudioUnitStatus {
        // What a render callback or notification may read of the application's input.
        renderer.cycleInput = input
        renderer.cycleInputOffset = 0
        defer { renderer.cycleInput = nil }
        let notifies = !renderNotifies.isEmpty
        if notifies { renderNotifies.notify(.preRender, timestamp: timestamp, bus: 0, buffers: output) }
        let timed = cpuLoadMeter.timesThisCycle()
        let start = timed ? MonotonicClock.nanoseconds() : 0
        let status = renderer.render(frameCount: frameCount, timestamp: timestamp, input: input, output: output, midi: midi)
        if timed { cpuLoadMeter.record(nanoseconds: MonotonicClock.nanoseconds() &- start, frames: frameCount) }
        if notifies { renderNotifies.notify(status == 0 ? .postRender : [.postRender, .postRenderError], timestamp: timestamp, bus: 0, buffers: output) }
        return status
    }

    /// The cycles rendered so far and where the render thread is: what a watchdog reads to
    /// tell a render that makes progress from one stuck in a unit's call or in the graph's
    /// MIDI scheduler (a song's player).
    /// - Thread: [any] (two relaxed atomic loads).
    public var renderActivity: RenderActivity {
        let place = renderer.mainLane.renderingNode.load(ordering: .relaxed)
        return RenderActivity(
            cycles: renderer.cycles.load(ordering: .relaxed), node: place < 0 ? nil : GraphNode(rawValue: place),
            isSchedulingMIDI: place == RenderLane.schedulingMIDI)
    }
}

/// Where a graph's render thread is, as a watchdog reads it (``AudioGraph/renderActivity``).
/// - Thread: [any] (a plain value).
public struct RenderActivity: Equatable, Sendable {
    /// The cycles rendered so far.
    public var cycles: UInt64
    /// The node the render thread is inside; nil between nodes.
    public var node: GraphNode?
    /// Whether the render thread is inside the graph's ``MIDIScheduler`` (a song's player).
    public var isSchedulingMIDI: Bool
}
