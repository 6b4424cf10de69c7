import AUBridge
import AUCore
import AUEngine
import AULV2
import CAUSupport
import Foundation

/// `alloc-check --isolated`: a chain whose LV2 units run in unit-host children (application
/// input -> built-in EQ -> swh sc4 in a child of its own -> x42 fil4 in a child of its own ->
/// built-in EQ -> output; `--isolated-together`: both in one child, whose render thread spins
/// 200 µs for the next request, so that the host mostly posts without a wake), while the control thread schedules parameter changes on the
/// isolated units at frames inside the cycle (each slice one round trip). Counts what the
/// host's render thread allocates, frees, retains and locks on the bridge's path (the proxy
/// unit's render: copies into shared memory, a shared FUTEX_WAKE if the child sleeps, a spin, a FUTEX_WAIT
/// with a deadline, copies back). Strict mode does not apply: waiting for another process
/// is the bridge's one blocking call by design (docs/ISOLATION.md). `--isolated-behind`: the
/// two LV2 units alone, in one child, the graph offered a pipeline, so that the run renders one
/// slice behind (posted in one cycle, collected in the next). Prints one `key=value`
/// line and exits as the main check does; `roundTripMeanMicroseconds` is the bridge's time.
/// - Thread: [control]
enum IsolationCheck {
    static func run(shim: Shim, cycles: Int, frames: Int, warmup: Int, isolation: UnitIsolation, behind: Bool) -> Never {
        let registry = ComponentRegistry(providers: [BuiltinUnits(), LV2Provider(lv2Path: nil, probeCacheFile: nil)])
        let isolator = BridgeIsolator(childSpin: isolation == .together ? 200e-6 : 0) { fault in fail("an isolated unit's child ended: \(fault)", status: 1) }
        let graph = AudioGraph(registry: registry)
        graph.maximumFramesPerSlice = frames
        graph.parallelism = behind ? RenderParallelism(threads: 2, pipelineStages: 2) : .singleThreaded
        var isolated: [(GraphNode, BridgedUnit)] = []
        do {
            let output = try graph.addNode(ComponentDescription(parsing: "auou:genr:AUHs")!, name: "Output")
            var previous = output
            let isolatedUnits = ["lv2:" + PipelineCheck.compressor, "lv2:" + PipelineCheck.equalizer]
            for (index, reference) in (behind ? isolatedUnits : ["aufx:ipeq:AUHs"] + isolatedUnits + ["aufx:ipeq:AUHs"]).enumerated() {
                var component = try registry.resolve(reference)
                if component.format == .lv2 { component = isolator.isolated(component, node: "unit\(index)", reference: reference, mode: isolation) }
                let unit = try component.instantiate()
                let node = try graph.addNode(unit, name: "Unit \(index)")
                if let bridged = unit as? BridgedUnit { isolated.append((node, bridged)) }
                try graph.connect(previous, to: node)
                previous = node
            }
            try graph.connect(previous, to: output)
            try graph.initialize()
        } catch {
            fail("cannot build the isolated chain: \(error)", status: 1)
        }
        guard isolated.count == 2 else { fail("expected two isolated LV2 units, made \(isolated.count)", status: 1) }
        var sweep = ParameterSweep(graph: graph, nodes: isolated.map(\.0), frames: frames)
        do {
            try sweep.step()
        } catch {
            fail("control thread: \(error)", status: 1)
        }
        let input = RenderLoop.sineInput(frames: frames)
        let primed = OwnedAudioBuffers(channels: 2, capacity: frames)
        for cycle in 0..<16 {
            _ = graph.render(frameCount: frames, timestamp: RenderTimestamp(sampleTime: Double(cycle * frames)), input: input.buffers(), output: primed.buffers())
            graph.dispatchPendingNotifications()
        }
        let loop = RenderLoop(graph: graph, shim: shim, frames: frames, cycles: cycles, warmup: warmup, strict: false, input: input, driverMIDI: nil)
        var lastChangeAt = 0
        do {
            while !loop.isFinished {
                let now = loop.done.load(ordering: .acquiring)
                if now - lastChangeAt >= 50 {
                    lastChangeAt = now
                    try sweep.step()
                }
                usleep(200)
            }
        } catch {
            fail("control thread: \(error)", status: 1)
        }
        loop.join()
        let counts = shim.counts()
        let statistics = isolated.map { $0.1.renderStatistics }
        let roundTrips = statistics.reduce(0) { $0 + $1.cycles }
        let mean = statistics.reduce(0.0) { $0 + $1.meanMicroseconds * Double($1.cycles) } / Double(max(1, roundTrips))
        let late = statistics.reduce(0) { $0 + $1.lateCycles }
        let inRun = statistics.reduce(0) { $0 + $1.runCycles }
        let latency = graph.latencyFrames
        graph.dispose()
        report(counts, """
            cycles=\(cycles) warmup=\(warmup) frames=\(frames) isolatedUnits=\(isolated.count) latencyFrames=\(latency) children=\(Set(isolated.map { $0.1.host.pid }).count) parameterChanges=\(sweep.changes) \
            roundTrips=\(roundTrips) runCycles=\(inRun) lateCycles=\(late) roundTripMeanMicroseconds=\(String(format: "%.1f", mean)) \
            renderFailures=\(loop.failures.load(ordering: .relaxed))
            """)
        let clean = counts.mallocs + counts.callocs + counts.reallocs + counts.frees + counts.locks == 0
        exit(clean && loop.failures.load(ordering: .relaxed) == 0 && sweep.changes > 0 && late == 0 ? 0 : 1)
    }
}
