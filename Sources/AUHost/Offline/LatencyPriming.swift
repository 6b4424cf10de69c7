import AUCore
import AUBridge
import AUEngine
import AULV2

/// Makes a chain's latency known before its first real cycle.
///
/// An LV2 plugin reports its latency on a control output that it writes only when it runs
/// (`lv2:reportsLatency`), so a fresh graph counts it as 0 and the offline driver would
/// not compensate it, nor would a live chain tell JACK. The offline driver
/// (`BatchRenderer`) and the live one (`LiveChain`) both prime. When the chain holds such a
/// unit, ``prime(_:blockSize:)`` renders one cycle of silence (a pipelined chain one more per
/// slice its pipeline adds, so that its last stage runs too), then uninitializes and
/// initializes the graph again: the units start over from a clean state (new LV2
/// instances; a reset is not enough, some plugins keep counting through deactivate and
/// activate: x42's MIDI generator played one block early), and the plan is compiled with
/// the latency each unit reported — the graph's `latencyFrames` and its compensation delays
/// include it.
///
/// The libraries loaded for the first instances stay loaded for the second
/// (``LoadedLibraryPin``). A chain without such a unit is not primed: nothing is instantiated twice. Freeing an
/// instance that has just started threads of its own races them in some plugins: a chain
/// of two Guitarix convolvers (GxAmplifier-X, GxCabinet; no latency port) crashed in
/// libzita-convolver about one start in 300 while every chain with an LV2 unit was primed.
/// - Thread: [control] (it plays the render thread for the silent cycles).
public enum LatencyPriming {
    /// Primes `chain` (initialized, not yet rendered) when a unit reports latency only when
    /// it runs and the chain was not built with the latencies reported before
    /// (``ReportedLatencies``); leaves it started.
    /// - Thread: [control]
    public static func prime(_ chain: ChainGraph, blockSize: Int) throws(AudioUnitError) {
        try chain.graph.start()
        if chain.latenciesSeeded {
            // The silent cycles that let plugins take their files also show a seeded unit
            // that reports another latency.
            guard !settleProperties(chain, blockSize: blockSize).contains(where: { $0.kind == .latencyChanged }) else { throw ReportedLatencies.mismatch }
            return
        }
        defer { settleProperties(chain, blockSize: blockSize) }
        guard chain.nodes.contains(where: { ($0.unit as? RunReportedLatency)?.reportsLatencyWhenRun == true }) else { return }
        let input = OwnedAudioBuffers(channels: chain.inputChannels, capacity: blockSize)
        let output = OwnedAudioBuffers(channels: chain.outputChannels, capacity: blockSize)
        chain.transport.state = TransportState.counted(sampleTime: 0, sampleRate: chain.sampleRate)
        // A pipelined chain's last stage first renders as many cycles later as it adds slices.
        for cycle in 0...(chain.graph.parallelDecision?.addedLatencySlices ?? 0) {
            let status = chain.graph.render(
                frameCount: blockSize, timestamp: RenderTimestamp(sampleTime: Double(cycle * blockSize)), input: input.buffers(), output: output.buffers())
            guard status == 0 else { throw AudioUnitError(status: status, context: "the chain failed to render a first cycle") }
        }
        chain.graph.dispatchPendingNotifications()
        var libraries = LoadedLibraryPin()
        defer { libraries.release() }
        chain.graph.uninitialize()
        try chain.graph.initialize()
        // The units start over: a fault of the silent cycle (NaN) belongs to no output,
        // and a node muted for it would stay silent with nothing reported.
        for node in chain.nodes where chain.graph.isFaulted(node.node) { try chain.graph.clearFault(node.node) }
        try chain.graph.start()
    }

    /// The most silent cycles given to plugins to take their files (one is enough for a
    /// worker that runs immediately; some plugins never report a value back).
    static let settlingCycles = 16

    /// Renders silent cycles until every LV2 unit reported back the property values it was
    /// given (an impulse response loaded), at most ``settlingCycles``: so that the first
    /// frame of the input goes through the file, not only the frames after its first cycle.
    /// What the cycles render is silence and goes nowhere.
    /// Returns the graph's notices of those cycles.
    @discardableResult
    static func settleProperties(_ chain: ChainGraph, blockSize: Int) -> [GraphNotice] {
        let waiting = chain.nodes.compactMap { $0.unit as? LV2Unit }.filter(\.awaitsPropertyReports)
        guard !waiting.isEmpty else { return [] }
        let input = OwnedAudioBuffers(channels: chain.inputChannels, capacity: blockSize)
        let output = OwnedAudioBuffers(channels: chain.outputChannels, capacity: blockSize)
        var notices: [GraphNotice] = []
        for _ in 0..<settlingCycles where waiting.contains(where: \.awaitsPropertyReports) {
            _ = chain.graph.render(frameCount: blockSize, timestamp: RenderTimestamp(sampleTime: 0), input: input.buffers(), output: output.buffers())
            notices += chain.graph.dispatchPendingNotifications()
        }
        return notices
    }
}
