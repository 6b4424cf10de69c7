import AUHost
import Foundation

extension BenchCommand {
    /// Two copies of the reference chain side by side from the application's input into
    /// the built-in mixer, rendered single-threaded and on `threads` threads over the same
    /// input, in alternating timed runs; ns per cycle of each run.
    static func measureTwoBranches(_ registry: ComponentRegistry, cycles: Int, frames: Int, threads: Int) throws(AudioUnitError) -> (single: [Double], parallel: [Double]) {
        let single = try branchesGraph(registry, frames: frames, parallelism: .singleThreaded)
        defer { single.dispose() }
        let parallel = try branchesGraph(registry, frames: frames, parallelism: RenderParallelism(threads: threads))
        defer { parallel.dispose() }
        guard parallel.parallelDecision?.isParallel == true else {
            throw AudioUnitError(.failedInitialization, "the two-branch graph did not go parallel: \(parallel.parallelDecision?.reason ?? "no plan")")
        }
        let input = OwnedAudioBuffers(channels: 2, capacity: frames)
        for channel in 0..<2 {
            for frame in 0..<frames { input.buffers()[channel][frame] = Float(sin(Double(frame) * 0.1)) * 0.3 }
        }
        return withRenderer(single, input: input, frames: frames) { renderSingle in
            withRenderer(parallel, input: input, frames: frames) { renderParallel in
                alternate(alternatingRuns, { time(cycles: cycles) { renderSingle(cycles) } }, { time(cycles: cycles) { renderParallel(cycles) } })
            }
        }
    }

    private static func branchesGraph(_ registry: ComponentRegistry, frames: Int, parallelism: RenderParallelism) throws(AudioUnitError) -> AudioGraph {
        let graph = AudioGraph(registry: registry)
        graph.maximumFramesPerSlice = max(frames, 64)
        graph.parallelism = parallelism
        do throws(AudioUnitError) {
            let output = try graph.addNode(try registry.instantiate("auou:genr:AUHs"))
            let mixer = try graph.addNode(try registry.instantiate("aumx:mcmx:AUHs"))
            for branch in 0..<2 {
                var previous = output
                for uri in referenceChain {
                    let node = try graph.addNode(try registry.instantiate("lv2:" + uri))
                    try graph.connect(previous, to: node)
                    previous = node
                }
                try graph.connect(previous, to: mixer, input: branch)
            }
            try graph.connect(mixer, to: output)
            try graph.initialize()
            return graph
        } catch {
            graph.dispose()
            throw error
        }
    }
}
