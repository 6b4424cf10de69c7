import AUCore
import AUHost
import AUTestSupport
import Foundation
import Synchronization
import Testing

/// Runs (docs/ISOLATION.md, "Runs"): the consecutive isolated nodes of a `together` child
/// render in one hand-over a cycle (``UnitRun``), and give what they give one by one in
/// process: the same samples, a unit writing NaN silenced and reported, a bypassed node with
/// latency delayed as in process, output parameters (an LV2 latency output) carried back.
@Suite struct IsolationRunTests {
    static let frames = 256
    static let cycles = 40

    /// The fixture's latency output (`urn:auhost:fixture:file-latency` delays its input by
    /// the frames its bundle's file `latency` holds and reports them there).
    static let latencyPort = """
        [ a lv2:OutputPort , lv2:ControlPort ; lv2:index 2 ; lv2:symbol "latency" ; lv2:name "Latency" ; \
        lv2:portProperty lv2:reportsLatency , lv2:integer ; lv2:designation lv2:latency ]
        """

    /// A bundle folder of the fixtures, `file-latency`'s set to 100 frames.
    struct Fixtures {
        let folder: TemporaryFolder
        var lv2Path: String { folder.path + ":/usr/lib/lv2" }

        init() throws {
            folder = try TemporaryFolder(prefix: "auhost-runs")
            for fixture in ["passthrough", "nan-output", "crash-in-run", "exit-in-run"] {
                try writeFixtureBundle(fixture, name: "Fixture \(fixture)", into: folder.url)
            }
            try writeFixtureBundle("file-latency", name: "Fixture file-latency", into: folder.url, extraPorts: [IsolationRunTests.latencyPort])
            try "100\n".write(toFile: folder.file("file-latency.lv2/latency"), atomically: true, encoding: .utf8)
        }

        func remove() { folder.remove() }
    }

    /// A mono chain: swh amp at -6 dB, the fixture `middle`, swh amp at -3 dB.
    static func preset(_ middle: String) -> String {
        """
        {"auhost": 1, "name": "run", "sampleRate": 48000, "nodes": [
          {"id": "first", "unit": "lv2:http://plugin.org.uk/swh-plugins/amp", "parameters": {"gain": -6}},
          {"id": "middle", "unit": "lv2:urn:auhost:fixture:\(middle)"},
          {"id": "last", "unit": "lv2:http://plugin.org.uk/swh-plugins/amp", "parameters": {"gain": -3}}],
         "chain": ["first", "middle", "last"]}
        """
    }

    /// What a render gave: the output, the graph's notices, each isolated node's statistics,
    /// the faults the isolator heard of.
    struct Rendered {
        var output: [[Float]]
        var notices: [GraphNotice]
        var statistics: [String: IsolatedRenderStatistics]
        var nodes: [String: GraphNode]
        var faults: [IsolationFault] = []
        /// The graph's latency in frames (a pipelined chain's output is a slice late).
        var latency = 0
    }

    /// The chain of `json` with every node isolated as `isolation`, its faults told to `onFault`.
    static func chain(
        _ json: String, isolation: UnitIsolation, fixtures: Fixtures, parallelism: RenderParallelism = .singleThreaded,
        onFault: @escaping @Sendable (IsolationFault) -> Void = { _ in }
    ) throws -> ChainGraph {
        let registry = ComponentRegistry(providers: [BuiltinUnits(), LV2Provider(lv2Path: fixtures.lv2Path, probeCacheFile: nil)])
        var loader = PresetLoader(registry: registry)
        loader.isolator = BridgeIsolator(timeout: 5, environment: ["LV2_PATH": fixtures.lv2Path], onFault: onFault)
        loader.isolation = isolation
        return try ChainGraph(try loader.load(data: Data(json.utf8), file: "run.json"), registry: registry, sampleRate: 48_000, maximumFrames: frames, parallelism: parallelism)
    }

    /// Cycles of a sine (``cycles`` of ``frames`` frames, or `lengths`) through `json` with
    /// every node isolated as `isolation`; `beforeCycle` runs on the control thread before each.
    static func render(
        _ json: String, isolation: UnitIsolation, fixtures: Fixtures, parallelism: RenderParallelism = .singleThreaded,
        lengths: [Int] = Array(repeating: frames, count: cycles), beforeCycle: (Int, ChainGraph) throws -> Void = { _, _ in }
    ) throws -> Rendered {
        let heard = Mutex<[IsolationFault]>([])
        let chain = try Self.chain(json, isolation: isolation, fixtures: fixtures, parallelism: parallelism) { fault in heard.withLock { $0.append(fault) } }
        defer { chain.dispose() }
        try chain.graph.start()
        let input = OwnedAudioBuffers(channels: chain.inputChannels, capacity: frames)
        let output = OwnedAudioBuffers(channels: chain.outputChannels, capacity: frames)
        var rendered = Rendered(output: Array(repeating: [], count: chain.outputChannels), notices: [], statistics: [:], nodes: [:])
        var start = 0
        for (cycle, length) in lengths.enumerated() {
            try beforeCycle(cycle, chain)
            for channel in 0..<chain.inputChannels {
                for frame in 0..<length { input.buffers()[channel][frame] = 0.5 * sin(Float(start + frame) * 0.03) }
            }
            let status = chain.graph.render(
                frameCount: length, timestamp: RenderTimestamp(sampleTime: Double(start)), input: input.buffers(), output: output.buffers())
            #expect(status == 0)
            for channel in 0..<chain.outputChannels { rendered.output[channel] += Array(output.buffers()[channel][..<length]) }
            rendered.notices += chain.graph.dispatchPendingNotifications()
            start += length
        }
        rendered.latency = chain.latencyFrames
        for node in chain.nodes {
            rendered.nodes[node.id] = node.node
            if let bridged = node.unit as? BridgedUnit { rendered.statistics[node.id] = bridged.renderStatistics }
        }
        // The monitor reports a child's end once it has reaped it.
        let deadline = Date().addingTimeInterval(10)
        while chain.isolatedNodes.contains(where: { $0.unit.faultCount > 0 }), heard.withLock({ $0.count }) < chain.isolatedNodes.count, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        rendered.faults = heard.withLock { $0 }
        return rendered
    }

    /// Three nodes in one child render in one hand-over every cycle (each counts every cycle
    /// in a run), and the output is the in-process chain's, sample for sample.
    @Test func aTogetherChainRendersInOneHandOverACycle() throws {
        let fixtures = try Fixtures()
        defer { fixtures.remove() }
        let inProcess = try Self.render(Self.preset("passthrough"), isolation: .none, fixtures: fixtures)
        let together = try Self.render(Self.preset("passthrough"), isolation: .together, fixtures: fixtures)
        #expect(inProcess.statistics.isEmpty)
        #expect(differingSamples(together.output, inProcess.output) == 0)
        #expect(inProcess.output.joined().contains { abs($0) > 0.1 }, "the chain is silent")
        for id in ["first", "middle", "last"] {
            let statistics = try #require(together.statistics[id], "\(id) is not isolated")
            #expect(statistics.cycles == Self.cycles && statistics.runCycles == Self.cycles, "\(id): \(statistics)")
        }
    }

    /// Offered two threads and a pipeline, a chain whose nodes all render in one child
    /// renders one slice behind the host (docs/ISOLATION.md, "One slice behind"): each render
    /// call posts its slice and collects the one before, so the child renders while the host
    /// goes on. The latency is the pipelined chain's in process, one slice, and so are the
    /// samples, over cycles of every length, a parameter change inside a cycle (that cycle
    /// rendered at once), a bypassed node (the run declined, the nodes one by one) and a new
    /// plan taking over (the slice in the child collected into the output delay first).
    @Test func aChainInOneChildRendersOneSliceBehind() throws {
        let fixtures = try Fixtures()
        defer { fixtures.remove() }
        let pipelining = RenderParallelism(threads: 2, policy: .always, pipelineStages: 2)
        let lengths = (0..<Self.cycles).map { [256, 100, 37, 256, 1][$0 % 5] }
        func edit(cycle: Int, chain: ChainGraph) throws {
            if cycle == 12 {
                let first = try chain.node("first")
                let gain = try #require(first.unit.parameters.info(forIdentifier: "gain"))
                try chain.graph.scheduleParameter(first.node, gain.address, value: -12, atFrame: 20)
            }
            if cycle == 20 || cycle == 26 { try chain.graph.setBypass(cycle == 20, for: try chain.node("middle").node) }
            if cycle == 33 {
                // A new plan of the same shape takes over with a slice still in the child.
                chain.graph.parallelism = RenderParallelism(threads: 3, policy: .always, pipelineStages: 2)
                try chain.graph.update()
            }
        }
        let inProcess = try Self.render(Self.preset("passthrough"), isolation: .none, fixtures: fixtures, parallelism: pipelining, lengths: lengths, beforeCycle: edit)
        let together = try Self.render(Self.preset("passthrough"), isolation: .together, fixtures: fixtures, parallelism: pipelining, lengths: lengths, beforeCycle: edit)
        #expect(inProcess.latency == Self.frames && together.latency == Self.frames, "a slice of latency: \(inProcess.latency), \(together.latency)")
        #expect(inProcess.output.joined().contains { abs($0) > 0.1 }, "the chain is silent")
        #expect(differingSamples(together.output, inProcess.output) == 0)
        // Cycle 12 and the six bypassed ones render at once; of the 33 posted, the last is
        // still in the child when the render ends: collected, it would count.
        for id in ["first", "last"] {
            let statistics = try #require(together.statistics[id], "\(id) is not isolated")
            #expect(statistics.runCycles == 32, "\(id): \(statistics)")
        }
    }

    /// Each node in a child of its own renders alone: there is no run to make.
    @Test func perUnitNodesRenderOneByOne() throws {
        let fixtures = try Fixtures()
        defer { fixtures.remove() }
        let perUnit = try Self.render(Self.preset("passthrough"), isolation: .perUnit, fixtures: fixtures)
        #expect(perUnit.statistics.count == 3)
        #expect(perUnit.statistics.values.allSatisfy { $0.cycles == Self.cycles && $0.runCycles == 0 }, "\(perUnit.statistics)")
    }

    /// A node that writes NaN in the middle of a run is silenced in the child, as the graph
    /// silences it in process: nothing but silence reaches the output, the notice names the
    /// node, and later cycles keep it muted (rendered one by one, the node faulted).
    @Test func aNodeWritingNaNInARunIsSilencedAsInProcess() throws {
        let fixtures = try Fixtures()
        defer { fixtures.remove() }
        let inProcess = try Self.render(Self.preset("nan-output"), isolation: .none, fixtures: fixtures)
        let together = try Self.render(Self.preset("nan-output"), isolation: .together, fixtures: fixtures)
        #expect(together.output.joined().allSatisfy { $0 == 0 }, "NaN or sound passed the muted node")
        #expect(differingSamples(together.output, inProcess.output) == 0)
        for rendered in [inProcess, together] {
            let faulted = rendered.notices.filter { $0.kind == .nonFiniteOutput }.map(\.node)
            #expect(faulted == [rendered.nodes["middle"]], "\(rendered.notices)")
        }
        #expect(together.statistics["first"]?.runCycles == 1, "the first cycle in a run, the rest one by one")
    }

    /// A child that crashes or exits in the middle of a run: every cycle still renders (status
    /// 0), silent from the fault on, and each node of the child is reported with the fault.
    @Test(arguments: [("crash-in-run", "crashed in render (SIGSEGV)"), ("exit-in-run", "exited with status 0 in render")])
    func aChildEndingInARunSilencesTheRunAndTheHostGoesOn(fixture: String, what: String) throws {
        let fixtures = try Fixtures()
        defer { fixtures.remove() }
        let together = try Self.render(Self.preset(fixture), isolation: .together, fixtures: fixtures)
        #expect(together.output.joined().allSatisfy { $0 == 0 })
        #expect(Set(together.faults.map(\.node)) == ["first", "middle", "last"], "\(together.faults)")
        #expect(together.faults.allSatisfy { $0.what == what }, "\(together.faults)")
    }

    /// A node with latency in the middle of a run, bypassed for ten cycles: its bypass delay
    /// was fed from what it read in the run, so the bypassed audio is delayed as in process.
    @Test func aBypassedNodeInARunKeepsItsLatency() throws {
        let fixtures = try Fixtures()
        defer { fixtures.remove() }
        func bypassMiddle(cycle: Int, chain: ChainGraph) throws {
            guard cycle == 20 || cycle == 30 else { return }
            try chain.graph.setBypass(cycle == 20, for: try chain.node("middle").node)
        }
        let inProcess = try Self.render(Self.preset("file-latency"), isolation: .none, fixtures: fixtures, beforeCycle: bypassMiddle)
        let together = try Self.render(Self.preset("file-latency"), isolation: .together, fixtures: fixtures, beforeCycle: bypassMiddle)
        #expect(differingSamples(together.output, inProcess.output) == 0)
        let run = try #require(together.statistics["middle"])
        #expect(run.runCycles >= 20 && run.runCycles <= 30, "\(run)")
    }

    /// A read-only render notification (a meter) on a node in a run is called with the
    /// node's output once the run rendered it (the same samples as in process, the unit still
    /// in the run); any other notification keeps the unit out of runs.
    @Test(arguments: [true, false])
    func aNotificationOnANodeInARun(readsOnly: Bool) throws {
        let fixtures = try Fixtures()
        defer { fixtures.remove() }
        /// What the notification saw after each render: its output's sum of magnitudes (written on the render thread).
        final class Seen: @unchecked Sendable {
            let sums = UnsafeMutableBufferPointer<Float>.allocate(capacity: 2 * IsolationRunTests.cycles)
            var calls = 0
            var base = 0
            init() { sums.initialize(repeating: 0) }
            deinit { sums.deallocate() }
        }
        let seen = Seen()
        for isolation in [UnitIsolation.none, .together] {
            seen.calls = 0
            seen.base = isolation == .none ? 0 : Self.cycles
            let callback = RenderCallback { flags, _, _, buffers in
                if flags.contains(.postRender), seen.calls < Self.cycles {
                    seen.sums[seen.base + seen.calls] = (0..<buffers.frameCount).reduce(0) { $0 + abs(buffers.channelPointers[0][$1]) }
                    seen.calls += 1
                }
                return 0
            }
            let rendered = try Self.render(Self.preset("passthrough"), isolation: isolation, fixtures: fixtures) { cycle, chain in
                if cycle == 0 { try chain.node("middle").unit.addRenderNotify(callback, readsOnly: readsOnly) }
            }
            #expect(seen.calls == Self.cycles)
            if isolation == .together { #expect(rendered.statistics["middle"]?.runCycles == (readsOnly ? Self.cycles : 0), "\(rendered.statistics)") }
        }
        #expect(Array(seen.sums[..<Self.cycles]) == Array(seen.sums[Self.cycles...]), "the notification saw other samples in the run")
        #expect(seen.sums.contains { $0 > 1 })
    }

    /// The child's render thread sleeps until just before the next cycle is due: its timer
    /// slack is 1 ns (not the 50 µs a thread that is not real-time gets), so it wakes on time.
    @Test func aChildsRenderThreadWakesOnTime() throws {
        let fixtures = try Fixtures()
        defer { fixtures.remove() }
        _ = try Self.render(Self.preset("passthrough"), isolation: .together, fixtures: fixtures) { cycle, chain in
            guard cycle == 1 else { return }
            let pid = try #require((chain.node("first").unit as? BridgedUnit)?.host.pid)
            // A thread's slack is read through /proc/TID (its task folder does not show it).
            let slacks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").map { task in
                (try? String(contentsOfFile: "/proc/\(task)/timerslack_ns", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            #expect(slacks.filter { $0 == "1" }.count == 1, "one thread, the render thread, without slack: \(slacks)")
        }
    }

    /// An isolated LV2 plugin's latency output comes back with its cycles (no request asks
    /// for it): after one cycle the node's latency is the plugin's, as in process.
    @Test func anIsolatedPluginsLatencyOutputComesBackWithItsCycles() throws {
        let fixtures = try Fixtures()
        defer { fixtures.remove() }
        let chain = try Self.chain(Self.preset("file-latency"), isolation: .together, fixtures: fixtures)
        defer { chain.dispose() }
        let late = try #require(chain.node("middle").unit as? BridgedUnit)
        #expect(late.reportsLatencyWhenRun)
        try chain.graph.start()
        let buffers = OwnedAudioBuffers(channels: 1, capacity: Self.frames)
        #expect(chain.graph.render(frameCount: Self.frames, timestamp: RenderTimestamp(sampleTime: 0), input: buffers.buffers(), output: buffers.buffers()) == 0)
        let index = try #require(late.parameters.infos.firstIndex { $0.identifier == "latency" })
        #expect(late.parameters.value(at: index) == 100)
        #expect(abs(late.latency - 100.0 / 48_000) < 1e-9)
    }
}
