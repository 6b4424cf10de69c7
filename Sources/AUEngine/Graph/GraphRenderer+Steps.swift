import AUCore
import Synchronization

/// One step of a plan for one slice: preparing its inputs, calling its unit (in the block
/// sizes it demands), or bypassing or silencing it, and isolating a unit that wrote NaN or
/// infinity. No allocation, no lock.
/// - Thread: [render]
extension GraphRenderer {
    /// Renders one step for one slice on the thread of `lane`: the ordinary step of an
    /// ordinary cycle is one call of its unit; the rest goes through ``renderStep``. The
    /// previous step's output, in `unscanned`, is scanned for NaN before this one runs.
    @inline(__always)
    func renderStepOfSlice(
        _ step: UnsafeMutablePointer<PlanStep>, _ plan: RenderPlan, plainCycle: Bool, measuresTime: Bool, events: Int,
        sliceOffset: Int, frames: Int, time: RenderTimestamp, unscanned: inout UnsafeMutablePointer<PlanStep>?, lane: Unmanaged<RenderLane>
    ) {
        lane._withUnsafeGuaranteedRef { $0.renderingNode.store(step.pointee.node.rawValue, ordering: .relaxed) }
        if plainCycle && step.pointee.traits.isEmpty && !step.pointee.runtimeReference._withUnsafeGuaranteedRef({ $0.isSpecial }) {
            isolateNonFinite(&unscanned, frames: frames, time: time, lane: lane)
            let status = call(step, offset: 0, frames: frames, time: time)
            if status != 0 {
                fail(step, status, frames: frames, time: time, lane: lane)
            } else if !checkedItsOutput(step, frames: frames) {
                unscanned = step
            }
        } else {
            renderStep(
                step, plan, measuresTime: measuresTime, events: events, sliceOffset: sliceOffset, frames: frames,
                time: time, unscanned: &unscanned, lane: lane)
        }
    }

    /// Fills an input bus for `frames` frames: delays, callbacks; direct and silent inputs
    /// need nothing.
    @inline(__always)
    func prepareInput(_ plan: RenderPlan, _ input: PlanInput, frames: Int, time: RenderTimestamp) {
        switch input.kind {
        case .silence, .direct:
            break
        case .delayed:
            let source = AudioBuffers(
                channelPointers: UnsafeMutableBufferPointer(start: input.sourceBase, count: input.sourceChannels), frameCount: frames)
            input.delay.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.process(source, into: input.view(frames), frames: frames) }
        case .callback:
            var flags = RenderFlags()
            let view = input.view(frames)
            if plan.callbacks[input.callback].body(&flags, time, input.bus, view) != 0 { view.clear() }
        }
    }

    /// Renders one step for one slice: bypassed, faulted (silent) or through its unit, which
    /// gets the parameter events that fall inside the slice. Reads the step through its address:
    /// an ordinary cycle touches only its first cache line.
    private func renderStep(
        _ step: UnsafeMutablePointer<PlanStep>, _ plan: RenderPlan, measuresTime: Bool, events eventCount: Int,
        sliceOffset: Int, frames: Int, time: RenderTimestamp, unscanned: inout UnsafeMutablePointer<PlanStep>?, lane: Unmanaged<RenderLane>
    ) {
        let start = measuresTime ? MonotonicClock.nanoseconds() : 0
        let midi = step.pointee.traits.contains(.hasMIDI) ? plan.stepMIDI[step - plan.steps.baseAddress.unsafelyUnwrapped] : nil
        if let midi { gatherMIDI(midi, sliceOffset: sliceOffset, frames: frames) }
        if step.pointee.traits.contains(.needsInputPreparation) {
            isolateNonFinite(&unscanned, frames: frames, time: time, lane: lane)
            for bus in 0..<step.pointee.inputs.count { prepareInput(plan, step.pointee.inputs[bus], frames: frames, time: time) }
        }
        let runtime = step.pointee.runtimeReference
        if runtime._withUnsafeGuaranteedRef({ $0.isFaulted.load(ordering: .relaxed) }) {
            clearOutputs(step, frames: frames)
            handEvents(step, eventCount, from: sliceOffset, to: sliceOffset + frames, scheduling: false)
        } else if runtime._withUnsafeGuaranteedRef({ $0.isBypassed.load(ordering: .relaxed) }) {
            isolateNonFinite(&unscanned, frames: frames, time: time, lane: lane)
            let outputs = step.pointee.outputs, inputs = step.pointee.inputs
            for bus in 0..<outputs.count {
                let target = outputs[bus].view(frames)
                if bus < inputs.count {
                    let source = inputs[bus].view(frames)
                    if let delay = step.pointee.bypassDelays[bus] { delay._withUnsafeGuaranteedRef { $0.process(source, into: target, frames: frames) } } else { target.copy(from: source) }
                } else {
                    target.clear()
                }
            }
            if let midi { passMIDIThrough(midi) }
            handEvents(step, eventCount, from: sliceOffset, to: sliceOffset + frames, scheduling: false)
        } else {
            // The previous step's output is scanned only now, just before anything reads it:
            // straight after its plugin returned, the scan waited for the plugin's last
            // stores to reach the cache.
            isolateNonFinite(&unscanned, frames: frames, time: time, lane: lane)
            // Bypass delays exist only for a node with latency: a plain node skips the table.
            if step.pointee.traits.contains(.hasLatency) {
                for bus in 0..<step.pointee.bypassDelays.count {
                    if let delay = step.pointee.bypassDelays[bus] { delay._withUnsafeGuaranteedRef { $0.feed(step.pointee.inputs[bus].view(frames), frames: frames) } }
                }
            }
            let status = renderRange(step, offset: 0, frames: frames, time: time, events: eventCount, sliceOffset: sliceOffset, midi: midi)
            if status != 0 {
                fail(step, status, frames: frames, time: time, lane: lane)
            } else if !checkedItsOutput(step, frames: frames) {
                unscanned = step
            }
        }
        if measuresTime {
            _ = runtime._withUnsafeGuaranteedRef { $0.renderNanoseconds.add(MonotonicClock.nanoseconds() &- start, ordering: .relaxed) }
        }
    }

    /// Silences a step whose unit returned `status` and reports a status it did not report last.
    func fail(_ step: UnsafeMutablePointer<PlanStep>, _ status: AudioUnitStatus, frames: Int, time: RenderTimestamp, lane: Unmanaged<RenderLane>) {
        clearOutputs(step, frames: frames)
        if step.pointee.runtimeReference._withUnsafeGuaranteedRef({ $0.lastStatus.exchange(status, ordering: .relaxed) }) != status {
            _ = lane._withUnsafeGuaranteedRef { $0.notices.push(GraphNotice(kind: .renderError, node: step.pointee.node, status: status, sampleTime: time.sampleTime)) }
        }
    }

    /// Mutes and reports the step in `unscanned`, if any, when it wrote NaN or infinity,
    /// and clears `unscanned`.
    @inline(__always)
    func isolateNonFinite(_ unscanned: inout UnsafeMutablePointer<PlanStep>?, frames: Int, time: RenderTimestamp, lane: Unmanaged<RenderLane>) {
        guard let step = unscanned else { return }
        unscanned = nil
        guard outputsContainNonFinite(step, frames: frames) else { return }
        reportNonFinite(step, time: time, lane: lane)
        clearOutputs(step, frames: frames)
    }

    /// Whether the step's unit checked every sample of its output for the slice's `frames`
    /// frames as it wrote them (``AudioUnit/checkedOutputFrames``): no scan is needed.
    @inline(__always)
    func checkedItsOutput(_ step: UnsafeMutablePointer<PlanStep>, frames: Int) -> Bool {
        step.pointee.unitReference._withUnsafeGuaranteedRef { $0.checkedOutputFrames.load(ordering: .relaxed) == frames }
    }

    /// Marks the step faulted (silent from the next cycle) and reports that it wrote NaN or infinity.
    @inline(__always)
    func reportNonFinite(_ step: UnsafeMutablePointer<PlanStep>, time: RenderTimestamp, lane: Unmanaged<RenderLane>) {
        step.pointee.runtimeReference._withUnsafeGuaranteedRef { $0.isFaulted.store(true, ordering: .relaxed) }
        _ = lane._withUnsafeGuaranteedRef { $0.notices.push(GraphNotice(kind: .nonFiniteOutput, node: step.pointee.node, status: 0, sampleTime: time.sampleTime)) }
    }

    /// Whether the step wrote NaN or infinity into the slice's `frames` frames. Reads the
    /// views when they cover the slice (the ordinary cycle: their tables sit in the step's
    /// hot lines), else the output buffers.
    @inline(__always)
    private func outputsContainNonFinite(_ step: UnsafeMutablePointer<PlanStep>, frames: Int) -> Bool {
        if step.pointee.viewPlacement.pointee.offsetAndFrames == frames {
            for view in step.pointee.outputViews where view.containsNonFinite() { return true }
        } else {
            for output in step.pointee.outputs where output.view(frames).containsNonFinite() { return true }
        }
        return false
    }

    private func clearOutputs(_ step: UnsafeMutablePointer<PlanStep>, frames: Int) {
        for output in step.pointee.outputs { output.view(frames).clear() }
    }

    /// Calls the unit for `frames` frames starting `offset` frames into the slice buffers,
    /// in the block sizes it demands, handing it the `events` of the cycle that fall in each
    /// call (the slice starts `sliceOffset` frames into the cycle); a fixed-block unit gets
    /// them at the slice's start.
    @inline(__always)
    private func renderRange(
        _ step: UnsafeMutablePointer<PlanStep>, offset: Int, frames: Int, time: RenderTimestamp, events eventCount: Int, sliceOffset: Int,
        midi: UnsafeMutablePointer<StepMIDI>?
    ) -> AudioUnitStatus {
        if step.pointee.traits.contains(.hasAdapter), let adapter = step.pointee.adapter {
            handEvents(step, eventCount, from: sliceOffset, to: sliceOffset + frames, scheduling: false)
            point(step, offset: 0, frames: frames + offset)
            return adapter._withUnsafeGuaranteedRef { adapter in step.pointee.unitReference._withUnsafeGuaranteedRef { unit in adapter.render(
                unit, inputs: UnsafeBufferPointer(step.pointee.inputViews), outputs: UnsafeBufferPointer(step.pointee.outputViews),
                offset: offset, frames: frames, sampleTime: time.sampleTime + Double(offset)) } }
        }
        guard step.pointee.traits.contains(.needsPowerOfTwo) else {
            handEvents(step, eventCount, from: sliceOffset + offset, to: sliceOffset + offset + frames, scheduling: true)
            return call(step, offset: offset, frames: frames, time: time, midi: midi)
        }
        var position = offset
        var left = frames
        while left > 0 {
            var chunk = 1
            while chunk << 1 <= left { chunk <<= 1 }
            handEvents(step, eventCount, from: sliceOffset + position, to: sliceOffset + position + chunk, scheduling: true)
            let status = call(step, offset: position, frames: chunk, time: time, midi: midi)
            if status != 0 { return status }
            position += chunk
            left -= chunk
        }
        return 0
    }

    /// Points the step's views at `offset` frames into its buffers, `frames` long, unless
    /// they point there already (the common cycle: whole slices at offset 0), which spares
    /// reading the buffers' channel tables; returns the views' ``BufferStamp``.
    @inline(__always)
    @discardableResult
    private func point(_ step: UnsafeMutablePointer<PlanStep>, offset: Int, frames: Int) -> UInt64 {
        let placement = offset << 32 | frames
        let current = step.pointee.viewPlacement
        guard current.pointee.offsetAndFrames != placement else { return current.pointee.stamp }
        let stamp = BufferStamp.next()
        current.pointee = ViewPlacement(offsetAndFrames: placement, stamp: stamp)
        let inputs = step.pointee.inputs, inputViews = step.pointee.inputViews
        for bus in 0..<inputs.count {
            let pointers = inputViews[bus].channelPointers
            for channel in 0..<pointers.count { pointers[channel] = inputs[bus].base[channel] + offset }
            inputViews[bus].frameCount = frames
        }
        let outputs = step.pointee.outputs, outputViews = step.pointee.outputViews
        for bus in 0..<outputs.count {
            let pointers = outputViews[bus].channelPointers
            for channel in 0..<pointers.count { pointers[channel] = outputs[bus].base[channel] + offset }
            outputViews[bus].frameCount = frames
        }
        return stamp
    }

    @inline(__always)
    private func call(
        _ step: UnsafeMutablePointer<PlanStep>, offset: Int, frames: Int, time: RenderTimestamp, midi: UnsafeMutablePointer<StepMIDI>? = nil
    ) -> AudioUnitStatus {
        let stamp = point(step, offset: offset, frames: frames)
        var callTime = time
        callTime.sampleTime += Double(offset)
        let events = midi.map { midiForCall($0, offset: offset, frames: frames) } ?? UnsafeBufferPointer(start: nil, count: 0)
        return step.pointee.unitReference._withUnsafeGuaranteedRef { unit in
            let status = unit.renderCycleFromGraph(
                timestamp: callTime, frameCount: frames, inputs: UnsafeBufferPointer(step.pointee.inputViews),
                outputs: UnsafeBufferPointer(step.pointee.outputViews), midi: events, buffersStamp: stamp)
            if let midi, midi.pointee.producesOutput { collectMIDIOutput(of: unit, into: midi, offset: offset) }
            return status
        }
    }
}
