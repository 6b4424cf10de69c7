import AUCore

/// One render cycle: adopting a published plan at its top, cutting it into slices of at
/// most MaximumFramesPerSlice, moving the application's input in and the output node's
/// input out, and counting it. No allocation, no lock.
/// - Thread: [render]
extension GraphRenderer {
    /// Renders one cycle of `frameCount` frames (any length: it is split into slices of at
    /// most the plan's MaximumFramesPerSlice) into `output`; `input` feeds the output node's
    /// output bus (the application's input), silence when nil.
    /// - Thread: [render] No allocation, no lock.
    func render(frameCount: Int, timestamp: RenderTimestamp, input: AudioBuffers?, output: AudioBuffers, midi: UnsafeBufferPointer<MIDIEvent>) -> AudioUnitStatus {
        RenderThread.run {
            activeRenders.add(1, ordering: .sequentiallyConsistent)
            defer { activeRenders.subtract(1, ordering: .sequentiallyConsistent) }
            guard isEnabled.load(ordering: .sequentiallyConsistent) else {
                clear(output, frames: frameCount)
                return AudioUnitErrorCode.uninitialized.rawValue
            }
            // A render worker still inside a unit of an abandoned cycle: the plan it renders
            // stays, and cycles are silent until it returns.
            if let plan = current.reference, plan._withUnsafeGuaranteedRef({ $0.hasStalledWorker }) {
                clear(output, frames: frameCount)
                return 0
            }
            adoptPendingPlan(timestamp)
            guard let plan = current.reference else {
                clear(output, frames: frameCount)
                return AudioUnitErrorCode.uninitialized.rawValue
            }
            return plan._withUnsafeGuaranteedRef { plan in
                renderPlan(plan, frameCount: frameCount, timestamp: timestamp, input: input, output: output, midi: midi)
            }
        }
    }

    /// Renders one cycle of the current plan.
    @inline(__always)
    private func renderPlan(
        _ plan: RenderPlan, frameCount: Int, timestamp: RenderTimestamp, input: AudioBuffers?, output: AudioBuffers, midi: UnsafeBufferPointer<MIDIEvent>
    ) -> AudioUnitStatus {
        do {
            guard frameCount >= 0, output.frameCount >= frameCount else {
                return AudioUnitErrorCode.parameterError.rawValue
            }
            let measuresTime = plan.measuresTime && GraphRenderer.isTimed(cycle: cycles.load(ordering: .relaxed))
            let start = measuresTime ? MonotonicClock.nanoseconds() : 0
            // The workers finish what the last cycle left them before the events change.
            guard finishDeferredPhase(deadline: cycleDeadline(start), sampleTime: timestamp.sampleTime) else {
                clear(output, frames: frameCount)
                finishCycle(frameCount: frameCount, measuresTime: measuresTime, start: start)
                return 0
            }
            if pendingEvents.load(ordering: .acquiring) != 0 { takeParameterEvents() }
            // Read once per cycle, not once per step: each step starts after a plugin's run()
            // evicted the lines they live in.
            let events = eventCount
            let plainCycle = events == 0 && !measuresTime
            var deadline: UInt64 = 0
            if let pipeline = plan.pipeline, let workers = plan.workers, let delay = plan.outputDelay {
                deadline = cycleDeadline(start)
                let cycle = PipelinedCycle(
                    frameCount: frameCount, timestamp: timestamp, input: input, output: output, events: events, plainCycle: plainCycle,
                    measuresTime: measuresTime, deadline: deadline)
                let finished = pipeline._withUnsafeGuaranteedRef { pipeline in
                    workers._withUnsafeGuaranteedRef { pool in delay._withUnsafeGuaranteedRef { renderPipelined(cycle, pipeline: pipeline, delay: $0, pool: pool) } }
                }
                if !finished { clear(output, frames: frameCount) }
                // The events stay until the workers are done with the cycle (finishDeferredPhase).
                deferredHeld.store(pipeline._withUnsafeGuaranteedRef { $0.heldFrames }, ordering: .relaxed)
                deferredRetirement.store(frameCount, ordering: .relaxed)
                finishCycle(frameCount: frameCount, measuresTime: measuresTime, start: start, retiresEvents: false)
                return 0
            }
            if let behind = plan.runBehind, let delay = plan.outputDelay {
                delay._withUnsafeGuaranteedRef { delay in
                    renderBehind(
                        plan, behind, delay: delay, frameCount: frameCount, timestamp: timestamp, input: input, output: output,
                        plainCycle: plainCycle, measuresTime: measuresTime, events: events)
                }
                finishCycle(frameCount: frameCount, measuresTime: measuresTime, start: start)
                return 0
            }
            // A cycle of one slice reads and writes the caller's buffers in place (channels
            // from 0 up to these counts), unless its output overlaps its input.
            let inPlace = frameCount <= plan.sliceFrames
            let inputInPlace = plan.sourceBinding?.bind(inPlace && input.map { $0.frameCount >= frameCount } == true ? input : nil) ?? 0
            let outputInPlace = plan.sinkBinding?.bind(inPlace && !Self.overlap(output, input, frames: frameCount) ? output : nil) ?? 0
            let routesMIDI = plan.routesMIDI
            beginMIDICycle(plan, midi: midi, frameCount: frameCount, timestamp: timestamp)
            var done = 0
            while done < frameCount {
                let frames = min(plan.sliceFrames, frameCount - done)
                var sliceTime = timestamp
                sliceTime.sampleTime += Double(done)
                cycleInputOffset = done
                if let source = plan.source { fill(source.view(frames), from: input, at: done, skipping: inputInPlace) }
                if routesMIDI { beginMIDISlice(plan, at: done, frames: frames) }
                if let schedule = plan.parallel, let workers = plan.workers {
                    let slice = ParallelSlice(
                        plan: Unmanaged.passUnretained(plan), schedule: schedule, measuresTime: measuresTime, plainCycle: plainCycle,
                        events: events, sliceOffset: done, frames: frames, time: sliceTime)
                    if deadline == 0 { deadline = cycleDeadline(start) }
                    guard workers._withUnsafeGuaranteedRef({ renderSliceInParallel(slice, pool: $0, deadline: deadline) }) else {
                        clear(output, frames: frameCount)
                        plan.outputDelay?._withUnsafeGuaranteedRef { $0.reset() }
                        finishCycle(frameCount: frameCount, measuresTime: measuresTime, start: start)
                        return 0
                    }
                } else {
                    renderStepsInOrder(plan, plainCycle: plainCycle, measuresTime: measuresTime, events: events, sliceOffset: done, frames: frames, time: sliceTime)
                }
                if routesMIDI { endMIDISlice(plan, at: done, frameCount: frameCount) }
                drain(plan.sink, of: plan, into: output, at: done, frames: frames, skipping: outputInPlace, time: sliceTime)
                plan.outputDelay?._withUnsafeGuaranteedRef { $0.delay(output, at: done, frames: frames) }
                done += frames
            }
            finishCycle(frameCount: frameCount, measuresTime: measuresTime, start: start)
            return 0
        }
    }

    /// Renders a slice of `frames` frames, `sliceOffset` into the cycle, through the plan's
    /// steps in order on the calling thread (a run's steps in one call, in a cycle without
    /// parameter events), and scans the last step's output.
    @inline(__always)
    func renderStepsInOrder(_ plan: RenderPlan, plainCycle: Bool, measuresTime: Bool, events: Int, sliceOffset: Int, frames: Int, time: RenderTimestamp) {
        let firstStep = plan.steps.baseAddress, stepCount = plan.steps.count
        var unscanned: UnsafeMutablePointer<PlanStep>?
        let lane = Unmanaged.passUnretained(mainLane)
        var index = 0
        while index < stepCount {
            let step = firstStep.unsafelyUnwrapped + index
            if events == 0 && step.pointee.traits.contains(.leadsRun),
               let rendered = renderRun(step, at: index, plan, measuresTime: measuresTime, frames: frames, time: time, unscanned: &unscanned, lane: lane) {
                index += rendered
                continue
            }
            renderStepOfSlice(
                step, plan, plainCycle: plainCycle, measuresTime: measuresTime, events: events,
                sliceOffset: sliceOffset, frames: frames, time: time, unscanned: &unscanned, lane: lane)
            index += 1
        }
        mainLane.renderingNode.store(-1, ordering: .relaxed)
        isolateNonFinite(&unscanned, frames: frames, time: time, lane: lane)
    }

    /// Copies `frames` frames of the application's `input` from `done` into the output node's
    /// output bus (`view`), from channel `skipping` up (those below are read in place);
    /// silence without input.
    @inline(__always)
    func fill(_ view: AudioBuffers, from input: AudioBuffers?, at done: Int, skipping: Int) {
        let frames = view.frameCount
        guard let input, input.frameCount >= done + frames else {
            view.clear()
            return
        }
        for channel in skipping..<view.channelCount {
            if channel < input.channelCount {
                view.channelPointers[channel].update(from: input.channelPointers[channel] + done, count: frames)
            } else {
                view.channelPointers[channel].update(repeating: 0, count: frames)
            }
        }
    }

    /// Copies what reached the output node's input (`sink`, prepared first) into `output` at
    /// `done`, from channel `skipping` up (those below were written in place); silence
    /// without an output node.
    @inline(__always)
    func drain(_ sink: PlanInput?, of plan: RenderPlan, into output: AudioBuffers, at done: Int, frames: Int, skipping: Int, time: RenderTimestamp) {
        guard let sink else {
            for channel in 0..<output.channelCount { (output.channelPointers[channel] + done).update(repeating: 0, count: frames) }
            return
        }
        let view = sinkView(sink, of: plan, frames: frames, time: time)
        for channel in skipping..<output.channelCount {
            let target = output.channelPointers[channel] + done
            if channel < view.channelCount {
                target.update(from: view.channelPointers[channel], count: frames)
            } else {
                target.update(repeating: 0, count: frames)
            }
        }
    }

    /// What reached the output node's input (`sink`) in a slice of `frames` frames.
    @inline(__always)
    func sinkView(_ sink: PlanInput, of plan: RenderPlan, frames: Int, time: RenderTimestamp) -> AudioBuffers {
        prepareInput(plan, sink, frames: frames, time: time)
        return sink.view(frames)
    }

    /// The deadline of a cycle that started at `start` (0: now), 0 without one.
    @inline(__always)
    func cycleDeadline(_ start: UInt64) -> UInt64 {
        let limit = parallelCycleDeadline.load(ordering: .relaxed)
        return limit == 0 ? 0 : (start == 0 ? MonotonicClock.nanoseconds() : start) &+ limit
    }

    /// Drops the cycle's parameter events (unless a pipeline's workers still read them, when
    /// not `retiresEvents`) and counts the cycle (and its time when measured).
    @inline(__always)
    private func finishCycle(frameCount: Int, measuresTime: Bool, start: UInt64, retiresEvents: Bool = true) {
        if retiresEvents && eventCount > 0 { retireParameterEvents(frameCount: frameCount, held: 0) }
        if measuresTime {
            renderNanoseconds.add(MonotonicClock.nanoseconds() &- start, ordering: .relaxed)
            timedCycles.store(timedCycles.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        }
        // The render thread is the only writer: a load and a store, not a locked add.
        cycles.store(cycles.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    }

    /// Whether any channel of `output` shares memory with a channel of `input` within
    /// `frames` frames: then the plan must not write the output before it read the input.
    private static func overlap(_ output: AudioBuffers, _ input: AudioBuffers?, frames: Int) -> Bool {
        guard let input else { return false }
        for written in output.channelPointers {
            for read in input.channelPointers where written < read + frames && read < written + frames { return true }
        }
        return false
    }

    @inline(__always)
    private func clear(_ output: AudioBuffers, frames: Int) {
        let count = min(frames, output.frameCount)
        for channel in 0..<output.channelCount { output.channelPointers[channel].update(repeating: 0, count: count) }
    }

    /// Takes a published plan, retiring the current one (when the retire ring has room).
    @inline(__always)
    private func adoptPendingPlan(_ timestamp: RenderTimestamp) {
        guard !pending.isEmpty, retired.count < retired.capacity, let plan = pending.exchange(nil) else { return }
        current.reference?._withUnsafeGuaranteedRef { old in
            if let pipeline = old.pipeline, let delay = old.outputDelay,
               finishDeferredPhase(deadline: cycleDeadline(0), sampleTime: timestamp.sampleTime, retiring: false) {
                pipeline._withUnsafeGuaranteedRef { pipeline in delay._withUnsafeGuaranteedRef { flushPipeline(pipeline, into: $0) } }
            }
            if let behind = old.runBehind, let delay = old.outputDelay {
                delay._withUnsafeGuaranteedRef { collectBehind(old, behind, into: $0, measuresTime: false) }
            }
        }
        if let old = current.exchange(plan) { retired.push(old) }
        let generation = plan._withUnsafeGuaranteedRef { $0.generation }
        adoptedGeneration.store(generation, ordering: .releasing)
        report(GraphNotice(kind: .planAdopted, node: GraphNode(rawValue: 0), status: Int32(truncatingIfNeeded: generation), sampleTime: timestamp.sampleTime))
    }

    /// Pushes a notice of the calling thread (through an unretained reference: reading the
    /// ring through `mainLane` retains it).
    @inline(__always)
    func report(_ notice: GraphNotice) {
        _ = Unmanaged.passUnretained(mainLane)._withUnsafeGuaranteedRef { $0.notices.push(notice) }
    }
}
