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

/// Rendering a cycle of several slices through a pipelined plan: in phase `p` stage `s`
/// renders slice `p - s`, each in its own region of the buffers, the calling thread and
/// the render workers taking one stage each. The calling thread fills a slice's input
/// before stage 0 takes it and copies a slice out after the last stage rendered it. Every
/// step renders every slice exactly as the single-threaded loop does (same slices, times
/// and parameter events), so the output is the same, sample for sample, and no latency is
/// added. No allocation and no lock; the one system call is the wake of parked workers.
/// - Thread: [render]
extension GraphRenderer {
    /// Renders `cycle` through `pipeline`; false when a phase was abandoned (a worker was
    /// still in a stage at the deadline, reported by name).
    func renderPipelined(_ cycle: PipelinedCycle, pipeline: PipelineSchedule, pool: RenderWorkerPool) -> Bool {
        let sliceFrames = pipeline.plan._withUnsafeGuaranteedRef { $0.sliceFrames }
        let slices = (cycle.frameCount + sliceFrames - 1) / sliceFrames
        let stages = pipeline.stageCount
        let lane = Unmanaged.passUnretained(mainLane)
        for phase in 0..<(slices + stages - 1) {
            var count = 0
            for stage in 0..<stages {
                let slice = phase - stage
                guard slice >= 0 && slice < slices else { continue }
                var time = cycle.timestamp
                time.sampleTime += Double(slice * sliceFrames)
                pipeline.tasks[count] = PipelineSchedule.Task(
                    stage: Int32(stage), region: Int32(slice % stages), sliceOffset: slice * sliceFrames,
                    frames: min(sliceFrames, cycle.frameCount - slice * sliceFrames), time: time,
                    events: cycle.events, plainCycle: cycle.plainCycle, measuresTime: cycle.measuresTime)
                count += 1
            }
            if phase < slices, let source = pipeline.regionSources[phase % stages] {
                fill(source.view(min(sliceFrames, cycle.frameCount - phase * sliceFrames)), from: cycle.input, at: phase * sliceFrames, skipping: 0)
            }
            pipeline.begin(count)
            if count > 1 {
                pool.pipelinePhase.store(UInt(bitPattern: Unmanaged.passUnretained(pipeline).toOpaque()), ordering: .relaxed)
                pool.openSlice()
            }
            let finished = renderPhaseTasks(pipeline, lane: lane, pool: pool)
            if count > 1 {
                guard closeSlice(pool, finished: finished, deadline: cycle.deadline, sampleTime: cycle.timestamp.sampleTime) else { return false }
            }
            let last = phase - (stages - 1)
            if last >= 0 {
                let frames = min(sliceFrames, cycle.frameCount - last * sliceFrames)
                var time = cycle.timestamp
                time.sampleTime += Double(last * sliceFrames)
                pipeline.plan._withUnsafeGuaranteedRef { plan in
                    drain(pipeline.regionSinks[last % stages], of: plan, into: cycle.output, at: last * sliceFrames, frames: frames, skipping: 0, time: time)
                }
            }
        }
        return true
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
