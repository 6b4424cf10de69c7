import AUCore

/// A slice a plan's run was posted for and has not been collected: its frames and time.
/// - Thread: [render]
struct RunBehind: BitwiseCopyable {
    var isPending = false
    var frames = 0
    var time = RenderTimestamp(sampleTime: 0)
}

extension RenderPlan {
    /// Whether every step is one run (``UnitRun``: isolated units in one child) that reads
    /// the output node's output and that the output node's input reads directly, with no MIDI
    /// and nothing rendered beside it.
    /// - Thread: [control]
    var isOneRun: Bool {
        guard parallel == nil, pipeline == nil, !routesMIDI, midiScheduler == nil, let run = stepRuns.first ?? nil,
              run.takeUnretainedValue().count == steps.count, let sink, sink.kind == .direct, let last = steps.last,
              last.outputs.count == 1, sink.base == last.outputs[0].base
        else { return false }
        return true
    }
}

/// Rendering a plan of one run one slice behind: a graph whose output is delayed anyway (its
/// chain may be pipelined: offline, `run --pipeline`) posts each slice to its run and returns
/// without waiting, and collects that slice at the next one, before posting it. The units'
/// child renders a slice while the host does its own work between cycles (reading and
/// writing files offline, the rest of the period live), as a pipeline's second stage would
/// on a second thread: one slice of latency, the one the output delay already adds, so the
/// output is the same, sample for sample, at the same time. A slice with parameter events,
/// longer than the delay or that the run declines is collected and rendered at once, in order.
/// No allocation, no lock.
/// - Thread: [render]
extension GraphRenderer {
    /// Renders one cycle of `plan` (``RenderPlan/isOneRun``) through `delay`.
    @inline(__always)
    func renderBehind(
        _ plan: RenderPlan, _ behind: UnsafeMutablePointer<RunBehind>, delay: PipelineDelay, frameCount: Int, timestamp: RenderTimestamp,
        input: AudioBuffers?, output: AudioBuffers, plainCycle: Bool, measuresTime: Bool, events: Int
    ) {
        // The run reads its input after the caller's buffers are gone: the plan's own.
        _ = plan.sourceBinding?.bind(nil)
        _ = plan.sinkBinding?.bind(nil)
        let first = plan.steps.baseAddress.unsafelyUnwrapped
        let lane = Unmanaged.passUnretained(mainLane)
        var done = 0
        while done < frameCount {
            let frames = min(plan.sliceFrames, frameCount - done)
            var time = timestamp
            time.sampleTime += Double(done)
            collectBehind(plan, behind, into: delay, measuresTime: measuresTime)
            cycleInputOffset = done
            if let source = plan.source { fill(source.view(frames), from: input, at: done, skipping: 0) }
            let posted = events == 0 && frames <= delay.frames && membersArePlain(first, count: plan.steps.count)
                && plan.stepRuns[0].unsafelyUnwrapped._withUnsafeGuaranteedRef { run in
                    lane._withUnsafeGuaranteedRef { $0.renderingNode.store(first.pointee.node.rawValue, ordering: .relaxed) }
                    return run.post(frames: frames, time: time, input: first.pointee.inputs[0].view(frames))
                }
            if posted {
                behind.pointee = RunBehind(isPending: true, frames: frames, time: time)
                mainLane.renderingNode.store(-1, ordering: .relaxed)
            } else {
                renderStepsInOrder(plan, plainCycle: plainCycle, measuresTime: measuresTime, events: events, sliceOffset: done, frames: frames, time: time)
                delay.push(plan.sink.map { sinkView($0, of: plan, frames: frames, time: time) }, frames: frames)
            }
            delay.pop(into: output, at: done, frames: frames)
            done += frames
        }
    }

    /// Collects the slice `plan`'s run was posted for, if any, and pushes its output into
    /// `delay` (on a plan swap, the old plan's slice goes into the delay the new one pops).
    @inline(__always)
    func collectBehind(_ plan: RenderPlan, _ behind: UnsafeMutablePointer<RunBehind>, into delay: PipelineDelay, measuresTime: Bool) {
        guard behind.pointee.isPending else { return }
        behind.pointee.isPending = false
        let frames = behind.pointee.frames, time = behind.pointee.time
        let first = plan.steps.baseAddress.unsafelyUnwrapped, last = first + (plan.steps.count - 1)
        let lane = Unmanaged.passUnretained(mainLane)
        lane._withUnsafeGuaranteedRef { $0.renderingNode.store(first.pointee.node.rawValue, ordering: .relaxed) }
        plan.stepRuns[0].unsafelyUnwrapped._withUnsafeGuaranteedRef { run in
            run.collect(frames: frames, time: time, output: last.pointee.outputs[0].view(frames))
            finishRun(first, run, measuresTime: measuresTime, frames: frames, time: time, lane: lane)
        }
        mainLane.renderingNode.store(-1, ordering: .relaxed)
        delay.push(plan.sink.map { sinkView($0, of: plan, frames: frames, time: time) }, frames: frames)
    }
}
