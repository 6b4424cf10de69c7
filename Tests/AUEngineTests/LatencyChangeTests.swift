import AUCore
import AUEngine
import Synchronization
import Testing

/// Delays its input by `frames` frames but, as an LV2 plugin with `lv2:reportsLatency`,
/// reports that latency only once it has run (and says so from the render thread).
final class LateLatencyUnit: AudioUnit, @unchecked Sendable {
    let frames: Int
    private let reported = Atomic<Int>(0)
    private var history: [Float] = []
    init(frames: Int) {
        self.frames = frames
        super.init(
            description: effectDescription, name: "Late latency", inputs: [.canonical(channels: 2, name: "Input")],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }
    override var latency: Double { Double(reported.load(ordering: .relaxed)) / formats(.output)[0].sampleRate }
    override func allocateRenderResources() throws(AudioUnitError) {
        history = Array(repeating: 0, count: frames * 2)
        reported.store(0, ordering: .relaxed)
    }
    override func resetState() { for index in history.indices { history[index] = 0 } }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let input = context.inputs[0], output = context.outputs[0]
        history.withUnsafeMutableBufferPointer { history in
            for channel in 0..<2 {
                let line = UnsafeMutableBufferPointer(rebasing: history[(channel * frames)..<((channel + 1) * frames)])
                for frame in 0..<context.frameCount {
                    output[channel][frame] = line[0]
                    // A shift register: slow, but plain.
                    for index in 0..<(frames - 1) { line[index] = line[index + 1] }
                    line[frames - 1] = input[channel][frame]
                }
            }
        }
        if reported.exchange(frames, ordering: .relaxed) != frames { notifyPropertyChangeFromRender(.latency) }
        return 0
    }
}

@Suite("Latency changes") struct LatencyChangeTests {
    /// source → splitter → [latency 100, reported once it runs] → mixer 0; splitter → mixer 1:
    /// the first plan counts 0; the dispatch after the first cycle publishes one that
    /// compensates 100 frames, says so, and the two paths come out aligned (2 x(n-100)).
    @Test func aUnitsLatencyChangeRecompilesThePlan() throws {
        let (graph, splitter, slow, mixer) = try latencyDiamond(LateLatencyUnit(frames: 100))
        defer { graph.dispose() }
        try graph.initialize()
        #expect(graph.latencyFrames == 0)
        let listener = Mutex<[GraphNotice]>([])
        graph.addNoticeListener { notice in listener.withLock { $0.append(notice) } }

        _ = renderFrames(graph, total: 256, block: 256)
        let notices = graph.dispatchPendingNotifications()
        let heard = listener.withLock { $0 }
        let change = notices.first { $0.kind == .latencyChanged }
        #expect(change?.node == slow && change?.status == 100, "\(notices)")
        #expect(heard.contains { $0.kind == .latencyChanged })
        #expect(graph.latencyFrames == 100)
        #expect(graph.compensationDelay(of: GraphConnection(source: splitter, sourceOutputBus: 1, destination: mixer, destinationInputBus: 1)) == 100)
        #expect(graph.dispatchPendingNotifications().allSatisfy { $0.kind != .latencyChanged }, "the change is followed once")

        // The new compensation delay starts empty: from one delay on, the paths are aligned.
        let start = 256, total = 4096
        let out = renderFrames(graph, total: total, block: 256, startTime: start)
        for channel in 0..<2 {
            let settled = Array(out[channel][200...])
            let expected = (200..<total).map { 2 * testSignal(start + $0 - 100, channel: channel) }
            #expect(maxDifference(settled, expected) <= tolerance)
        }
    }

    /// While edits wait for update(), a latency change waits too; update() compiles both.
    @Test func aLatencyChangeWaitsForPendingEdits() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        let source = try graph.addNode(SignalSource())
        let slow = try graph.addNode(LateLatencyUnit(frames: 50))
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.connect(source, to: slow)
        try graph.connect(slow, to: output)
        try graph.initialize()
        _ = renderFrames(graph, total: 64, block: 64)
        try graph.disconnect(output, input: 0)
        #expect(graph.dispatchPendingNotifications().allSatisfy { $0.kind != .latencyChanged })
        #expect(graph.latencyFrames == 0)
        try graph.connect(slow, to: output)
        try graph.update()
        #expect(graph.latencyFrames == 50)
    }
}
