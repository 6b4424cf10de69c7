import AUCore
import Synchronization

/// One cycle of a pipelined plan: what its phases read.
struct PipelinedCycle {
    var frameCount: Int
    var timestamp: RenderTimestamp
    var input: AudioBuffers?
    var output: AudioBuffers
    var events: Int
    var plainCycle: Bool
    var measuresTime: Bool
    var deadline: UInt64
}

/// Rendering a cycle through a pipelined plan: one phase per slice of the cycle; in each,
/// the new slice enters stage 0 in its region and every slice in flight moves one stage on.
/// The calling thread renders the deepest stage that has a slice and pushes the slice that
/// leaves the last stage into the graph's ``PipelineDelay``; the render workers take the
/// earlier stages, and the calling thread does not wait for them: the next phase does,
/// before it hands their regions on, taking any task no worker took. So the workers' stages
/// of a cycle's last slice go on after the render call returns (REAPER's anticipative
/// processing): live, JACK's thread renders the last stage of the previous period while a
/// worker renders the first stages of this one during the rest of the period, and a worker
/// that wakes late costs nothing as long as it is done by the next period. Every unit
/// renders every slice exactly as the single-threaded loop does (same slices, times and
/// parameter events, in order), so the output is the same, sample for sample, the delay's
/// frames later. No allocation and no lock; the one system call is the wake of parked
/// workers.
/// - Thread: [render]
extension GraphRenderer {
    /// Renders `cycle` through `pipeline` into `delay`, and the delay's oldest frames into
    /// the cycle's output; false when a phase was abandoned (a worker was still in a stage at
    /// the deadline, reported by name): then the slices in flight are lost and the delay
    /// starts again from silence.
    func renderPipelined(_ cycle: PipelinedCycle, pipeline: PipelineSchedule, delay: PipelineDelay, pool: RenderWorkerPool) -> Bool {
        let sliceFrames = pipeline.sliceFrames
        let stages = pipeline.stageCount
        let lane = Unmanaged.passUnretained(mainLane)
        var written = delay.pop(into: cycle.output, at: 0, frames: cycle.frameCount)
        var offset = 0
        while offset < cycle.frameCount {
            // The last phase's stages wrote the regions this one reads.
            guard finishDeferredPhase(deadline: cycle.deadline, sampleTime: cycle.timestamp.sampleTime, retiring: false) else { return false }
            let entering = pipeline.positions.pointee.next
            var time = cycle.timestamp
            time.sampleTime += Double(offset)
            let slice = PipelineSchedule.Slice(offset: offset, frames: min(sliceFrames, cycle.frameCount - offset), time: time)
            pipeline.slices[entering % stages] = slice
            if let source = pipeline.regionSources[entering % stages] { fill(source.view(slice.frames), from: cycle.input, at: offset, skipping: 0) }
            pipeline.positions.pointee.next = entering + 1
            let deepest = min(stages - 1, entering - pipeline.positions.pointee.first)
            for stage in 0..<deepest { pipeline.tasks[stage] = task(stage, slice: entering - stage, of: pipeline, events: cycle.events, plainCycle: cycle.plainCycle, measuresTime: cycle.measuresTime) }
            if deepest > 0 {
                pipeline.begin(deepest)
                pool.pipelinePhase.store(UInt(bitPattern: Unmanaged.passUnretained(pipeline).toOpaque()), ordering: .relaxed)
                pool.openSlice()
                deferredPool.store(UInt(bitPattern: Unmanaged.passUnretained(pool).toOpaque()), ordering: .relaxed)
                deferredPipeline.store(UInt(bitPattern: Unmanaged.passUnretained(pipeline).toOpaque()), ordering: .relaxed)
            }
            renderStage(
                task(deepest, slice: entering - deepest, of: pipeline, events: cycle.events, plainCycle: cycle.plainCycle, measuresTime: cycle.measuresTime),
                of: pipeline, lane: lane)
            if deepest == stages - 1 { leave(entering - (stages - 1), pipeline: pipeline, delay: delay) }
            written += delay.pop(into: cycle.output, at: written, frames: cycle.frameCount - written)
            offset += slice.frames
        }
        // The slices still in flight lie before the next cycle's start.
        for number in pipeline.heldSlices { pipeline.slices[number % pipeline.stageCount].offset -= cycle.frameCount }
        return true
    }

    /// Stage `stage`'s task on slice `number`, in its region, at its offset and time, with
    /// the parameter events and the kind of cycle it renders in.
    @inline(__always)
    private func task(_ stage: Int, slice number: Int, of pipeline: PipelineSchedule, events: Int, plainCycle: Bool, measuresTime: Bool) -> PipelineSchedule.Task {
        let held = pipeline.slices[number % pipeline.stageCount]
        return PipelineSchedule.Task(
            stage: Int32(stage), region: Int32(number % pipeline.stageCount), sliceOffset: held.offset, frames: held.frames, time: held.time,
            events: events, plainCycle: plainCycle, measuresTime: measuresTime)
    }

    /// Waits for the phase left open to the workers, if any, after taking the tasks none of
    /// them took; then, when `retiring`, drops the parameter events of the cycle that left it
    /// (kept until its workers were done with them). False when a worker was still in a
    /// stage at `deadline` (0: none): the phase is abandoned, reported by name, the slices in
    /// flight forgotten and the delay primed again.
    @inline(__always)
    func finishDeferredPhase(deadline: UInt64, sampleTime: Double, retiring: Bool = true) -> Bool {
        var finished = true
        let bits = deferredPipeline.load(ordering: .relaxed)
        if bits != 0 {
            let pipeline = Unmanaged<PipelineSchedule>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
            let pool = Unmanaged<RenderWorkerPool>.fromOpaque(UnsafeRawPointer(bitPattern: deferredPool.load(ordering: .relaxed))!)
            deferredPipeline.store(0, ordering: .relaxed)
            deferredPool.store(0, ordering: .relaxed)
            pool._withUnsafeGuaranteedRef { pool in
                pipeline._withUnsafeGuaranteedRef { pipeline in
                    let taken = renderPhaseTasks(pipeline, lane: Unmanaged.passUnretained(mainLane), pool: pool)
                    finished = closeSlice(pool, finished: taken, deadline: deadline, sampleTime: sampleTime)
                    if !finished {
                        pipeline.empty()
                        pipeline.plan._withUnsafeGuaranteedRef { $0.outputDelay?._withUnsafeGuaranteedRef { $0.reset() } }
                    }
                }
            }
        }
        let frames = deferredRetirement.load(ordering: .relaxed)
        if retiring && frames >= 0 {
            deferredRetirement.store(-1, ordering: .relaxed)
            if eventCount > 0 { retireParameterEvents(frameCount: frames, held: finished ? deferredHeld.load(ordering: .relaxed) : 0) }
        }
        return finished
    }

    /// Renders the slices still in flight through their remaining stages on the calling
    /// thread, oldest first, into `delay`: a plan about to be replaced hands on everything it
    /// took in, so a live edit loses no frame and keeps the latency.
    func flushPipeline(_ pipeline: PipelineSchedule, into delay: PipelineDelay) {
        let lane = Unmanaged.passUnretained(mainLane)
        let events = eventCount
        let next = pipeline.positions.pointee.next
        for number in pipeline.heldSlices {
            for stage in (next - number)..<pipeline.stageCount { renderStage(task(stage, slice: number, of: pipeline, events: events, plainCycle: events == 0, measuresTime: false), of: pipeline, lane: lane) }
            leave(number, pipeline: pipeline, delay: delay)
        }
        pipeline.empty()
    }

    /// Pushes slice `number`, which has been through every stage, into the delay.
    @inline(__always)
    private func leave(_ number: Int, pipeline: PipelineSchedule, delay: PipelineDelay) {
        let held = pipeline.slices[number % pipeline.stageCount]
        pipeline.plan._withUnsafeGuaranteedRef { plan in
            if let sink = pipeline.regionSinks[number % pipeline.stageCount] {
                delay.push(sinkView(sink, of: plan, frames: held.frames, time: held.time), frames: held.frames)
            } else {
                delay.push(nil, frames: held.frames)
            }
        }
    }

    /// Renders tasks of the open phase until none is left to take (true), or the phase is
    /// abandoned (false).
    /// - Thread: [render] the calling thread, or [worker] a render worker joined to the phase.
    @discardableResult
    func renderPhaseTasks(_ pipeline: PipelineSchedule, lane: Unmanaged<RenderLane>, pool: RenderWorkerPool) -> Bool {
        while true {
            let index = pipeline.take()
            guard index >= 0 else { return true }
            if pool.abandoned.load(ordering: .relaxed) { return false }
            renderStage(pipeline.tasks[Int(index)], of: pipeline, lane: lane)
        }
    }

    /// Renders one stage's steps for its slice, in the slice's region.
    @inline(__always)
    private func renderStage(_ task: PipelineSchedule.Task, of pipeline: PipelineSchedule, lane: Unmanaged<RenderLane>) {
        pipeline.plan._withUnsafeGuaranteedRef { plan in
            let steps = pipeline.regionSteps[Int(task.region)]
            let first = Int(pipeline.stageStart[Int(task.stage)]), end = Int(pipeline.stageStart[Int(task.stage) + 1])
            var unscanned: UnsafeMutablePointer<PlanStep>?
            for index in first..<end {
                renderStepOfSlice(
                    steps + index, plan, plainCycle: task.plainCycle, measuresTime: task.measuresTime, events: task.events,
                    sliceOffset: task.sliceOffset, frames: task.frames, time: task.time, unscanned: &unscanned, lane: lane)
            }
            isolateNonFinite(&unscanned, frames: task.frames, time: task.time, lane: lane)
            lane._withUnsafeGuaranteedRef { lane in
                lane.renderingNode.store(-1, ordering: .relaxed)
                lane.stepsRendered.store(lane.stepsRendered.load(ordering: .relaxed) &+ UInt64(end - first), ordering: .relaxed)
            }
        }
    }
}
