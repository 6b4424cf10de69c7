import AUHost
import Foundation

extension BenchCommand {
    /// The reference chain pipelined over `threads` threads (the calling thread among them),
    /// in cycles of several slices of `frames` frames (stages balanced by the times measured
    /// in a warm-up), against the C loop over the same frames, in alternating timed runs:
    /// ns per slice of each run, the stages and the slices per cycle; or one run of the
    /// pipelined side (`onlyPipelined`).
    static func measurePipelinedChain(
        _ registry: ComponentRegistry, cycles: Int, frames: Int, threads: Int, onlyPipelined: Bool = false
    ) throws(AudioUnitError) -> (pipelined: [Double], cLoop: [Double], stages: String, slices: Int) {
        let units = try referenceChain.map { uri throws(AudioUnitError) in try registry.instantiate("lv2:" + uri) }
        let graph = try chainGraph(registry, units: units, frames: frames, parallelism: RenderParallelism(threads: threads).pipeliningOverEveryThread)
        defer { graph.dispose() }
        let slices = graph.preferredSlicesPerCycle
        guard slices > 1 else {
            throw AudioUnitError(.failedInitialization, "the reference chain was not pipelined: \(graph.parallelDecision?.reason ?? "no plan")")
        }
        let loop = onlyPipelined ? nil : try CLoopProcess(frames: frames)
        let cycleFrames = frames * slices
        let input = referenceInput(frames: frames, cycleFrames: cycleFrames)
        let bigCycles = max(1, cycles / slices)
        // Balance the stages by what each plugin measured in a warm-up (the plan is compiled again).
        withRenderer(graph, input: input, frames: cycleFrames) { render in render(max(64, bigCycles / 4)) }
        graph.parallelism = RenderParallelism(threads: threads, policy: .always, pipelineStages: threads)
        try graph.update()
        let stages = (graph.parallelDecision?.stages ?? []).map { "\($0.count)" }.joined(separator: "+") + " plugins"
        let runs = withRenderer(graph, input: input, frames: cycleFrames) { render in
            if onlyPipelined { return ([time(cycles: bigCycles * slices) { render(bigCycles) }], [Double]()) }
            return alternate(
                alternatingRuns, { time(cycles: bigCycles * slices) { render(bigCycles) } },
                { loop?.time(cycles: bigCycles * slices) ?? .nan })
        }
        try loop?.close()
        return (runs.0, runs.1, stages, slices)
    }
}
