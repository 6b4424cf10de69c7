import AUCore

/// Rendering a run of steps in one call of its ``UnitRun`` (``PlanCompiler/formRuns(in:)``).
/// No allocation, no lock.
/// - Thread: [render]
extension GraphRenderer {
    /// Renders the run that `step` (at `index`) leads, in a cycle without parameter events
    /// of a plan rendered in order (each step's time measured when `measuresTime`: what the
    /// run waited for its unit); returns how many steps it rendered, nil when the run declined the
    /// cycle (a step of it bypassed, faulted or not plain now): the steps are then rendered
    /// one by one.
    @inline(__always)
    func renderRun(
        _ step: UnsafeMutablePointer<PlanStep>, at index: Int, _ plan: RenderPlan, measuresTime: Bool, frames: Int, time: RenderTimestamp,
        unscanned: inout UnsafeMutablePointer<PlanStep>?, lane: Unmanaged<RenderLane>
    ) -> Int? {
        guard let run = plan.stepRuns[index] else { return nil }
        return run._withUnsafeGuaranteedRef { run -> Int? in
            guard membersArePlain(step, count: run.count) else { return nil }
            isolateNonFinite(&unscanned, frames: frames, time: time, lane: lane)
            lane._withUnsafeGuaranteedRef { $0.renderingNode.store(step.pointee.node.rawValue, ordering: .relaxed) }
            let last = step + (run.count - 1)
            guard run.render(frames: frames, time: time, input: step.pointee.inputs[0].view(frames), output: last.pointee.outputs[0].view(frames)) else {
                return nil
            }
            finishRun(step, run, measuresTime: measuresTime, frames: frames, time: time, lane: lane)
            return run.count
        }
    }

    /// Whether none of the `count` steps from `step` is bypassed, faulted or otherwise
    /// special, so that their run may render them.
    @inline(__always)
    func membersArePlain(_ step: UnsafeMutablePointer<PlanStep>, count: Int) -> Bool {
        for member in 0..<count where (step + member).pointee.runtimeReference._withUnsafeGuaranteedRef({ $0.isSpecial }) { return false }
        return true
    }

    /// What follows a cycle `run` (led by `step`) rendered: what a step renders in one
    /// process (its failure or NaN silenced and reported) the run's outcomes report here; the
    /// run's last output is already scanned; a step with latency has its bypass delays fed
    /// from what it read (the first step's input still in its buffer).
    @inline(__always)
    func finishRun(
        _ step: UnsafeMutablePointer<PlanStep>, _ run: UnitRun, measuresTime: Bool, frames: Int, time: RenderTimestamp, lane: Unmanaged<RenderLane>
    ) {
        for member in 0..<run.count {
            let memberStep = step + member
            if memberStep.pointee.traits.contains(.hasLatency), let delay = memberStep.pointee.bypassDelays[0] {
                let input = member == 0 ? step.pointee.inputs[0].view(frames) : run.input(of: member, frames: frames)
                delay._withUnsafeGuaranteedRef { $0.feed(input, frames: frames) }
            }
            let outcome = run.outcomes[member]
            if measuresTime {
                _ = memberStep.pointee.runtimeReference._withUnsafeGuaranteedRef { $0.renderNanoseconds.add(outcome.nanoseconds, ordering: .relaxed) }
            }
            if outcome.wroteNonFinite {
                reportNonFinite(step + member, time: time, lane: lane)
            } else if outcome.status != 0 {
                fail(step + member, outcome.status, frames: frames, time: time, lane: lane)
            }
        }
    }
}
