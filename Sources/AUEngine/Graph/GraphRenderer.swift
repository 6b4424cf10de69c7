import AUCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The render side of an ``AudioGraph``: receives compiled plans by one atomic pointer
/// exchange, renders the current one, and hands retired plans back through a ring so that
/// the control thread frees them. Also carries parameter events in and notices out.
///
/// Publishing: the control thread stores a retained plan pointer in `pending`; the render
/// thread takes it with an exchange at the top of a cycle, pushes the plan it replaces into
/// `retired`, and records the generation it adopted. A plan published before the render
/// thread took the previous one replaces it (the control thread releases the one never seen).
/// - Thread: [render] ``render(frameCount:timestamp:input:output:)``; [control] the rest, on
///   the control thread.
final class GraphRenderer: @unchecked Sendable {
    /// A retained `RenderPlan` pointer waiting for the render thread, or 0.
    let pending = Atomic<UInt>(0)
    /// The plan the render thread renders (render thread only, except while disabled).
    /// Kept in an atomic word of this object rather than a stored `var`: a class's stored
    /// `var` costs an exclusivity check on every access.
    var current: Unmanaged<RenderPlan>? {
        get {
            let bits = currentBits.load(ordering: .relaxed)
            return bits == 0 ? nil : Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
        }
        set { currentBits.store(newValue.map { UInt(bitPattern: $0.toOpaque()) } ?? 0, ordering: .relaxed) }
    }
    private let currentBits = Atomic<UInt>(0)
    /// Plans the render thread replaced, for the control thread to release.
    let retired = RealTimeRing<UInt>(minimumCapacity: 64)
    /// The generation of the plan the render thread renders (-1: none yet).
    let adoptedGeneration = Atomic<Int>(-1)
    /// Render calls in progress.
    let activeRenders = Atomic<Int>(0)
    /// False while the graph is uninitialized: render returns at once.
    let isEnabled = Atomic<Bool>(false)

    /// Parameter changes from control threads (through ``queue(_:)``).
    let parameterEvents = SharedProducerRing<GraphParameterEvent>(minimumCapacity: GraphRenderer.eventCapacity)
    /// Events queued and not yet taken (may dip below zero while a push is being counted):
    /// an idle cycle learns from one load that there is nothing to take.
    let pendingEvents = Atomic<Int>(0)
    /// Events of the current and later cycles (render thread only), sorted by offset.
    private let events: UnsafeMutablePointer<GraphParameterEvent>
    var eventCount: Int {
        get { eventCountStorage.load(ordering: .relaxed) }
        set { eventCountStorage.store(newValue, ordering: .relaxed) }
    }
    let eventCountStorage = Atomic<Int>(0)
    /// The calling thread's notices and the node it is inside (render workers have lanes of
    /// their own, ``RenderWorkerPool/lanes``).
    let mainLane = RenderLane()
    /// The deadline of a parallel plan's cycle, in nanoseconds from its start (0: none): a
    /// render worker that has not finished by then makes the cycle silent. Set by a driver
    /// with a period (JACK); offline renders wait.
    let parallelCycleDeadline = Atomic<UInt64>(0)
    /// A pipelined plan's phase still open to the render workers when its cycle returned
    /// (``PipelineSchedule`` and ``RenderWorkerPool`` pointers, 0: none), and the parameter
    /// events that cycle leaves to retire (its frames and held frames) once it is done:
    /// the workers render the first stages of the cycle's last slice while the driver goes
    /// on (GraphRenderer+Pipeline.swift).
    let deferredPipeline = Atomic<UInt>(0)
    let deferredPool = Atomic<UInt>(0)
    let deferredRetirement = Atomic<Int>(-1)
    let deferredHeld = Atomic<Int>(0)

    /// Cycles rendered; of them, those timed and the time they took, for the dump.
    let cycles = Atomic<UInt64>(0)
    let timedCycles = Atomic<UInt64>(0)
    let renderNanoseconds = Atomic<UInt64>(0)
    /// A plan that measures time times one cycle in this many: a clock read costs about
    /// 25 ns on this VM, and reading it twice per node every cycle cost the reference chain
    /// 5 % (docs/BENCHMARKS.md); shares of render time need samples, not every cycle.
    static let timingInterval: UInt64 = 32

    static let eventCapacity = 1024

    /// MIDI events sent from code for the graph's MIDI input (``AudioGraph/sendMIDIEvent(_:)``).
    let controlMIDI = SharedProducerRing<MIDIEvent>(minimumCapacity: AudioUnit.eventCapacity)
    /// The graph's MIDI input of the current cycle (the driver's and the queued events),
    /// and its MIDI output (render thread only; behind pointers, not stored `var`s).
    let cycleMIDIInput: UnsafeMutablePointer<MIDIEventBuffer>
    let cycleMIDIOutput: UnsafeMutablePointer<MIDIEventBuffer>

    init() {
        events = .allocate(capacity: GraphRenderer.eventCapacity)
        cycleMIDIInput = Self.makeMIDIBuffer()
        cycleMIDIOutput = Self.makeMIDIBuffer()
    }

    deinit {
        disable()
        events.deallocate()
        for buffer in [cycleMIDIInput, cycleMIDIOutput] {
            buffer.pointee.storage.deallocate()
            buffer.deallocate()
        }
    }

    private static func makeMIDIBuffer() -> UnsafeMutablePointer<MIDIEventBuffer> {
        let capacity = 2 * AudioUnit.eventCapacity
        let buffer = UnsafeMutablePointer<MIDIEventBuffer>.allocate(capacity: 1)
        buffer.initialize(to: MIDIEventBuffer(capacity: capacity, storage: .allocate(capacity: capacity)))
        return buffer
    }

    // MARK: - Render side

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
            if let current, current._withUnsafeGuaranteedRef({ $0.hasStalledWorker }) {
                clear(output, frames: frameCount)
                return 0
            }
            adoptPendingPlan(timestamp)
            guard let current else {
                clear(output, frames: frameCount)
                return AudioUnitErrorCode.uninitialized.rawValue
            }
            return current._withUnsafeGuaranteedRef { plan in
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
            let measuresTime = plan.measuresTime && cycles.load(ordering: .relaxed) % GraphRenderer.timingInterval == 0
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
            let firstStep = plan.steps.baseAddress, stepCount = plan.steps.count
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
                    var unscanned: UnsafeMutablePointer<PlanStep>?
                    let lane = Unmanaged.passUnretained(mainLane)
                    for index in 0..<stepCount {
                        renderStepOfSlice(
                            firstStep.unsafelyUnwrapped + index, plan, plainCycle: plainCycle, measuresTime: measuresTime, events: events,
                            sliceOffset: done, frames: frames, time: sliceTime, unscanned: &unscanned, lane: lane)
                    }
                    mainLane.renderingNode.store(-1, ordering: .relaxed)
                    isolateNonFinite(&unscanned, frames: frames, time: sliceTime, lane: lane)
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
            if status == 0 { unscanned = step } else { fail(step, status, frames: frames, time: time, lane: lane) }
        } else {
            renderStep(
                step, plan, measuresTime: measuresTime, events: events, sliceOffset: sliceOffset, frames: frames,
                time: time, unscanned: &unscanned, lane: lane)
        }
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
        guard pending.load(ordering: .relaxed) != 0, retired.count < retired.capacity else { return }
        let bits = pending.exchange(0, ordering: .acquiringAndReleasing)
        guard bits != 0 else { return }
        if let old = current {
            old._withUnsafeGuaranteedRef { old in
                if let pipeline = old.pipeline, let delay = old.outputDelay,
                   finishDeferredPhase(deadline: cycleDeadline(0), sampleTime: timestamp.sampleTime, retiring: false) {
                    pipeline._withUnsafeGuaranteedRef { pipeline in delay._withUnsafeGuaranteedRef { flushPipeline(pipeline, into: $0) } }
                }
            }
            retired.push(UInt(bitPattern: old.toOpaque()))
        }
        let plan = Unmanaged<RenderPlan>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
        current = plan
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

    // MARK: Parameter events

    /// Moves waiting events into the cycle's list, sorted by offset (stable).
    private func takeParameterEvents() {
        guard pendingEvents.load(ordering: .acquiring) != 0 else { return }
        let before = eventCount
        defer { pendingEvents.wrappingSubtract(eventCount - before, ordering: .relaxed) }
        var count = eventCount
        while count < GraphRenderer.eventCapacity, let event = parameterEvents.pop() { events.insertSorted(event, count: &count, by: { $0.offset }) }
        eventCount = count
    }

    /// Drops the events this cycle applied; later ones, and those of the last `held` frames
    /// (slices a pipeline's later stages have yet to render), move `frameCount` frames closer.
    func retireParameterEvents(frameCount: Int, held: Int) {
        var kept = 0
        for index in 0..<eventCount {
            var event = events[index]
            if event.offset >= Int64(frameCount - held) {
                event.offset -= Int64(frameCount)
                events[kept] = event
                kept += 1
            }
        }
        eventCount = kept
    }

    // MARK: Steps

    /// Fills an input bus for `frames` frames: delays, callbacks; direct and silent inputs
    /// need nothing.
    @inline(__always)
    private func prepareInput(_ plan: RenderPlan, _ input: PlanInput, frames: Int, time: RenderTimestamp) {
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
            } else {
                unscanned = step
            }
        }
        if measuresTime {
            _ = runtime._withUnsafeGuaranteedRef { $0.renderNanoseconds.add(MonotonicClock.nanoseconds() &- start, ordering: .relaxed) }
        }
    }

    /// Silences a step whose unit returned `status` and reports a status it did not report last.
    private func fail(_ step: UnsafeMutablePointer<PlanStep>, _ status: AudioUnitStatus, frames: Int, time: RenderTimestamp, lane: Unmanaged<RenderLane>) {
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
        step.pointee.runtimeReference._withUnsafeGuaranteedRef { $0.isFaulted.store(true, ordering: .relaxed) }
        _ = lane._withUnsafeGuaranteedRef { $0.notices.push(GraphNotice(kind: .nonFiniteOutput, node: step.pointee.node, status: 0, sampleTime: time.sampleTime)) }
        clearOutputs(step, frames: frames)
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

    /// Hands the unit of `step` its events that fall in `[from, to)` of the cycle: scheduled
    /// at their frames of the unit's next call, which starts at `from` (its parameter
    /// scheduler cuts the call there), or, when `scheduling` is false (a bypassed or muted
    /// node, a fixed-block unit) or the unit's queue is full, applied at once.
    @inline(__always)
    private func handEvents(_ step: UnsafeMutablePointer<PlanStep>, _ eventCount: Int, from: Int, to: Int, scheduling: Bool) {
        guard eventCount > 0 else { return }
        for eventIndex in 0..<eventCount {
            let event = events[eventIndex]
            if event.node == step.pointee.node.rawValue && event.offset >= Int64(from) && event.offset < Int64(to) {
                step.pointee.unitReference._withUnsafeGuaranteedRef { unit in
                    if !(scheduling && unit.scheduleParameterFromRender(at: Int(event.index), value: event.value, offset: Int(event.offset) - from)) {
                        unit.setParameterFromRender(at: Int(event.index), value: event.value)
                    }
                }
            }
        }
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
