import AUCore
import AUEngine

/// The graph a live rig's JACK I/O unit plays, the same for the whole run: the capture
/// ports (the graph's input) into a ``ChainSwitchUnit``, the switch into the playback ports
/// (its output), and the graph's MIDI input and output through the switch when the rig has
/// them. The chains themselves are graphs of their own that the switch renders, so that
/// one can replace another (`open`) while the client, its ports and their connections stay.
/// - Thread: [control]
final class RigGraph {
    let graph: AudioGraph
    let switchUnit: ChainSwitchUnit
    /// What the JACK cycle writes JACK transport into; the switch copies it into each chain's.
    let transport = HostTransport()

    /// A rig with `captureChannels` and `playbackChannels` ports playing `first`.
    /// - Thread: [control]
    init(
        first: PlayingChain, captureChannels: Int, playbackChannels: Int, takesMIDI: Bool, sendsMIDI: Bool, registry: ComponentRegistry,
        sampleRate: Double, maximumFrames: Int
    ) throws(AudioUnitError) {
        let switchUnit = ChainSwitchUnit(
            first: first, captureChannels: captureChannels, playbackChannels: playbackChannels, sampleRate: sampleRate, takesMIDI: takesMIDI,
            sendsMIDI: sendsMIDI)
        switchUnit.hostTransport = transport
        try switchUnit.setValue(sampleRate, for: .sampleRate)
        try switchUnit.setValue(maximumFrames, for: .maximumFramesPerSlice)
        let graph = AudioGraph(registry: registry)
        graph.maximumFramesPerSlice = maximumFrames
        graph.parallelism = .singleThreaded
        do {
            let node = try graph.addNode(switchUnit, name: "chain")
            let io = try graph.addNode(ComponentDescription(type: ComponentType.output, subtype: "genr", manufacturer: BuiltinUnits.manufacturer), name: "io")
            try graph.open()
            let ioUnit = try graph.unit(of: io)
            try ioUnit.setValue(.canonical(sampleRate: sampleRate, channels: captureChannels), for: .streamFormat, scope: .output)
            try ioUnit.setValue(.canonical(sampleRate: sampleRate, channels: playbackChannels), for: .streamFormat, scope: .input)
            try graph.connect(io, output: 0, to: node, input: 0)
            try graph.connect(node, output: 0, to: io, input: 0)
            if sendsMIDI { try graph.connectMIDI(.node(node), to: .graphOutput) }
            try graph.initialize()
            try graph.start()
        } catch {
            graph.dispose()
            throw error
        }
        self.graph = graph
        self.switchUnit = switchUnit
    }

    /// Stops and disposes the graph (its switch); the chains are their owner's to dispose.
    /// - Thread: [control], once no render runs.
    func dispose() {
        graph.stop()
        graph.dispose()
    }
}
