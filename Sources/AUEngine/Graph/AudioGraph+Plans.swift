import AUCore

/// Compiling the model into a ``RenderPlan`` and publishing it to the render thread; compiling
/// again when a unit's latency changed or the measured node costs should decide the threads.
extension AudioGraph {
    func publishPlan() throws(AudioUnitError) {
        RenderThread.assertNotCurrent("AudioGraph.initialize/update")
        let order = try GraphTopology.renderOrder(model)
        for node in model.order {
            let unit = try unit(of: node)
            guard unit.state == .uninitialized else { continue }
            var frames = maximumFramesPerSlice
            if case .fixed(let size) = PlanCompiler.requirement(of: unit) { frames = max(frames, size) }
            do {
                try unit.setValue(frames, for: .maximumFramesPerSlice)
            } catch {
                throw AudioUnitError(error.code, "\(model.label(node)): \(error.message)", underlying: error)
            }
        }
        try FormatPropagation.propagate(model, order: order)
        for node in model.order {
            let unit = try unit(of: node)
            guard unit.state == .uninitialized else { continue }
            do {
                try unit.initialize()
            } catch {
                throw AudioUnitError(error.code, "\(model.label(node)) failed to initialize: \(error.message)", underlying: error)
            }
        }
        for (node, runtime) in runtimes {
            runtime.isBypassed.store(model.bypassed.contains(node), ordering: .relaxed)
        }
        let compiler = PlanCompiler(
            model: model, order: order, runtimes: runtimes, sliceFrames: maximumFramesPerSlice, pipelineSliceFrames: effectivePipelineSliceFrames,
            generation: generation + 1, measuresTime: measuresRenderTime, parallelism: parallelism,
            timedCycles: renderer.timedCycles.load(ordering: .relaxed), workersRefusal: workersRefusal)
        let compiled = try compiler.compile(reusing: reuse)
        if let schedule = compiled.schedule { compiled.plan.renderInParallel(schedule, on: pool(workers: parallelism.workers)) }
        if let pipeline = compiled.pipeline { compiled.plan.renderInPipeline(pipeline, on: pool(workers: parallelism.workers)) }
        if let delay = outputDelay(slices: compiled.report.parallel?.addedLatencySlices ?? 0, channels: compiled.plan.sink?.channels ?? 0) {
            compiled.plan.delayOutput(through: delay)
        }
        generation += 1
        reuse = compiled.reuse
        report = compiled.report
        renderer.publish(compiled.plan)
        var targets: [GraphNode: ParameterTargets.Target] = [:]
        for node in model.order {
            if let unit = model.nodes[node]?.unit { targets[node] = ParameterTargets.Target(unit: unit, label: model.label(node)) }
        }
        parameterTargets.publish(targets)
        hasPendingEdits = false
    }

    /// The output delay of a chain that may be pipelined by `slices` slices: the one the
    /// running plan uses while its shape holds, so that a new plan takes over what is in it
    /// (the latency stays and no frame is lost); nil for 0 slices.
    private func outputDelay(slices: Int, channels: Int) -> PipelineDelay? {
        let frames = slices * effectivePipelineSliceFrames
        guard frames > 0 else {
            pipelineDelay = nil
            return nil
        }
        if let pipelineDelay, pipelineDelay.frames == frames, pipelineDelay.channels == max(1, channels) { return pipelineDelay }
        let made = PipelineDelay(frames: frames, channels: channels, sliceFrames: maximumFramesPerSlice)
        pipelineDelay = made
        return made
    }

    /// Publishes a plan that compensates the units' latencies when one of them changed since
    /// the running plan was compiled (and no edit waits for ``update()``); the notice that
    /// says so, or nil. A plan that fails to compile leaves the running one and waits, as an
    /// edit, for ``update()`` to report the error.
    /// - Thread: [control]
    func followLatencyChange() -> GraphNotice? {
        guard isInitialized, !hasPendingEdits, let changed = nodeWithUncompensatedLatency else { return nil }
        hasPendingEdits = true
        do {
            try publishPlan()
        } catch {
            return nil
        }
        return GraphNotice(kind: .latencyChanged, node: changed, status: Int32(clamping: report.latency), sampleTime: 0)
    }

    /// The first node whose unit's `Latency` differs from the one the running plan compensates.
    private var nodeWithUncompensatedLatency: GraphNode? {
        model.order.first { node in
            guard let unit = model.nodes[node]?.unit else { return false }
            return PlanCompiler.latencyFrames(of: unit) != report.unitLatency[node] ?? 0
        }
    }

    /// Whether the running plan compensates the latency every unit reports now (a unit that
    /// reports its latency only when it runs may have changed it in its first cycle).
    /// - Thread: [control]
    public var compensatesReportedLatencies: Bool { !isInitialized || nodeWithUncompensatedLatency == nil }

    /// Timed cycles (one in ``GraphRenderer/timingInterval``) after which an estimated
    /// threads decision is made again on the measured node times.
    static let timedCyclesForMeasuredDecision: UInt64 = 8

    /// Compiles the plan again when its threads decision was estimated (before the graph
    /// rendered) and the graph has since timed enough cycles, so that one thread, branches on
    /// the workers or a pipeline follow what the units really cost: two branches of
    /// plugins estimated at 20 µs each may take 6 µs at 64 frames, where waking a worker
    /// costs more than it saves. Once; live edits, as any plan, glitch-free.
    func followMeasuredCosts() {
        guard isInitialized, !hasPendingEdits, !followedMeasuredCosts, measuresRenderTime, parallelism.threads > 1,
              report.parallel?.isMeasured == false, renderer.timedCycles.load(ordering: .relaxed) >= Self.timedCyclesForMeasuredDecision else { return }
        followedMeasuredCosts = true
        hasPendingEdits = true
        do {
            try publishPlan()
        } catch {
            return
        }
    }
}
