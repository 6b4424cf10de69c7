import AUCore
import AULV2

/// Makes a chain's latency known before its first real cycle.
///
/// An LV2 plugin reports its latency on a control output that it writes only when it runs
/// (`lv2:reportsLatency`), so a fresh graph counts it as 0 and the offline driver would
/// not compensate it, nor would a live chain tell JACK. The offline driver
/// (`BatchRenderer`) and the live one (`LiveChain`) both prime. When the chain holds LV2
/// units, ``prime(_:blockSize:)`` renders one cycle of silence; delivering its
/// notifications makes the graph follow the latencies the units reported (a new plan whose
/// `latencyFrames` and compensation delays include them); then every unit is reset
/// (`AudioUnitReset`: an LV2 plugin is deactivated and activated again), so the real first
/// cycle starts from a clean state.
///
/// The instances are kept, not freed and made again: some plugins start threads when they
/// are instantiated or first run, and freeing them at once races those threads — two
/// Guitarix convolvers (GxAmplifier-X, GxCabinet) crashed in libzita-convolver about one
/// start in 300 when the primed instances were freed and replaced.
/// - Thread: [control] (it plays the render thread for the one silent cycle).
enum LatencyPriming {
    /// Primes `chain` (initialized, not yet rendered) when it holds LV2 units; leaves it started.
    static func prime(_ chain: ChainGraph, blockSize: Int) throws(AudioUnitError) {
        try chain.graph.start()
        guard chain.nodes.contains(where: { $0.unit is LV2Unit }) else { return }
        let input = OwnedAudioBuffers(channels: chain.inputChannels, capacity: blockSize)
        let output = OwnedAudioBuffers(channels: chain.outputChannels, capacity: blockSize)
        chain.transport.state = TransportState.counted(sampleTime: 0, sampleRate: chain.sampleRate)
        let status = chain.graph.render(
            frameCount: blockSize, timestamp: RenderTimestamp(sampleTime: 0), input: input.buffers(), output: output.buffers())
        guard status == 0 else { throw AudioUnitError(status: status, context: "the chain failed to render a first cycle") }
        chain.graph.dispatchPendingNotifications()
        for node in chain.nodes { try node.unit.reset() }
        // A fault of the silent cycle (NaN) belongs to no output, and a node muted for it
        // would stay silent with nothing reported.
        for node in chain.nodes where chain.graph.isFaulted(node.node) { try chain.graph.clearFault(node.node) }
    }
}
