import AUCore
import AUEngine

/// The graph a live rig's JACK I/O unit plays, the same for the whole run: the capture
/// ports (the graph's input) into a ``ChainSwitchUnit``, the switch into the playback ports
/// (its output), and the graph's MIDI input and output through the switch when the rig has
/// them. The chains themselves are graphs of their own that the switch renders, so that
/// one can replace another (`open`) while the client, its ports and their connections stay.
///
/// ```swift
/// let rig = try RigGraph(first: chainA, captureChannels: 2, playbackChannels: 2, …)   // a driver renders rig.graph
/// rig.switchTo(chainB, crossfadeFrames: 2_400)      // built, initialized and started first
/// … once rig.takeRetired() returns chainA, dispose it
/// ```
/// - Thread: [control]
public final class RigGraph: @unchecked Sendable {
    /// The graph a driver renders (its input: the capture; its output: the playback).
    public let graph: AudioGraph
    let switchUnit: ChainSwitchUnit
    /// What the driver writes its transport into; the switch copies it into each chain's.
    public let transport = HostTransport()
    /// The chains the switch may render: the playing one, then one being switched to.
    private var alive: [PlayingChain]
    private let maximumFrames: Int

    /// A rig with `captureChannels` and `playbackChannels` ports playing `first` (built,
    /// initialized and started); MIDI in and out go through when `takesMIDI` and `sendsMIDI`.
    /// - Thread: [control]
    public init(
        first chain: ChainGraph, captureChannels: Int, playbackChannels: Int, takesMIDI: Bool, sendsMIDI: Bool, registry: ComponentRegistry,
        sampleRate: Double, maximumFrames: Int
    ) throws(AudioUnitError) {
        let first = PlayingChain(chain, maximumFrames: maximumFrames)
        alive = [first]
        self.maximumFrames = maximumFrames
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

    /// The chain playing, or the one being switched to.
    /// - Thread: [control]
    public var current: ChainGraph { alive[alive.count - 1].chain }

    /// Every chain the switch may still render (the owner disposes them after ``dispose()``).
    /// - Thread: [control]
    public var chains: [ChainGraph] { alive.map(\.chain) }

    /// Whether a switch has not finished: the old chain is not handed back yet.
    /// - Thread: [control]
    public var isSwitching: Bool { alive.count > 1 }

    /// Crossfades finished.
    /// - Thread: [control]
    public var switches: Int { switchUnit.switches.load(ordering: .relaxed) }

    /// Hands `chain` (built, initialized and started, at the rig's rate) to the render
    /// thread, which crossfades to it over `crossfadeFrames` from its next cycle and then
    /// hands the old one back (``takeRetired()``). False while a switch is under way.
    /// - Thread: [control]
    public func switchTo(_ chain: ChainGraph, crossfadeFrames: Int) -> Bool {
        guard !isSwitching else { return false }
        let next = PlayingChain(chain, maximumFrames: maximumFrames)
        guard switchUnit.switchTo(next, crossfadeFrames: crossfadeFrames) else { return false }
        alive.append(next)
        return true
    }

    /// The chain a finished crossfade left, no longer rendered (for its owner to dispose);
    /// nil while none.
    /// - Thread: [control]
    public func takeRetired() -> ChainGraph? {
        guard let retired = switchUnit.takeRetired() else { return nil }
        alive.removeAll { $0 === retired }
        return retired.chain
    }

    /// Stops and disposes the graph (its switch); the chains (``chains``) are their owner's
    /// to dispose.
    /// - Thread: [control], once no render runs.
    public func dispose() {
        graph.stop()
        graph.dispose()
    }
}
