import AUCore
import AUEngine
import AULV2
import CAUSupport
import Foundation

/// `alloc-check --pipeline`: a serial chain that the plan compiler pipelines (application
/// input -> built-in EQ -> LV2 x42 fil4 -> LV2 swh sc4 -> LV2 x42 dpl (a latency report) ->
/// built-in EQ -> output), in slices of a quarter of the cycle, so every cycle runs its stages one slice
/// apart on the calling thread and the render workers (`threads` in all), while the control thread schedules
/// parameter changes at frames inside the cycle and swaps plans now and then (the slices in
/// flight rendered through their remaining stages by the plan that is replaced). Counts and watches every thread as the
/// main check does; prints one `key=value` line and exits as it does.
/// - Thread: [control]
enum PipelineCheck {
    static let equalizer = "http://gareus.org/oss/lv2/fil4#stereo"
    static let compressor = "http://plugin.org.uk/swh-plugins/sc4"

    static func run(shim: Shim, cycles: Int, frames: Int, warmup: Int, threads: Int, strict: Bool) -> Never {
        guard frames >= 8 else { fail("--pipeline needs at least 8 frames per cycle (four slices)", status: 64) }
        if strict { AudioGraph.watchRenderWorkersStrictly() }
        let registry = ComponentRegistry(providers: [BuiltinUnits(), LV2Provider(lv2Path: nil, probeCacheFile: nil)])
        let graph = AudioGraph(registry: registry)
        graph.maximumFramesPerSlice = frames / 4
        graph.parallelism = RenderParallelism(threads: threads, policy: .always, pipelineStages: threads)
        var nodes: [GraphNode] = []
        do {
            let output = try graph.addNode(ComponentDescription(parsing: "auou:genr:AUHs")!, name: "Output")
            var previous = output
            for (index, reference) in ["aufx:ipeq:AUHs", "lv2:" + equalizer, "lv2:" + compressor, "lv2:" + CheckGraph.dpl, "aufx:ipeq:AUHs"].enumerated() {
                let node = try graph.addNode(try registry.instantiate(reference), name: "Stage unit \(index)")
                try graph.connect(previous, to: node)
                nodes.append(node)
                previous = node
            }
            try graph.connect(previous, to: output)
            try graph.initialize()
        } catch {
            fail("cannot build the pipelined chain: \(error)", status: 1)
        }
        guard let decision = graph.parallelDecision, decision.isPipelined || threads == 1 else {
            fail("the chain was not pipelined: \(graph.parallelDecision?.reason ?? "no plan")", status: 1)
        }
        let input = RenderLoop.sineInput(frames: frames)
        // Before counting: dpl reports its latency when it first runs and the graph compiles
        // a plan that follows it, and a worker must have taken a stage once: the first pass
        // through each path instantiates runtime metadata (once per process, allocating, in a
        // debug build). Rendered here until both happened (at most 2000 cycles).
        var sweep = ParameterSweep(graph: graph, nodes: nodes, frames: frames)
        do {
            try sweep.step()
        } catch {
            fail("control thread: \(error)", status: 1)
        }
        let primed = OwnedAudioBuffers(channels: 2, capacity: frames)
        var cycle = 0
        while cycle < 4 || (graph.stepsRenderedByWorkers == 0 && threads > 1 && cycle < 2000) {
            _ = graph.render(frameCount: frames, timestamp: RenderTimestamp(sampleTime: Double(cycle * frames)), input: input.buffers(), output: primed.buffers())
            graph.dispatchPendingNotifications()
            cycle += 1
        }
        // And a plan swap: the first adoption of a plan that replaces a pipelined one (the
        // flush of its slices in flight) runs here too, whatever the timing.
        graph.parallelism.pipelineStages = threads + 1
        do {
            try graph.update()
        } catch {
            fail("cannot swap the pipelined plan: \(error)", status: 1)
        }
        for _ in 0..<4 {
            _ = graph.render(frameCount: frames, timestamp: RenderTimestamp(sampleTime: Double(cycle * frames)), input: input.buffers(), output: primed.buffers())
            cycle += 1
        }
        let loop = RenderLoop(graph: graph, shim: shim, frames: frames, cycles: cycles, warmup: warmup, strict: strict, input: input, driverMIDI: nil)
        var lastChangeAt = 0
        var lastSwapAt = 0
        var swaps = 0
        do {
            while !loop.isFinished {
                let now = loop.done.load(ordering: .acquiring)
                if now - lastChangeAt >= 50 {
                    lastChangeAt = now
                    try sweep.step()
                }
                // A live edit now and then: a new pipelined plan (its stages cut again by the
                // measured times) that takes over the slices in flight (the old plan renders
                // them through its remaining stages). Always pipelined: an automatic plan may be
                // judged not to pay on a loaded machine and go to one thread, whose first
                // cycles would then be counted (a debug build makes metadata once per path).
                // Stages allowed beyond the threads change nothing but make a new plan.
                if now - lastSwapAt >= max(1, cycles / 10) {
                    lastSwapAt = now
                    graph.parallelism.pipelineStages = graph.parallelism.pipelineStages == threads ? threads + 1 : threads
                    try graph.update()
                    swaps += 1
                }
                usleep(200)
            }
        } catch {
            fail("control thread: \(error)", status: 1)
        }
        loop.join()
        let counts = shim.counts()
        let workerSteps = graph.stepsRenderedByWorkers
        graph.dispose()
        let trapped = strict ? reportTrappedCalls() : 0
        if loop.strictStatus.load(ordering: .relaxed) != 0 {
            fail("strict mode: the kernel refused the seccomp filter (errno \(loop.strictStatus.load(ordering: .relaxed)))", status: 3)
        }
        report(counts, """
            trapped=\(trapped) cycles=\(cycles) warmup=\(warmup) frames=\(frames) parameterChanges=\(sweep.changes) planSwaps=\(swaps) \
            renderFailures=\(loop.failures.load(ordering: .relaxed)) nonFiniteCycles=\(loop.nonFinite.load(ordering: .relaxed)) \
            threads=\(threads) pipelined=\(decision.isPipelined ? 1 : 0) stages=\(decision.stages.count) workerSteps=\(workerSteps) workerWakes=\(au_futex_render_wakes())
            """)
        let clean = counts.mallocs + counts.callocs + counts.reallocs + counts.frees + counts.locks + trapped == 0
        exit(clean && loop.failures.load(ordering: .relaxed) == 0 && sweep.changes > 0 ? 0 : 1)
    }
}
