import AUCore
import AUEngine
import Testing

/// Exact expectations: the built-in units used here only copy, add and multiply by gains
/// that are exact in binary (1, 0.5, 0.25), so outputs are compared with a tolerance of 1e-6.
let tolerance: Float = 1e-6

@Suite("Graph rendering")
struct GraphRenderTests {
    static let cycleLengths = [1, 17, 64, 4096]

    /// source -> gain -> output
    @Test("a chain renders sample-exact at every block size", arguments: cycleLengths)
    func chain(block: Int) throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        let source = try graph.addNode(SignalSource())
        let gain = try graph.addNode(GainUnit(gain: 0.5))
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.connect(source, to: gain)
        try graph.connect(gain, to: output)
        try graph.initialize()
        #expect(graph.outputNode == output)
        let total = 5000
        let out = renderFrames(graph, total: total, block: block)
        for channel in 0..<2 {
            #expect(maxDifference(out[channel], (0..<total).map { testSignal($0, channel: channel) * 0.5 }) <= tolerance)
        }
        #expect(graph.latencyFrames == 0)
    }

    /// source -> splitter -> gain 0.5 / gain 0.25 -> mixer -> output
    @Test("fan-out through a splitter and fan-in through the mixer", arguments: cycleLengths)
    func fanOutFanIn(block: Int) throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        let source = try graph.addNode(SignalSource())
        let splitter = try graph.addNode(builtin("aufx", "splt"))
        let half = try graph.addNode(GainUnit(name: "Half", gain: 0.5))
        let quarter = try graph.addNode(GainUnit(name: "Quarter", gain: 0.25))
        let mixer = try graph.addNode(builtin("aumx", "mcmx"))
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.connect(source, to: splitter)
        try graph.connect(splitter, output: 0, to: half)
        try graph.connect(splitter, output: 1, to: quarter)
        try graph.connect(half, to: mixer, input: 0)
        try graph.connect(quarter, to: mixer, input: 1)
        // A second, independent chain into the same mixer, and a direct fan-out of the source.
        let other = try graph.addNode(SignalSource(name: "Other", scale: 0.5))
        try graph.connect(other, to: mixer, input: 2)
        try graph.connect(source, to: mixer, input: 3)
        try graph.connect(mixer, to: output)
        try graph.initialize()
        let total = 4500
        let out = renderFrames(graph, total: total, block: block)
        for channel in 0..<2 {
            let expected = (0..<total).map { testSignal($0, channel: channel) * 1.75 + testSignal($0, channel: channel) * 0.5 }
            #expect(maxDifference(out[channel], expected) <= tolerance)
        }
    }

    /// source -> splitter -> [latency 100] -> mixer 0; splitter -> mixer 1: without delay
    /// compensation the output would be x(n-100) + x(n); with it, 2 x(n-100).
    @Test("a diamond with latency is sample-aligned and reports its latency", arguments: cycleLengths)
    func diamond(block: Int) throws {
        let (graph, splitter, slow, mixer) = try latencyDiamond(LatencyUnit(frames: 100))
        defer { graph.dispose() }
        try graph.initialize()
        #expect(graph.latencyFrames == 100)
        #expect(graph.latencyFrames(of: slow) == 100)
        #expect(graph.compensationDelay(of: GraphConnection(source: splitter, sourceOutputBus: 1, destination: mixer, destinationInputBus: 1)) == 100)
        let total = 6000
        let out = renderFrames(graph, total: total, block: block)
        for channel in 0..<2 {
            let expected = (0..<total).map { $0 < 100 ? Float(0) : 2 * testSignal($0 - 100, channel: channel) }
            #expect(maxDifference(out[channel], expected) <= tolerance)
        }
        // Bypassing the slow node keeps the alignment (its pass-through is delayed by its latency).
        try graph.setBypass(true, for: slow)
        let bypassed = renderFrames(graph, total: 1000, block: block, startTime: total)
        for channel in 0..<2 {
            let expected = (total..<total + 1000).map { 2 * testSignal($0 - 100, channel: channel) }
            #expect(maxDifference(bypassed[channel], expected) <= tolerance)
        }
    }

    @Test("units that demand power-of-two or fixed blocks get exactly those", arguments: cycleLengths)
    func blockSizes(block: Int) throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        graph.maximumFramesPerSlice = 512
        let source = try graph.addNode(SignalSource())
        let powerOfTwo = BlockRecordingUnit(requirement: .powerOfTwo)
        let fixed = BlockRecordingUnit(requirement: .fixed(64))
        let a = try graph.addNode(powerOfTwo)
        let b = try graph.addNode(fixed)
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.connect(source, to: a)
        try graph.connect(a, to: b)
        try graph.connect(b, to: output)
        try graph.initialize()
        #expect(graph.latencyFrames == 64)
        let total = 3000
        let out = renderFrames(graph, total: total, block: block)
        #expect(powerOfTwo.frameCounts.allSatisfy { $0 > 0 && $0 & ($0 - 1) == 0 && $0 <= 512 })
        #expect(powerOfTwo.frameCounts.reduce(0, +) == total)
        #expect(fixed.frameCounts.allSatisfy { $0 == 64 })
        #expect(fixed.frameCounts.count == total / 64)
        for channel in 0..<2 {
            let expected = (0..<total).map { $0 < 64 ? Float(0) : testSignal($0 - 64, channel: channel) }
            #expect(maxDifference(out[channel], expected) <= tolerance)
        }
    }

    struct Timing: CustomTestStringConvertible, Sendable {
        var block: Int
        var frame: Int
        var testDescription: String { "block \(block), frame \(frame)" }
    }

    @Test("a parameter change lands at the requested sample", arguments: [
        Timing(block: 64, frame: 37), Timing(block: 64, frame: 0), Timing(block: 17, frame: 40),
        Timing(block: 4096, frame: 3000), Timing(block: 1, frame: 5),
    ])
    func parameterTiming(_ timing: Timing) throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        graph.maximumFramesPerSlice = 1024
        let source = try graph.addNode(ConstantSource())
        let gain = try graph.addNode(GainUnit())
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.connect(source, to: gain)
        try graph.connect(gain, to: output)
        try graph.initialize()
        let heard = ListenerLog()
        try graph.unit(of: gain).addParameterListener { address, value in heard.append(value) }
        _ = renderFrames(graph, total: timing.block, block: timing.block)
        try graph.scheduleParameter(gain, ParameterAddress(0), value: 0.5, atFrame: timing.frame)
        let total = max(timing.block, timing.frame + 100)
        let out = renderFrames(graph, total: total, block: timing.block, startTime: timing.block)
        let expected = (0..<total).map { $0 < timing.frame ? Float(1) : 0.5 }
        #expect(out[0] == expected)
        #expect(out[1] == expected)
        graph.dispatchPendingNotifications()
        #expect(heard.values == [0.5])
    }

    @Test("a NaN from one node mutes that node only, is reported, and the rest plays on")
    func nanIsolation() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        let bad = try graph.addNode(SignalSource(name: "Bad source"))
        let faulty = try graph.addNode(NaNUnit(failAt: 1000))
        let good = try graph.addNode(SignalSource(name: "Good source", scale: 0.5))
        let mixer = try graph.addNode(builtin("aumx", "mcmx"))
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.connect(bad, to: faulty)
        try graph.connect(faulty, to: mixer, input: 0)
        try graph.connect(good, to: mixer, input: 1)
        try graph.connect(mixer, to: output)
        try graph.initialize()
        let heard = NoticeLog()
        graph.addNoticeListener { heard.append($0) }
        let total = 3000
        let out = renderFrames(graph, total: total, block: 128)
        let failedCycleStart = 1000 / 128 * 128
        for channel in 0..<2 {
            #expect(out[channel].allSatisfy { $0.isFinite })
            let expected = (0..<total).map { n -> Float in
                let goodPart = testSignal(n, channel: channel) * 0.5
                return n < failedCycleStart ? testSignal(n, channel: channel) + goodPart : goodPart
            }
            #expect(maxDifference(out[channel], expected) <= tolerance)
        }
        #expect(graph.isFaulted(faulty))
        #expect(!graph.isFaulted(good))
        let notices = graph.dispatchPendingNotifications().filter { $0.kind == .nonFiniteOutput }
        #expect(notices.count == 1)
        #expect(notices.first?.node == faulty)
        #expect(notices.first?.sampleTime == Double(failedCycleStart))
        #expect(heard.notices.contains { $0.kind == .nonFiniteOutput && $0.node == faulty })
        try graph.clearFault(faulty)
        #expect(!graph.isFaulted(faulty))
    }

    /// A bypassed node copies its input to its output without rendering; the NaN a node
    /// in front of it wrote is scanned before that copy, so it never reaches the output
    /// (skipping that scan let one cycle of NaN through, and nanIsolation did not see it:
    /// its mixer's own scan came first).
    @Test(arguments: [128, 17])
    func aNaNInFrontOfABypassedNodeNeverReachesTheOutput(block: Int) throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        let source = try graph.addNode(SignalSource(name: "Source"))
        let faulty = try graph.addNode(NaNUnit(failAt: 1000))
        let bypassed = try graph.addNode(GainUnit(name: "Bypassed gain", gain: 0.5))
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.connect(source, to: faulty)
        try graph.connect(faulty, to: bypassed)
        try graph.connect(bypassed, to: output)
        try graph.setBypass(true, for: bypassed)
        try graph.initialize()
        let total = 3000
        let out = renderFrames(graph, total: total, block: block)
        let failedCycleStart = 1000 / block * block
        for channel in 0..<2 {
            #expect(out[channel].allSatisfy { $0.isFinite }, "channel \(channel) carries NaN or infinity")
            let expected = (0..<total).map { n in n < failedCycleStart ? testSignal(n, channel: channel) : 0 }
            #expect(maxDifference(out[channel], expected) <= tolerance)
        }
        #expect(graph.isFaulted(faulty))
        #expect(graph.dispatchPendingNotifications().filter { $0.kind == .nonFiniteOutput }.map(\.node) == [faulty])
    }
}

/// Collects listener calls from any thread.
final class ListenerLog: @unchecked Sendable {
    private let lock = NSLockLike()
    private var storage: [Float] = []
    func append(_ value: Float) { lock.with { storage.append(value) } }
    var values: [Float] { lock.with { storage } }
}

final class NoticeLog: @unchecked Sendable {
    private let lock = NSLockLike()
    private var storage: [GraphNotice] = []
    func append(_ notice: GraphNotice) { lock.with { storage.append(notice) } }
    var notices: [GraphNotice] { lock.with { storage } }
}
