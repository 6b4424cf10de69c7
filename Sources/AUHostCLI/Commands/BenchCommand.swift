import AUHost
import Foundation

/// `auhost bench graph`: what the graph's renderer costs. Build with `-c release` first:
/// debug builds add reference counting and bounds checks to every call.
/// - Thread: [control] (it renders on the calling thread, which it marks as the render thread).
enum BenchCommand: Command {
    static let name = "bench"
    static let summary = "measure the graph renderer: cost per cycle and host overhead per node"
    static let help = """
        usage: auhost bench graph [--cycles N] [--frames N] [--profile graph|cloop|pipeline]

        Renders plans of 1, 8, 64 and 256 trivial nodes (the built-in Splitter with one
        output: a copy) in a chain, and the same units called directly one after the other
        without a graph, in alternating runs, and prints the cost per cycle and per node; the
        difference is the graph's overhead per node. Then renders the reference chain (x42 fil4 stereo EQ ->
        swh sc4 compressor -> mda Delay -> mda Ambience -> x42 dpl limiter), when those LV2
        plugins are installed, through the graph and through a plain C loop that calls
        the same plugins directly through lilv, in alternating runs, and prints both costs
        per cycle and the graph's overhead over the C loop. Then renders two copies of the
        reference chain in parallel branches into the mixer on one thread and on as many
        threads as the cores (at least 2), in alternating runs, and prints the speed-up.
        Last, renders the reference chain pipelined (its stages balanced by measured time, one
        per thread, in cycles of 16 slices of N frames) against
        the C loop over the same frames, and prints the pipelined time over the C loop's.

          --cycles N         cycles per measurement (default 20000; divided by the node count for large plans, at least 2000)
          --frames N         frames per cycle (default 64)
          --profile SIDE     render only the reference chain, through the graph or the C loop,
                             for --cycles cycles, and print its cost: a run to record with perf

        Figures are medians of alternating runs: 9 of each side for trivial nodes, 15 for the
        reference chain. Use a release build: swift build -c release.

        """

    static func run(_ arguments: inout Arguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        let cycles = try arguments.option("--cycles", expected: "a positive number of cycles") { Int($0).flatMap { $0 > 0 ? $0 : nil } } ?? 20_000
        let frames = try arguments.option("--frames", expected: "a frame count in 1...4096") { Int($0).flatMap { (1...4096).contains($0) ? $0 : nil } } ?? 64
        let profiled = try arguments.option("--profile", expected: "graph, cloop or pipeline") { ChainSide(rawValue: $0) }
        let what = try arguments.finish(positionals: 1...1, names: "what to measure (graph)")[0]
        guard what == "graph" else { throw .usage("bench measures 'graph', not '\(what)'", command: name) }
        #if DEBUG
        context.errors.line("auhost: warning: this is a debug build; measure with 'swift build -c release'")
        #endif
        let output = context.output
        if let profiled {
            do {
                output.line(try profile(profiled, context.registry, cycles: cycles, frames: frames))
                return 0
            } catch {
                throw CLIError("bench: \(error)")
            }
        }
        output.line("graph renderer, \(frames)-frame cycles, 48 kHz stereo, medians of \(trivialRuns) alternating runs")
        output.line("nodes  graph ns/cycle  graph ns/node  direct ns/node  overhead ns/node")
        do {
            for count in [1, 8, 64, 256] {
                let runCycles = max(2000, cycles / max(1, count / 8))
                let runs = try measureTrivialChain(nodes: count, cycles: runCycles, frames: frames)
                let graphTime = median(runs.graph), directTime = median(runs.direct)
                let overhead = median(zip(runs.graph, runs.direct).map { ($0 - $1) / Double(count) })
                output.line(String(
                    format: "%5d  %14.0f  %13.1f  %14.1f  %16.1f", count, graphTime, graphTime / Double(count),
                    directTime / Double(count), overhead))
            }
        } catch {
            throw CLIError("bench: \(error)")
        }
        output.line("")
        do {
            let chain = try measureReferenceChain(context.registry, cycles: cycles, frames: frames)
            let budget = Double(frames) / 48_000 * 1e9
            output.line("reference chain (5 LV2 plugins), \(frames)-frame cycles, medians of \(chain.graph.count) alternating runs")
            output.line(String(format: "graph   %6.0f ns/cycle  %4.0fx real time", median(chain.graph), budget / median(chain.graph)))
            output.line(String(format: "C loop  %6.0f ns/cycle  %4.0fx real time", median(chain.cLoop), budget / median(chain.cLoop)))
            let ratios = zip(chain.graph, chain.cLoop).map { $0 / $1 }
            output.line(String(
                format: "graph overhead over the C loop: %+.1f%% (median of the runs' ratios; range %+.1f%% to %+.1f%%)",
                (median(ratios) - 1) * 100, (ratios.min()! - 1) * 100, (ratios.max()! - 1) * 100))
        } catch {
            output.line("reference chain: not measured: \(error)")
        }
        output.line("")
        do {
            let runs = try measureTwoBranches(context.registry, cycles: cycles, frames: frames, threads: parallelThreads)
            output.line("two reference chains in parallel branches into the mixer, \(frames)-frame cycles, medians of \(runs.single.count) alternating runs")
            output.line(String(format: "1 thread    %6.0f ns/cycle", median(runs.single)))
            output.line(String(format: "%d threads   %6.0f ns/cycle", parallelThreads, median(runs.parallel)))
            output.line(ratioLine("speed-up", zip(runs.single, runs.parallel).map { $0 / $1 }))
        } catch {
            output.line("two branches: not measured: \(error)")
        }
        output.line("")
        do {
            let runs = try measurePipelinedChain(context.registry, cycles: cycles, frames: frames, threads: parallelThreads)
            output.line("reference chain pipelined (\(runs.stages)), cycles of \(runs.slices) slices of \(frames) frames, medians of \(runs.pipelined.count) alternating runs")
            output.line(String(format: "C loop      %6.0f ns/slice (one thread)", median(runs.cLoop)))
            output.line(String(format: "pipelined   %6.0f ns/slice (%d threads)", median(runs.pipelined), parallelThreads))
            output.line(ratioLine("pipelined time over the C loop's", zip(runs.pipelined, runs.cLoop).map { $0 / $1 }))
        } catch {
            output.line("pipelined chain: not measured: \(error)")
        }
        return 0
    }

    /// One run of one side of the reference chain (`--profile`): its line.
    static func profile(_ side: ChainSide, _ registry: ComponentRegistry, cycles: Int, frames: Int) throws(AudioUnitError) -> String {
        if side == .pipeline {
            let runs = try measurePipelinedChain(registry, cycles: cycles, frames: frames, threads: parallelThreads, onlyPipelined: true)
            return String(
                format: "reference chain pipelined (%@) over %d threads: %d slices of %d frames, %.0f ns/slice",
                runs.stages, parallelThreads, cycles, frames, runs.pipelined[0])
        }
        let cost = try measureReferenceChain(registry, cycles: cycles, frames: frames, only: side)
        return String(
            format: "reference chain through the %@: %d cycles of %d frames, %.0f ns/cycle",
            side == .graph ? "graph" : "C loop", cycles, frames, (cost.graph + cost.cLoop)[0])
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// `what: 1.74x (median of the runs' ratios; range 1.58x to 1.91x)`.
    static func ratioLine(_ what: String, _ ratios: [Double]) -> String {
        String(format: "%@: %.2fx (median of the runs' ratios; range %.2fx to %.2fx)", what, median(ratios), ratios.min()!, ratios.max()!)
    }

    /// The threads the parallel and pipelined measurements render on: as many as the cores,
    /// at least 2 (the calling thread and a render worker).
    static var parallelThreads: Int { max(2, RenderParallelism.machineDefault.threads) }

    /// `runs` timed runs of `first` and of `second`, alternating, after one warm-up run of
    /// each, so that the machine's drift touches both alike.
    static func alternate(_ runs: Int, _ first: () -> Double, _ second: () -> Double) -> ([Double], [Double]) {
        _ = (first(), second())
        var firstTimes: [Double] = [], secondTimes: [Double] = []
        for _ in 0..<runs {
            firstTimes.append(first())
            secondTimes.append(second())
        }
        return (firstTimes, secondTimes)
    }

    /// One timed run of `body`, in ns per cycle.
    static func time(cycles: Int, _ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(cycles)
    }

    private static func trivialUnit(_ registry: ComponentRegistry) throws(AudioUnitError) -> AudioUnit {
        let unit = try registry.instantiate("aufx:splt:AUHs")
        try unit.setValue(1, for: .elementCount, scope: .output)
        return unit
    }

    /// Alternating runs of each side of a trivial chain.
    static let trivialRuns = 9

    /// A chain of `nodes` trivial nodes from the application's input to its output, through
    /// the graph and called directly one after the other (through `renderCycleFromGraph`
    /// and unmanaged references, as the graph calls them, inside one `RenderThread.run` per
    /// cycle), in alternating timed runs after a warm-up of both. Returns ns per cycle of
    /// each run.
    static func measureTrivialChain(nodes: Int, cycles: Int, frames: Int) throws(AudioUnitError) -> (graph: [Double], direct: [Double]) {
        let registry = ComponentRegistry(providers: [BuiltinUnits()])
        let graph = try chainGraph(registry, units: (0..<nodes).map { _ throws(AudioUnitError) in try trivialUnit(registry) }, frames: frames)
        defer { graph.dispose() }
        var units: [AudioUnit] = []
        defer { for unit in units { unit.dispose() } }
        for _ in 0..<nodes {
            let unit = try trivialUnit(registry)
            try unit.setValue(max(frames, 64), for: .maximumFramesPerSlice)
            try unit.initialize()
            units.append(unit)
        }
        let references = UnsafeMutableBufferPointer<Unmanaged<AudioUnit>>.allocate(capacity: nodes)
        defer { references.deallocate() }
        for index in 0..<nodes { references.initializeElement(at: index, to: Unmanaged.passUnretained(units[index])) }
        let buffers = (0...nodes).map { _ in OwnedAudioBuffers(channels: 2, capacity: frames) }
        let views = UnsafeMutableBufferPointer<AudioBuffers>.allocate(capacity: nodes + 1)
        defer { views.deallocate() }
        for index in 0...nodes { views.initializeElement(at: index, to: buffers[index].buffers(frameCount: frames)) }
        var directTime = 0.0
        func renderDirectly() {
            for _ in 0..<cycles {
                RenderThread.run {
                    for index in 0..<nodes {
                        _ = references[index]._withUnsafeGuaranteedRef {
                            $0.renderCycleFromGraph(
                                timestamp: RenderTimestamp(sampleTime: directTime), frameCount: frames,
                                inputs: UnsafeBufferPointer(rebasing: views[index..<index + 1]),
                                outputs: UnsafeBufferPointer(rebasing: views[index + 1..<index + 2]),
                                midi: UnsafeBufferPointer(start: nil, count: 0))
                        }
                    }
                }
                directTime += Double(frames)
            }
        }
        // The views point into `buffers`: keep them alive while rendering.
        return withExtendedLifetime(buffers) {
            withRenderer(graph, input: buffers[0], frames: frames) { render in
                alternate(trivialRuns, { time(cycles: cycles) { render(cycles) } }, { time(cycles: cycles, renderDirectly) })
            }
        }
    }

    static let referenceChain = [
        "http://gareus.org/oss/lv2/fil4#stereo",
        "http://plugin.org.uk/swh-plugins/sc4",
        "http://drobilla.net/plugins/mda/Delay",
        "http://drobilla.net/plugins/mda/Ambience",
        "http://gareus.org/oss/lv2/dpl#stereo",
    ]

    /// Where the reference chain runs: through the graph or through the C loop.
    enum ChainSide: String {
        case graph, cloop, pipeline
    }

    /// Alternating runs of each side. On this noisy 2-core VM, the median of 5 ratios moved by
    /// ±0.5 % from one invocation to the next; of 15, by ±0.2 %.
    static let alternatingRuns = 15

    /// The reference chain, stereo, through the graph and through the C loop (``CLoopProcess``)
    /// over the same input, in alternating timed runs (after a warm-up of both), so that the
    /// machine's drift touches both alike; or one run of one side (`only`). Returns ns per
    /// cycle of each run.
    static func measureReferenceChain(_ registry: ComponentRegistry, cycles: Int, frames: Int, only side: ChainSide? = nil) throws(AudioUnitError) -> (graph: [Double], cLoop: [Double]) {
        let graph = try chainGraph(registry, units: referenceChain.map { uri throws(AudioUnitError) in try registry.instantiate("lv2:" + uri) }, frames: frames)
        defer { graph.dispose() }
        let loop = side == .graph ? nil : try CLoopProcess(frames: frames)
        let input = referenceInput(frames: frames, cycleFrames: frames)
        let runs = withRenderer(graph, input: input, frames: frames) { render in
            func run(_ side: ChainSide) -> Double {
                side == .graph ? time(cycles: cycles) { render(cycles) } : loop?.time(cycles: cycles) ?? .nan
            }
            if let side { return side == .graph ? ([run(.graph)], []) : ([], [run(.cloop)]) }
            return alternate(alternatingRuns, { run(.graph) }, { run(.cloop) })
        }
        try loop?.close()
        return runs
    }

    /// The graph's stereo input for cycles of `cycleFrames` frames: the C loop's input (a sine
    /// over `frames` frames: lv2-chain-bench's `fill_input`), once per `frames` frames.
    static func referenceInput(frames: Int, cycleFrames: Int) -> OwnedAudioBuffers {
        let input = OwnedAudioBuffers(channels: 2, capacity: cycleFrames)
        for channel in 0..<2 {
            for frame in 0..<cycleFrames { input.buffers()[channel][frame] = Float(sin(Double(frame % frames) * 0.1)) * 0.3 }
        }
        return input
    }

    /// An initialized graph running `units` in series from the application's input to its
    /// output, for cycles of `frames` frames, as `auhost render` and `auhost run` build it
    /// (timing its nodes on one cycle in 32, for the dump), single-threaded unless
    /// `parallelism` says otherwise.
    static func chainGraph(
        _ registry: ComponentRegistry, units: [AudioUnit], frames: Int, parallelism: RenderParallelism = .singleThreaded
    ) throws(AudioUnitError) -> AudioGraph {
        let graph = AudioGraph(registry: registry)
        graph.maximumFramesPerSlice = max(frames, 64)
        graph.parallelism = parallelism
        do throws(AudioUnitError) {
            let output = try graph.addNode(try registry.instantiate("auou:genr:AUHs"))
            var previous = output
            for unit in units {
                let node = try graph.addNode(unit)
                try graph.connect(previous, to: node)
                previous = node
            }
            try graph.connect(previous, to: output)
            try graph.initialize()
            return graph
        } catch {
            graph.dispose()
            throw error
        }
    }

    /// Calls `body` with a function that renders `graph` over `input` for a number of
    /// cycles of `frames` frames.
    static func withRenderer<Result>(_ graph: AudioGraph, input: OwnedAudioBuffers, frames: Int, _ body: (_ render: (Int) -> Void) -> Result) -> Result {
        let out = OwnedAudioBuffers(channels: 2, capacity: frames)
        let inputView = input.buffers(), outputView = out.buffers()
        var time = 0.0
        // The views point into `input` and `out`: keep them alive while rendering.
        return withExtendedLifetime((input, out)) {
            RenderThread.flushingDenormals { body { cycles in
                for _ in 0..<cycles {
                    _ = graph.render(frameCount: frames, timestamp: RenderTimestamp(sampleTime: time), input: inputView, output: outputView)
                    time += Double(frames)
                }
            } }
        }
    }
}
