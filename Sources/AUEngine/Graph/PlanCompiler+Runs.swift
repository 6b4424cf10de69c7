import AUCore

/// Runs: stretches of a plan rendered in order on one thread whose units render in one call
/// (``UnitRun``: isolated nodes of one child, one hand-over a cycle instead of one each).
/// - Thread: [control]
extension PlanCompiler {
    /// Makes each longest stretch of consecutive steps that can render as one ``UnitRun`` a
    /// run led by its first step: every step has one input and one output bus; each after
    /// the first reads, directly, the output of the step before it, which nothing else reads;
    /// none prepares its input, splits its calls, adapts its blocks or takes or sends MIDI
    /// (latency is allowed: the bypass delays are fed from what each unit read); each
    /// unit renders in a run with the next (``AudioUnit/rendersInRun(with:)``).
    func formRuns(in plan: RenderPlan) {
        let steps = plan.steps
        var readers: [UnsafeMutablePointer<UnsafeMutablePointer<Float>>: Int] = [:]
        func read(_ input: PlanInput) {
            if input.kind == .direct { readers[input.base, default: 0] += 1 }
            if input.kind == .delayed { readers[input.sourceBase, default: 0] += 1 }
        }
        for step in steps { step.inputs.forEach(read) }
        plan.sink.map(read)
        func unit(_ index: Int) -> AudioUnit { steps[index].unitReference.takeUnretainedValue() }
        func isPlain(_ step: PlanStep) -> Bool {
            step.inputs.count == 1 && step.outputs.count == 1 && step.traits.subtracting(.hasLatency).isEmpty
        }
        func follows(_ index: Int) -> Bool {
            let step = steps[index], before = steps[index - 1]
            return isPlain(step) && step.inputs[0].kind == .direct && step.inputs[0].base == before.outputs[0].base
                && step.inputs[0].channels == before.outputs[0].channels && readers[before.outputs[0].base] == 1
                && unit(index - 1).rendersInRun(with: unit(index))
        }
        var start = 0
        while start < steps.count {
            var end = start + 1
            let leads = isPlain(steps[start]) && [.direct, .silence].contains(steps[start].inputs[0].kind)
            if leads { while end < steps.count && follows(end) { end += 1 } }
            if end - start > 1, let run = unit(start).makeRun(followedBy: (start + 1..<end).map(unit)) {
                plan.retain(run)
                plan.stepRuns[start] = Unmanaged.passUnretained(run)
                steps[start].traits.insert(.leadsRun)
            }
            start = end
        }
    }
}
