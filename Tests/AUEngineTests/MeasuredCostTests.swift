import AUCore
@testable import AUEngine
import Foundation
import Testing

/// Passes its input through; its first render after each initialize sleeps 100 ms, as a
/// plugin's first `run` that computes its tables (x42 fil4's first cycle took 100 times its
/// steady cost).
final class SlowFirstRenderUnit: AudioUnit, @unchecked Sendable {
    private var rendered = false
    init() {
        super.init(
            description: effectDescription, name: "Slow first render", inputs: [.canonical(channels: 2, name: "Input")],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }
    override func allocateRenderResources() throws(AudioUnitError) { rendered = false }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        if !rendered {
            rendered = true
            usleep(100_000)
        }
        context.outputs[0].copy(from: context.inputs[0])
        return 0
    }
}

/// The threads decision made on measured node times: only on enough timed cycles, with
/// every node timed, and never on a fresh unit's first cycle. Before, the priming of
/// `auhost render` (one cycle, then initialize again) left one timed cycle in which a
/// pipeline's first stage alone had rendered, its first `run` included: the plan was cut on
/// that, marked measured, and never cut again (the reference chain's pipeline split
/// differently from run to run; 0.85x the C loop against 0.72x once fixed).
@Suite("Measured node costs")
struct MeasuredCostTests {
    /// A pipelined chain of three: the slow first render, then two gains.
    private func chain() throws -> AudioGraph {
        let graph = AudioGraph(registry: builtinRegistry())
        graph.parallelism = RenderParallelism(threads: 2, pipelineStages: 2)
        let output = try graph.addNode(builtin("auou", "genr"))
        let slow = try graph.addNode(SlowFirstRenderUnit())
        let first = try graph.addNode(GainUnit(name: "First"))
        let second = try graph.addNode(GainUnit(name: "Second"))
        try graph.connect(output, to: slow)
        try graph.connect(slow, to: first)
        try graph.connect(first, to: second)
        try graph.connect(second, to: output)
        return graph
    }

    @Test("one rendered cycle, then initialize again (priming), leaves the decision estimated")
    func oneCycleIsNoMeasurement() throws {
        let graph = try chain()
        defer { graph.dispose() }
        try graph.initialize()
        let estimated = try #require(graph.parallelDecision)
        #expect(!estimated.isMeasured && estimated.isPipelined, "\(estimated.reason)")
        _ = renderFrames(graph, total: 64, block: 64)
        graph.uninitialize()
        try graph.initialize()
        let primed = try #require(graph.parallelDecision)
        #expect(!primed.isMeasured, "decided on one cycle: \(primed.reason)")
    }

    @Test("a fresh unit's first render is not counted as its cost per cycle")
    func firstRenderIsNotTimed() throws {
        let graph = try chain()
        defer { graph.dispose() }
        try graph.initialize()
        // Nine timed cycles (one in 32), the first render among the cycles rendered.
        _ = renderFrames(graph, total: 9 * 32 * 64, block: 64)
        graph.dispatchPendingNotifications()
        let decision = try #require(graph.parallelDecision)
        #expect(decision.isMeasured, "\(decision.reason)")
        // Three pass-throughs of 64 frames take microseconds; the first render's 100 ms
        // over nine timed cycles would be 11 ms per cycle.
        #expect(decision.work < 5_000_000, "measured work \(decision.work) ns per cycle: \(decision.reason)")
    }
}
