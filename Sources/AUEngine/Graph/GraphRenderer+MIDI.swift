import AUCore

/// How MIDI travels through a cycle: the graph's MIDI input (the driver's events and those
/// sent from code) is cut into slices; before a node renders, its sources' events of the
/// slice (the graph's input, nodes earlier in the order) are merged through each
/// connection's channel table; each unit call gets its share; what the unit sends is kept
/// for the nodes after it; the graph's MIDI output gathers its sources after each slice.
/// Overflows drop events and count them. No allocation, no lock.
/// - Thread: [render]
extension GraphRenderer {
    /// Takes the cycle's MIDI input: the driver's `midi` and what code queued (at the
    /// cycle's last frame at the latest), empties the MIDI output, then lets the plan's
    /// scheduler send the cycle's events.
    @inline(__always)
    func beginMIDICycle(_ plan: RenderPlan, midi: UnsafeBufferPointer<MIDIEvent>, frameCount: Int, timestamp: RenderTimestamp) {
        let input = cycleMIDIInput
        input.pointee.clear()
        cycleMIDIOutput.pointee.clear()
        guard plan.routesMIDI else {
            while controlMIDI.pop() != nil {}
            return
        }
        input.pointee.merge(midi, table: nil, shift: 0, window: 0..<Int32(frameCount))
        let last = Int32(max(0, frameCount - 1))
        while var event = controlMIDI.pop() {
            event.offset = min(max(0, event.offset), last)
            input.pointee.insert(event)
        }
        if let scheduler = plan.midiScheduler { schedule(scheduler, plan, frameCount: frameCount, timestamp: timestamp) }
    }

    /// Empties what the scheduler sent each node last cycle and lets it send this cycle's.
    private func schedule(_ scheduler: Unmanaged<MIDIScheduler>, _ plan: RenderPlan, frameCount: Int, timestamp: RenderTimestamp) {
        for case let midi? in plan.stepMIDI { midi.pointee.scheduled?.pointee.clear() }
        let cycle = MIDISchedulingCycle(
            timestamp: timestamp, frameCount: frameCount, plan: Unmanaged.passUnretained(plan), graphInput: cycleMIDIInput, graphOutput: cycleMIDIOutput)
        // A watchdog sees a scheduler that never returns (a stuck player) as such.
        mainLane.renderingNode.store(RenderLane.schedulingMIDI, ordering: .relaxed)
        scheduler._withUnsafeGuaranteedRef { $0.scheduleCycle(cycle) }
        mainLane.renderingNode.store(-1, ordering: .relaxed)
    }

    /// The graph's MIDI input of the slice at `offset` frames into the cycle.
    @inline(__always)
    func beginMIDISlice(_ plan: RenderPlan, at offset: Int, frames: Int) {
        plan.midiInput.pointee.clear()
        plan.midiInput.pointee.merge(cycleMIDIInput.pointee.events, table: nil, shift: Int32(-offset), window: 0..<Int32(frames))
    }

    /// Adds what reached the graph's MIDI output in the slice at `offset` frames.
    @inline(__always)
    func endMIDISlice(_ plan: RenderPlan, at offset: Int, frameCount: Int) {
        for source in plan.midiOutputSources {
            cycleMIDIOutput.pointee.merge(source.events.pointee.events, table: source.table, shift: Int32(offset), window: 0..<Int32(frameCount))
        }
    }

    /// Merges the step's sources for the slice at `sliceOffset` frames into the cycle (and
    /// what a scheduler sent it) and empties what it sent.
    @inline(__always)
    func gatherMIDI(_ midi: UnsafeMutablePointer<StepMIDI>, sliceOffset: Int, frames: Int) {
        midi.pointee.input.clear()
        midi.pointee.output.clear()
        for source in midi.pointee.sources {
            midi.pointee.input.merge(source.events.pointee.events, table: source.table, shift: 0, window: 0..<Int32(frames))
        }
        if let scheduled = midi.pointee.scheduled, scheduled.pointee.count > 0 {
            midi.pointee.input.merge(scheduled.pointee.events, table: nil, shift: Int32(-sliceOffset), window: 0..<Int32(frames))
        }
    }

    /// A bypassed node sends what it gets.
    @inline(__always)
    func passMIDIThrough(_ midi: UnsafeMutablePointer<StepMIDI>) {
        guard midi.pointee.producesOutput else { return }
        for event in midi.pointee.input.events { midi.pointee.output.insert(event) }
    }

    /// The events of the slice that fall in one unit call, offsets moved to its first frame.
    @inline(__always)
    func midiForCall(_ midi: UnsafeMutablePointer<StepMIDI>, offset: Int, frames: Int) -> UnsafeBufferPointer<MIDIEvent> {
        var count = 0
        let window = Int32(offset)..<Int32(offset + frames)
        for var event in midi.pointee.input.events where window.contains(event.offset) {
            event.offset -= Int32(offset)
            midi.pointee.call[count] = event
            count += 1
        }
        return UnsafeBufferPointer(start: midi.pointee.call, count: count)
    }

    /// Keeps what the unit sent in the call that started `offset` frames into the slice.
    @inline(__always)
    func collectMIDIOutput(of unit: AudioUnit, into midi: UnsafeMutablePointer<StepMIDI>, offset: Int) {
        for var event in unit.midiOutputFromRender {
            event.offset += Int32(offset)
            midi.pointee.output.insert(event)
        }
    }

    /// The graph's MIDI output of the last cycle (offsets within it).
    /// - Thread: [render], after ``render(frameCount:timestamp:input:output:midi:)``.
    var midiOutputFromRender: UnsafeBufferPointer<MIDIEvent> { cycleMIDIOutput.pointee.events }
}
