import AUCore
@testable import AUEngine
import Foundation
import Synchronization
import Testing

/// Writes, at each MIDI event it receives, the event's second byte / 127 into every channel
/// (silence elsewhere): audio that shows exactly where each event landed.
final class EventClicker: AudioUnit, @unchecked Sendable {
    init(name: String) {
        super.init(
            description: ComponentDescription(type: "aumu", subtype: "clik", manufacturer: "Test"), name: name, inputs: [],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }
    override var acceptsMIDIInput: Bool { true }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let output = context.outputs[0]
        output.clear()
        for event in context.midiEvents where Int(event.offset) < context.frameCount {
            for channel in 0..<output.channelCount { output[channel][Int(event.offset)] += Float(event.data1) / 127 }
        }
        return 0
    }
}

/// Passes audio through; on a render worker's thread (not the thread that called the
/// graph's render) it waits while `holds` is set, as a unit that stalls its worker.
final class StallingUnit: AudioUnit, @unchecked Sendable {
    let holds = Atomic<Bool>(false)
    let stalls = Atomic<Int>(0)
    /// The thread that calls the graph's render (set by the test before it renders).
    let caller = Atomic<UInt>(0)
    init() {
        super.init(
            description: effectDescription, name: "Stalling", inputs: [.canonical(channels: 2, name: "Input")],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        if pthread_self() != caller.load(ordering: .relaxed) && holds.load(ordering: .acquiring) {
            stalls.add(1, ordering: .relaxed)
            while holds.load(ordering: .acquiring) { usleep(1000) }
        }
        context.outputs[0].copy(from: context.inputs[0])
        return 0
    }
}

/// A gain of 1 that says it follows the host's transport.
final class TransportFollower: AudioUnit, @unchecked Sendable {
    init() {
        super.init(
            description: effectDescription, name: "Follower", inputs: [.canonical(channels: 2, name: "Input")],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }
    override var followsHostTransport: Bool { true }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        context.outputs[0].copy(from: context.inputs[0])
        return 0
    }
}

/// source → splitter → `left` / `right` → mixer inputs 0 / 1 → generic output, in `graph`.
@discardableResult
func addSplitMix(_ graph: AudioGraph, left: AudioUnit, right: AudioUnit, rightName: String? = nil) throws -> (left: GraphNode, right: GraphNode) {
    let source = try graph.addNode(SignalSource())
    let splitter = try graph.addNode(builtin("aufx", "splt"))
    let leftNode = try graph.addNode(left)
    let rightNode = try graph.addNode(right, name: rightName)
    let mixer = try graph.addNode(builtin("aumx", "mcmx"))
    let output = try graph.addNode(builtin("auou", "genr"))
    try graph.connect(source, to: splitter)
    try graph.connect(splitter, output: 0, to: leftNode)
    try graph.connect(splitter, output: 1, to: rightNode)
    try graph.connect(leftNode, to: mixer, input: 0)
    try graph.connect(rightNode, to: mixer, input: 1)
    try graph.connect(mixer, to: output)
    return (leftNode, rightNode)
}

/// Passes audio through after keeping its thread busy for `nanoseconds` (2 ms: a costly branch).
final class BusyUnit: AudioUnit, @unchecked Sendable {
    let nanoseconds: UInt64
    init(nanoseconds: UInt64 = 2_000_000) {
        self.nanoseconds = nanoseconds
        super.init(
            description: effectDescription, name: "Busy", inputs: [.canonical(channels: 2, name: "Input")],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let start = DispatchTime.now().uptimeNanoseconds
        while DispatchTime.now().uptimeNanoseconds - start < nanoseconds {}
        context.outputs[0].copy(from: context.inputs[0])
        return 0
    }
}

@Suite("Parallel rendering")
struct ParallelRenderTests {
    /// The thread counts every graph is rendered with beside 1, the single-threaded renderer.
    static let threadCounts = [2, 3, 5]

    /// Builds a graph with `build`, renders `total` frames in cycles of `block` with
    /// `threads` threads (always parallel; a serial chain pipelined over every thread
    /// when `pipelines`), and returns the output, the graph's MIDI output (frame, status,
    /// data1), the plan's decision and the graph's latency.
    func render(
        threads: Int, total: Int = 6000, block: Int = 512, pipelines: Bool = false, _ build: (AudioGraph) throws -> Void
    ) throws -> (audio: [[Float]], midi: [[Int]], decision: ParallelPlanDecision?, latency: Int) {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        graph.maximumFramesPerSlice = 256
        graph.parallelism = RenderParallelism(threads: threads, policy: .always, pipelineStages: pipelines ? threads : 0)
        try build(graph)
        try graph.initialize()
        let decision = graph.parallelDecision
        let latency = graph.latencyFrames
        let buffers = OwnedAudioBuffers(channels: 2, capacity: block)
        var audio = [[Float]](repeating: [], count: 2)
        var midi: [[Int]] = []
        var done = 0
        while done < total {
            let frames = min(block, total - done)
            let status = graph.render(frameCount: frames, timestamp: RenderTimestamp(sampleTime: Double(done)), output: buffers.buffers(frameCount: frames))
            #expect(status == 0)
            for channel in 0..<2 { audio[channel] += buffers.buffers(frameCount: frames)[channel] }
            for event in graph.midiOutputFromRender { midi.append([done + Int(event.offset), Int(event.status), Int(event.data1)]) }
            done += frames
        }
        return (audio, midi, decision, latency)
    }

    /// Renders on one thread and on each of ``threadCounts`` and requires every output
    /// to be the same, bit for bit; returns the single-threaded render. With `pipelined`,
    /// the plans on several threads must be pipelined instead of parallel, and their output is
    /// the same as many frames later as their latency grew: (threads - 1) slices of 256.
    @discardableResult
    func expectIdenticalAcrossThreads(
        total: Int = 6000, block: Int = 512, pipelined: Bool = false, _ build: (AudioGraph) throws -> Void
    ) throws -> (audio: [[Float]], midi: [[Int]]) {
        let single = try render(threads: 1, total: total, block: block, build)
        #expect(single.decision?.isParallel == false && single.decision?.isPipelined == false)
        for threads in Self.threadCounts {
            let parallel = try render(threads: threads, total: total + 1280, block: block, pipelines: pipelined, build)
            let kind = pipelined ? parallel.decision?.isPipelined : parallel.decision?.isParallel
            #expect(kind == true, "\(threads) threads: \(parallel.decision?.reason ?? "no plan")")
            let added = parallel.latency - single.latency
            #expect(added == (pipelined ? max(0, (parallel.decision?.stages.count ?? 0) - 1) : 0) * 256, "\(threads) threads: latency \(parallel.latency)")
            for channel in 0..<2 {
                let a = single.audio[channel], b = Array(parallel.audio[channel][added..<(added + total)])
                let first = a.indices.first { a[$0].bitPattern != b[$0].bitPattern }
                #expect(first == nil, "\(threads) threads: channel \(channel) differs first at frame \(first ?? -1)")
            }
            let parallelMIDI = parallel.midi.filter { $0[0] < total }
            let firstEvent = single.midi.indices.first { $0 >= parallelMIDI.count || parallelMIDI[$0] != single.midi[$0] }
            #expect(parallelMIDI.count == single.midi.count && firstEvent == nil, "\(threads) threads: MIDI event \(firstEvent ?? -1) differs")
        }
        return (single.audio, single.midi)
    }

    /// source → splitter → [gain with a scheduled change | a 37-frame latency] → mixer.
    @Test("a diamond with latency and parameter events at frames renders bit-identically on 2, 3 and 5 threads")
    func diamond() throws {
        let result = try expectIdenticalAcrossThreads { graph in
            let gain = try addSplitMix(graph, left: GainUnit(name: "Gain", gain: 0.5), right: LatencyUnit(frames: 37)).left
            try graph.initialize()
            try graph.scheduleParameter(gain, ParameterAddress(0), value: 0.125, atFrame: 1001)
        }
        // Not silence, and the scheduled change shows: the gain path is compensated by 37
        // frames, so the change is heard at frame 1001 + 37.
        let expected = testSignal(1001, channel: 0) * (0.125 + 1)
        #expect(abs(result.audio[0][1001 + 37] - expected) < 1e-5)
        #expect(abs(result.audio[0][1000 + 37] - testSignal(1000, channel: 0) * 1.5) < 1e-5)
    }

    /// A serial chain with a scheduled parameter change, a latency and a second gain, in
    /// cycles of several 256-frame slices (a whole number of them, a part of one, and one
    /// shorter than a slice): its stages render one slice apart, and the output is the
    /// single-threaded one, bit for bit.
    @Test("a pipelined chain renders bit-identically on 2, 3 and 5 threads", arguments: [1024, 1000, 200])
    func pipelinedChain(block: Int) throws {
        let result = try expectIdenticalAcrossThreads(block: block, pipelined: true) { graph in
            let source = try graph.addNode(SignalSource())
            let gain = try graph.addNode(GainUnit(name: "Gain", gain: 0.5))
            let latency = try graph.addNode(LatencyUnit(frames: 37))
            let trim = try graph.addNode(GainUnit(name: "Trim", gain: 0.75))
            let output = try graph.addNode(builtin("auou", "genr"))
            try graph.connect(source, to: gain)
            try graph.connect(gain, to: latency)
            try graph.connect(latency, to: trim)
            try graph.connect(trim, to: output)
            try graph.initialize()
            try graph.scheduleParameter(gain, ParameterAddress(0), value: 0.125, atFrame: 1001)
            try graph.scheduleParameter(trim, ParameterAddress(0), value: 2, atFrame: 3333)
        }
        // Not silence: the signal 37 frames late, halved then trimmed, with both changes.
        #expect(abs(result.audio[0][1000 + 37] - testSignal(1000) * 0.5 * 0.75) < 1e-5)
        #expect(abs(result.audio[0][2000 + 37] - testSignal(2000) * 0.125 * 0.75) < 1e-5)
        #expect(abs(result.audio[0][4000] - testSignal(4000 - 37) * 0.125 * 2) < 1e-5)
    }

    /// A live edit while a pipeline holds slices: the plan that is replaced renders the
    /// slices it took in through their remaining stages before the new one starts, so no
    /// frame is lost and the latency stays; the output is the single-threaded one, shifted
    /// by the pipeline's latency, across four swaps (to plans decided on estimates and on
    /// measured times, the stages cut again).
    @Test("a plan swapped while its pipeline holds slices hands them on: no frame is lost", arguments: [2, 3, 5])
    func pipelineSurvivesPlanSwaps(threads: Int) throws {
        func run(threads: Int) throws -> (audio: [Float], latency: Int) {
            let graph = AudioGraph(registry: builtinRegistry())
            defer { graph.dispose() }
            graph.maximumFramesPerSlice = 256
            let pipelining = RenderParallelism(threads: threads, policy: .always, pipelineStages: threads)
            graph.parallelism = pipelining
            let source = try graph.addNode(SignalSource())
            var previous = source
            for index in 0..<4 {
                let gain = try graph.addNode(GainUnit(name: "Gain \(index)", gain: 0.6 + 0.1 * Float(index)))
                try graph.connect(previous, to: gain)
                previous = gain
            }
            let output = try graph.addNode(builtin("auou", "genr"))
            try graph.connect(previous, to: output)
            try graph.initialize()
            let latency = graph.latencyFrames
            let block = 384
            let buffers = OwnedAudioBuffers(channels: 2, capacity: block)
            var audio: [Float] = []
            for cycle in 0..<40 {
                if threads > 1 && cycle % 10 == 5 {
                    graph.parallelism = RenderParallelism(threads: threads, policy: cycle % 20 == 5 ? .automatic : .always, pipelineStages: threads)
                    try graph.update()
                    #expect(graph.latencyFrames == latency, "cycle \(cycle): \(graph.parallelDecision?.reason ?? "")")
                }
                #expect(graph.render(frameCount: block, timestamp: RenderTimestamp(sampleTime: Double(cycle * block)), output: buffers.buffers(frameCount: block)) == 0)
                audio += buffers.buffers(frameCount: block)[0]
            }
            return (audio, latency)
        }
        let single = try run(threads: 1)
        let pipelined = try run(threads: threads)
        let added = pipelined.latency - single.latency
        #expect(added == min(threads - 1, 4) * 256)
        let first = single.audio.indices.dropLast(added).first { single.audio[$0].bitPattern != pipelined.audio[$0 + added].bitPattern }
        #expect(first == nil, "\(threads) threads: differs first at frame \(first ?? -1)")
    }

    /// A serial chain that may be pipelined but whose stages do not pay (two format
    /// converters) renders on one thread, its output delayed as much as the pipeline's would
    /// be: the latency follows the graph's shape, never what its units happen to cost. The
    /// application's input comes out exactly that many frames later, in cycles that do not
    /// line up with the slices.
    @Test("a serial chain too cheap to pipeline is delayed as its pipeline would be")
    func cheapChainIsDelayedAsAPipeline() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        graph.maximumFramesPerSlice = 256
        graph.parallelism = RenderParallelism(threads: 2, pipelineStages: 2)
        let output = try graph.addNode(builtin("auou", "genr"))
        let first = try graph.addNode(builtin("aufc", "conv"))
        let second = try graph.addNode(builtin("aufc", "conv"))
        try graph.connect(output, to: first)
        try graph.connect(first, to: second)
        try graph.connect(second, to: output)
        try graph.initialize()
        let decision = try #require(graph.parallelDecision)
        #expect(!decision.isPipelined && decision.addedLatencySlices == 1 && decision.reason.contains("delayed 1 slice"), "\(decision.reason)")
        #expect(graph.latencyFrames == 256)
        let block = 100
        let input = OwnedAudioBuffers(channels: 2, capacity: block)
        let out = OwnedAudioBuffers(channels: 2, capacity: block)
        var left: [Float] = []
        for cycle in 0..<30 {
            for frame in 0..<block { input.buffers()[0][frame] = testSignal(cycle * block + frame) }
            #expect(graph.render(
                frameCount: block, timestamp: RenderTimestamp(sampleTime: Double(cycle * block)), input: input.buffers(),
                output: out.buffers(frameCount: block)) == 0)
            left += out.buffers(frameCount: block)[0]
        }
        #expect(left[0..<256].allSatisfy { $0 == 0 })
        let wrong = (256..<left.count).first { left[$0] != testSignal($0 - 256) }
        #expect(wrong == nil, "frame \(wrong ?? -1) is not the input 256 frames earlier")
    }

    /// The application's input through a pipelined chain: each slice's input reaches stage
    /// 0 in its region, and each slice leaves the last stage for the application's output,
    /// (threads - 1) slices of 64 frames later.
    @Test("a pipelined chain takes the application's input and gives its output slice by slice")
    func pipelinedChainWithInput() throws {
        func run(threads: Int) throws -> (left: [Float], latency: Int) {
            let graph = AudioGraph(registry: builtinRegistry())
            defer { graph.dispose() }
            graph.maximumFramesPerSlice = 64
            graph.parallelism = RenderParallelism(threads: threads, policy: .always, pipelineStages: threads)
            let output = try graph.addNode(builtin("auou", "genr"))
            var previous = output
            for index in 0..<5 {
                let gain = try graph.addNode(GainUnit(name: "Gain \(index)", gain: 0.5 + 0.25 * Float(index)))
                try graph.connect(previous, to: gain)
                previous = gain
            }
            try graph.connect(previous, to: output)
            try graph.initialize()
            #expect(graph.parallelDecision?.isPipelined == (threads > 1), "\(graph.parallelDecision?.reason ?? "")")
            #expect(graph.preferredSlicesPerCycle == (threads > 1 ? 16 : 1))
            let block = 1000
            let input = OwnedAudioBuffers(channels: 2, capacity: block)
            let out = OwnedAudioBuffers(channels: 2, capacity: block)
            var left: [Float] = []
            for cycle in 0..<5 {
                for channel in 0..<2 { for frame in 0..<block { input.buffers()[channel][frame] = testSignal(cycle * block + frame, channel: channel) } }
                #expect(graph.render(
                    frameCount: block, timestamp: RenderTimestamp(sampleTime: Double(cycle * block)), input: input.buffers(),
                    output: out.buffers(frameCount: block)) == 0)
                left += out.buffers(frameCount: block)[0]
            }
            // The workers take stages: a loaded machine may leave every phase of a few cycles
            // to the calling thread, so more cycles follow until one has (at most 2000).
            var extra = 0
            while threads > 1 && graph.stepsRenderedByWorkers == 0 && extra < 2000 {
                _ = graph.render(
                    frameCount: block, timestamp: RenderTimestamp(sampleTime: Double((5 + extra) * block)), input: input.buffers(),
                    output: out.buffers(frameCount: block))
                extra += 1
            }
            if threads > 1 { #expect(graph.stepsRenderedByWorkers > 0, "no worker took a stage in \(5 + extra) cycles") }
            return (left, graph.latencyFrames)
        }
        let single = try run(threads: 1).left
        let product: Float = (0..<5).reduce(1) { $0 * (0.5 + 0.25 * Float($1)) }
        #expect(abs(single[4321] - testSignal(4321) * product) < 1e-5)
        for threads in Self.threadCounts {
            let (pipelined, latency) = try run(threads: threads)
            #expect(latency == min(threads - 1, 5) * 64)
            // The first `latency` frames are the pipeline's silence.
            #expect(pipelined[0..<latency].allSatisfy { $0 == 0 })
            let first = single.indices.dropLast(latency).first { single[$0].bitPattern != pipelined[$0 + latency].bitPattern }
            #expect(first == nil, "\(threads) threads: differs first at frame \(first ?? -1)")
        }
    }

    /// Eight strips (source → gain → EQ) into the mixer.
    @Test("a mixer with eight channel strips renders bit-identically on 2, 3 and 5 threads")
    func eightStrips() throws {
        try expectIdenticalAcrossThreads { graph in
            let mixer = try graph.addNode(builtin("aumx", "mcmx"))
            for strip in 0..<8 {
                let source = try graph.addNode(SignalSource(name: "Source \(strip)", scale: 0.1 * Float(strip + 1)))
                let gain = try graph.addNode(GainUnit(name: "Gain \(strip)", gain: 0.3 + 0.1 * Float(strip)))
                let eq = try graph.addNode(builtin("aufx", "ipeq"))
                try graph.connect(source, to: gain)
                try graph.connect(gain, to: eq)
                try graph.connect(eq, to: mixer, input: strip)
            }
            let output = try graph.addNode(builtin("auou", "genr"))
            try graph.connect(mixer, to: output)
        }
    }

    /// Notes → two transposers → two clickers into the mixer; both transposers also feed the
    /// graph's MIDI output.
    @Test("MIDI between units lands on the same frames on 2, 3 and 5 threads", arguments: [512, 17])
    func midiBranches(block: Int) throws {
        let result = try expectIdenticalAcrossThreads(block: block) { graph in
            let notes = try graph.addNode(NoteGenerator(period: 37))
            let up = try graph.addNode(Transposer(name: "Up", semitones: 12))
            let down = try graph.addNode(Transposer(name: "Down", semitones: -5))
            let clickUp = try graph.addNode(EventClicker(name: "Click up"))
            let clickDown = try graph.addNode(EventClicker(name: "Click down"))
            let mixer = try graph.addNode(builtin("aumx", "mcmx"))
            let output = try graph.addNode(builtin("auou", "genr"))
            try graph.connectMIDI(.node(notes), to: .node(up))
            try graph.connectMIDI(.node(notes), to: .node(down))
            try graph.connectMIDI(.node(up), to: .node(clickUp))
            try graph.connectMIDI(.node(down), to: .node(clickDown))
            try graph.connectMIDI(.node(up), to: .graphOutput)
            try graph.connectMIDI(.node(down), to: .graphOutput)
            try graph.connect(clickUp, to: mixer, input: 0)
            try graph.connect(clickDown, to: mixer, input: 1)
            try graph.connect(mixer, to: output)
        }
        #expect(result.midi.count == 2 * ((6000 + 36) / 37))
        #expect(result.audio[0][37] > 0 && result.audio[0][36] == 0)
    }

    /// Workers that cost more than they save: with the calling thread and the worker on one
    /// CPU (the test pins itself, and the workers inherit it), the calling thread renders
    /// one branch and waits for the other until the scheduler gives the worker the CPU, so a
    /// cycle takes longer than its two branches' work. The measured decision keeps the plan
    /// parallel (0.1 ms beside the longest path); the graph then times 16 cycles of it, finds
    /// them slower than its work on one thread, and goes back to one thread, saying why. A
    /// new ``AudioGraph/parallelism`` lets the workers be tried again.
    @Test("a parallel plan whose workers are measured to cost more than they save goes back to one thread, and says why")
    func unpaidWorkersAreRefused() throws {
        // sched_{get,set}affinity are GNU extensions the Glibc module leaves out: from libc.
        typealias Affinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
        let libc = dlopen(nil, RTLD_NOW)
        let getAffinity = unsafeBitCast(try #require(dlsym(libc, "sched_getaffinity")), to: Affinity.self)
        let setAffinity = unsafeBitCast(try #require(dlsym(libc, "sched_setaffinity")), to: Affinity.self)
        var original = cpu_set_t()
        try #require(getAffinity(0, MemoryLayout<cpu_set_t>.size, &original) == 0)
        defer { _ = setAffinity(0, MemoryLayout<cpu_set_t>.size, &original) }
        var one = cpu_set_t()
        withUnsafeBytes(of: original) { allowed in
            withUnsafeMutableBytes(of: &one) { chosen in
                let index = allowed.firstIndex { $0 != 0 }!
                chosen[index] = allowed[index] & (~allowed[index] &+ 1)
            }
        }
        try #require(setAffinity(0, MemoryLayout<cpu_set_t>.size, &one) == 0)
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        graph.maximumFramesPerSlice = 256
        graph.parallelism = RenderParallelism(threads: 2)
        _ = try addSplitMix(graph, left: BusyUnit(nanoseconds: 100_000), right: BusyUnit(nanoseconds: 100_000))
        try graph.initialize()
        let buffers = OwnedAudioBuffers(channels: 2, capacity: 256)
        var cycle = 0
        // The measured decision after 8 timed cycles (one in 32), the judgement 16 later.
        while cycle < 2_000 && graph.parallelDecision?.reason.contains("measured to cost more") != true {
            _ = graph.render(frameCount: 256, timestamp: RenderTimestamp(sampleTime: Double(cycle * 256)), output: buffers.buffers())
            graph.dispatchPendingNotifications()
            cycle += 1
        }
        let refused = try #require(graph.parallelDecision)
        #expect(!refused.isParallel && refused.isMeasured && refused.reason.contains("measured to cost more than they save"), "\(refused.reason) after \(cycle) cycles")
        let out = renderFrames(graph, total: 512, block: 256, startTime: cycle * 256)
        #expect(out[0][100] == testSignal(cycle * 256 + 100, channel: 0) * 2)
        graph.parallelism = RenderParallelism(threads: 3)
        try graph.update()
        #expect(graph.parallelDecision?.isParallel == true, "\(graph.parallelDecision?.reason ?? "")")
    }

    /// A node that writes NaN on a worker is muted and reported, as on one thread.
    @Test("a node that writes NaN in a branch is muted and reported from the worker that rendered it")
    func nonFiniteOnAWorker() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        graph.parallelism = RenderParallelism(threads: 3, policy: .always)
        let faulty = try addSplitMix(graph, left: NaNUnit(failAt: 700), right: GainUnit(gain: 1)).left
        try graph.initialize()
        #expect(graph.parallelDecision?.isParallel == true)
        let out = renderFrames(graph, total: 2048, block: 256)
        #expect(out[0].allSatisfy { $0.isFinite })
        #expect(out[0][1500] == testSignal(1500, channel: 0))
        let notices = graph.dispatchPendingNotifications().filter { $0.kind == .nonFiniteOutput }
        #expect(notices.map(\.node) == [faulty])
    }

    /// The plan compiler keeps cheap graphs and serial chains on one thread.
    @Test("the plan compiler decides whether parallelism pays and says why")
    func decision() throws {
        func decide(_ parallelism: RenderParallelism, _ build: (AudioGraph) throws -> Void) throws -> ParallelPlanDecision {
            let graph = AudioGraph(registry: builtinRegistry())
            defer { graph.dispose() }
            graph.parallelism = parallelism
            try build(graph)
            try graph.initialize()
            return try #require(graph.parallelDecision)
        }
        let automatic = RenderParallelism(threads: 2)
        func builtinsOnly(_ graph: AudioGraph) throws {
            // The application's input through two splitters side by side into the mixer.
            let mixer = try graph.addNode(builtin("aumx", "mcmx"))
            let output = try graph.addNode(builtin("auou", "genr"))
            for branch in 0..<2 {
                let splitter = try graph.addNode(builtin("aufx", "splt"))
                try graph.connect(output, to: splitter)
                try graph.connect(splitter, output: 0, to: mixer, input: branch)
            }
            try graph.connect(mixer, to: output)
        }
        let cheap = try decide(automatic, builtinsOnly)
        #expect(!cheap.isParallel && cheap.reason.contains("does not pay"), "\(cheap.reason)")
        #expect(try decide(RenderParallelism(threads: 2, policy: .always), builtinsOnly).isParallel)

        func twoUnitChain(_ graph: AudioGraph) throws {
            let source = try graph.addNode(SignalSource())
            let gain = try graph.addNode(GainUnit())
            let output = try graph.addNode(builtin("auou", "genr"))
            try graph.connect(source, to: gain)
            try graph.connect(gain, to: output)
        }
        let pipelining = automatic.pipeliningOverEveryThread
        let chain = try decide(pipelining, twoUnitChain)
        // Two plugin-like units in series (20 us each, estimated): pipelined in two stages.
        #expect(!chain.isParallel && chain.isPipelined && chain.reason.contains("pipelined in 2 stages"), "\(chain.reason)")
        #expect(chain.stages.count == 2 && chain.stages.allSatisfy { $0.count == 1 }, "\(chain.stages)")
        #expect(chain.branches.count == 1 && chain.addedLatencySlices == 1)
        // Pipelining adds latency: not unless asked for.
        let unasked = try decide(automatic, twoUnitChain)
        #expect(!unasked.isPipelined && unasked.addedLatencySlices == 0 && unasked.reason.contains("not asked for"), "\(unasked.reason)")
        // A unit that follows the transport keeps the chain on one thread, and says so.
        let following = try decide(pipelining) { graph in
            let source = try graph.addNode(SignalSource())
            let gain = try graph.addNode(TransportFollower())
            let output = try graph.addNode(builtin("auou", "genr"))
            try graph.connect(source, to: gain)
            try graph.connect(gain, to: output)
        }
        #expect(!following.isPipelined && following.addedLatencySlices == 0 && following.reason.contains("follows the transport"), "\(following.reason)")
        // So does MIDI between its units.
        let midi = try decide(pipelining) { graph in
            let notes = try graph.addNode(NoteGenerator(period: 37))
            let click = try graph.addNode(EventClicker(name: "Click"))
            let output = try graph.addNode(builtin("auou", "genr"))
            try graph.connectMIDI(.node(notes), to: .node(click))
            try graph.connect(click, to: output)
        }
        #expect(!midi.isPipelined && midi.reason.contains("MIDI"), "\(midi.reason)")

        func twoBranches(_ graph: AudioGraph) throws {
            let mixer = try graph.addNode(builtin("aumx", "mcmx"))
            for branch in 0..<2 {
                let source = try graph.addNode(SignalSource(name: "Source \(branch)"))
                let gain = try graph.addNode(GainUnit(name: "Gain \(branch)"))
                try graph.connect(source, to: gain)
                try graph.connect(gain, to: mixer, input: branch)
            }
            let output = try graph.addNode(builtin("auou", "genr"))
            try graph.connect(mixer, to: output)
        }
        let branches = try decide(automatic, twoBranches)
        #expect(branches.isParallel && branches.threads == 2 && !branches.isMeasured, "\(branches.reason)")
        #expect(branches.branches.count == 3)
        let single = try decide(.singleThreaded, twoBranches)
        #expect(!single.isParallel && single.threads == 1 && single.reason.contains("one thread asked for"), "\(single.reason)")
    }

    /// `threads` counts every thread that renders, the calling one included: 1 makes no
    /// render worker, 2 on a parallel graph exactly one, and the decision says how many render.
    @Test("RenderParallelism(threads: N) renders on N threads: the calling thread and N - 1 render workers", arguments: [1, 2, 3])
    func threadsCountTheCallingThread(threads: Int) throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        graph.parallelism = RenderParallelism(threads: threads, policy: .always)
        _ = try addSplitMix(graph, left: GainUnit(name: "Left"), right: GainUnit(name: "Right"))
        try graph.initialize()
        let decision = try #require(graph.parallelDecision)
        #expect(decision.isParallel == (threads > 1) && decision.threads == threads, "\(decision.reason)")
        #expect((graph.workerPool?.workerCount ?? 0) == threads - 1)
        #expect(graph.dump().contains("Threads: \(threads) ("), "\(graph.dump())")
    }

    /// Once the graph has rendered, a new plan decides on the measured times (two gains
    /// usually cost far less than a worker's wake, and the graph goes back to one thread).
    /// Without an edit: once the graph has timed enough cycles, the next dispatch compiles
    /// the plan again on what the units measured (which way it then goes depends on the
    /// machine's timing, which a test must not assert), once.
    @Test("an estimated decision is made again on the measured times once the graph has rendered a while")
    func estimatedDecisionFollowsMeasuredCosts() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        graph.parallelism = RenderParallelism(threads: 2)
        try addSplitMix(graph, left: GainUnit(name: "Left"), right: GainUnit(name: "Right"))
        try graph.initialize()
        #expect(graph.parallelDecision?.isMeasured == false)
        // 7 timed cycles (one in 32) are too few.
        _ = renderFrames(graph, total: 7 * 32 * 64, block: 64)
        graph.dispatchPendingNotifications()
        #expect(graph.parallelDecision?.isMeasured == false)
        _ = renderFrames(graph, total: 2 * 32 * 64, block: 64)
        graph.dispatchPendingNotifications()
        let decision = try #require(graph.parallelDecision)
        #expect(decision.isMeasured && decision.reason.contains("measured"), "\(decision.reason)")
    }

    @Test("a recompiled plan decides on the measured render times")
    func measuredDecision() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        graph.parallelism = RenderParallelism(threads: 2)
        let mixer = try graph.addNode(builtin("aumx", "mcmx"))
        var gains: [GraphNode] = []
        for branch in 0..<2 {
            let source = try graph.addNode(SignalSource(name: "Source \(branch)"))
            let gain = try graph.addNode(GainUnit(name: "Gain \(branch)"))
            try graph.connect(source, to: gain)
            try graph.connect(gain, to: mixer, input: branch)
            gains.append(gain)
        }
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.connect(mixer, to: output)
        try graph.initialize()
        #expect(graph.parallelDecision?.isParallel == true)
        _ = renderFrames(graph, total: 64 * 256, block: 64)
        try graph.disconnect(mixer, input: 1)
        try graph.connect(gains[1], to: mixer, input: 1)
        try graph.update()
        let decision = try #require(graph.parallelDecision)
        // Which way it goes depends on the machine's timing, which a test must not assert:
        // only that the measured times were used and the dump says so.
        #expect(decision.isMeasured && decision.reason.contains("measured"), "\(decision.reason)")
        #expect(graph.dump().contains("Threads: "), "\(graph.dump())")
    }

    /// A unit that holds its worker past the deadline: that cycle is silent, the stall is
    /// reported by the node's name, render returns while the unit still holds the worker,
    /// and once it lets go the graph renders as before.
    @Test("a unit that stalls its worker past the deadline makes the cycle silent, is named, and the render returns")
    func stalledWorker() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        graph.parallelism = RenderParallelism(threads: 2, policy: .always)
        let stalling = StallingUnit()
        stalling.caller.store(pthread_self(), ordering: .relaxed)
        let held = try addSplitMix(graph, left: BusyUnit(), right: stalling, rightName: "held").right
        try graph.initialize()
        let block = 256
        let buffers = OwnedAudioBuffers(channels: 2, capacity: block)
        func cycle(_ index: Int) -> [Float] {
            _ = graph.render(frameCount: block, timestamp: RenderTimestamp(sampleTime: Double(index * block)), output: buffers.buffers(frameCount: block))
            return Array(buffers.buffers(frameCount: block)[0])
        }
        func expected(_ index: Int) -> [Float] { (0..<block).map { testSignal(index * block + $0, channel: 0) * 2 } }
        #expect(cycle(0) == expected(0))

        // The deadline only while the unit holds: on a loaded machine an ordinary cycle's
        // worker may itself be late for 20 ms.
        graph.parallelCycleDeadline = 0.02
        // The calling thread renders the first ready step itself (the busy branch, 2 ms), so
        // the held unit goes to the worker; a cycle where the caller took both is not a stall.
        stalling.holds.store(true, ordering: .releasing)
        var index = 1
        var stalledCycle: [Float]?
        while index < 2000 && stalledCycle == nil {
            let out = cycle(index)
            if stalling.stalls.load(ordering: .relaxed) > 0 { stalledCycle = out }
            index += 1
        }
        let silent = try #require(stalledCycle, "the held unit never ran on the worker")
        // Render returned while the unit still holds its worker.
        let stillHeld = stalling.holds.load(ordering: .acquiring)
        #expect(stillHeld)
        #expect(silent.allSatisfy { $0 == 0 })
        // While it holds the worker, later cycles are silent too (and return).
        #expect(cycle(index).allSatisfy { $0 == 0 })
        index += 1
        let notices = graph.dispatchPendingNotifications().filter { $0.kind == .workerStalled }
        #expect(notices.map(\.node) == [held], "\(notices)")

        stalling.holds.store(false, ordering: .releasing)
        // The worker comes back within the cycles that follow; then the output is whole again.
        var recovered = false
        for _ in 0..<2000 where !recovered {
            let out = cycle(index)
            recovered = out == expected(index)
            index += 1
            if !recovered { usleep(1000) }
        }
        #expect(recovered)
        graph.parallelCycleDeadline = 0
        #expect(cycle(index) == expected(index))
    }
    /// Offline there is no deadline: a unit stuck on a worker holds the render, and the
    /// calling thread, waiting for it, shows that node as its own in `renderActivity`, so the
    /// render watchdog sees a render stuck inside a unit (not one between cycles) and names it.
    @Test("a unit stuck on a worker without a deadline is the node renderActivity names")
    func stuckWorkerIsNamedByRenderActivity() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        graph.parallelism = RenderParallelism(threads: 2, policy: .always)
        let stalling = StallingUnit()
        let held = try addSplitMix(graph, left: BusyUnit(), right: stalling, rightName: "held").right
        try graph.initialize()
        let block = 256
        let buffers = OwnedAudioBuffers(channels: 2, capacity: block)
        stalling.holds.store(true, ordering: .releasing)
        let rendering = Atomic<Bool>(true)
        let done = DispatchSemaphore(value: 0)
        let renderThread = Thread {
            stalling.caller.store(pthread_self(), ordering: .relaxed)
            // Cycles until one gives the held unit to the worker (the calling thread takes the
            // 2 ms busy branch first); that cycle waits for it.
            var index = 0
            while index < 2000 && stalling.stalls.load(ordering: .relaxed) == 0 && stalling.holds.load(ordering: .acquiring) {
                _ = graph.render(frameCount: block, timestamp: RenderTimestamp(sampleTime: Double(index * block)), output: buffers.buffers(frameCount: block))
                index += 1
            }
            rendering.store(false, ordering: .releasing)
            done.signal()
        }
        renderThread.start()
        // Up to 10 s for the stall and for the calling thread to show the worker's node (it
        // shows its own, the busy branch's, for the first 2 ms).
        var named: GraphNode?
        for _ in 0..<2000 where named != held {
            if stalling.stalls.load(ordering: .relaxed) > 0 { named = graph.renderActivity.node }
            if named != held { usleep(5000) }
        }
        let stillRendering = rendering.load(ordering: .acquiring)
        stalling.holds.store(false, ordering: .releasing)
        #expect(done.wait(timeout: .now() + 20) == .success, "the render did not return once the unit let go")
        try #require(stalling.stalls.load(ordering: .relaxed) > 0, "the held unit never ran on the worker")
        #expect(stillRendering, "the render returned while the unit held its worker")
        #expect(named == held, "renderActivity named \(String(describing: named)) while the worker was inside 'held' (\(held))")
        #expect(graph.renderActivity.node == nil)
    }
}
