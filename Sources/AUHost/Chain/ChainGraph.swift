import AUCore
import AUEngine
import AULV2
import AUPresets

/// A loaded chain preset wired into a running-ready ``AudioGraph``: one node per preset
/// node, a generic output node (`auou:genr`) for the graph's `input` and `output` ends,
/// every connection made, formats propagated at `sampleRate`. The graph's input has as
/// many channels as the first bus fed from `input` takes; its output as many as the bus
/// feeding `output` gives.
/// - Thread: [control], but ``render(frameCount:timestamp:input:output:)`` (render).
public final class ChainGraph: @unchecked Sendable {
    public let graph: AudioGraph
    public let loaded: LoadedPreset
    /// Node id → graph node, in file order.
    public let nodes: [(id: String, node: GraphNode, unit: AudioUnit)]
    public let sampleRate: Double
    public let inputChannels: Int
    /// Whether the preset connects `input` to a node (an instrument or a generator chain
    /// makes its own sound instead).
    public let takesAudioInput: Bool
    public let outputChannels: Int
    /// The transport the driver publishes to every unit (LV2 `time:Position`, native transport).
    public let transport = HostTransport()
    /// The format converters the chain put where channel counts disagree (none with
    /// `"autoconvert": false`).
    public private(set) var convertersInserted: [GraphNode] = []
    /// Where ``ReportedLatencies`` keeps what this graph's units report (nil: the graph is no
    /// batch's), and whether they were built with what was kept there.
    var reportedLatencies: (key: String, seeded: Bool)?
    /// Whether the units were built with the latencies an earlier graph's units reported:
    /// no priming; the first cycles confirm them.
    var latenciesSeeded: Bool { reportedLatencies?.seeded == true }

    /// Builds and initializes the graph with `units` (the loaded ones, or fresh ones from
    /// ``LoadedPreset/makeUnits()`` for another job). The graph owns the units afterwards.
    /// - Thread: [control]
    /// `nominalFrames` is the block length the driver will usually render (a JACK period),
    /// told to LV2 plugins (`buf-size:nominalBlockLength`); nil: `maximumFrames`.
    /// `parallelism`: the threads that may render the graph (`--threads`), and whether it may
    /// pipeline the chain in slices of `nominalFrames` (of `maximumFrames` without).
    public init(
        _ loaded: LoadedPreset, units: [AudioUnit]? = nil, registry: ComponentRegistry, sampleRate: Double, maximumFrames: Int = 4096,
        nominalFrames: Int? = nil, parallelism: RenderParallelism = .machineDefault
    ) throws(AudioUnitError) {
        self.loaded = loaded
        self.sampleRate = sampleRate
        let units = units ?? loaded.nodes.map(\.unit)
        let graph = AudioGraph(registry: registry)
        graph.maximumFramesPerSlice = maximumFrames
        graph.parallelism = parallelism
        graph.pipelineSliceFrames = nominalFrames
        var nodes: [(id: String, node: GraphNode, unit: AudioUnit)] = []
        var bypassed: [GraphNode] = []
        for (node, unit) in zip(loaded.nodes, units) {
            unit.hostTransport = transport
            (unit as? LV2Unit)?.nominalBlockLength = nominalFrames
            (unit as? BridgedUnit)?.nominalBlockLength = nominalFrames
            try unit.setValue(sampleRate, for: .sampleRate)
            try unit.setValue(maximumFrames, for: .maximumFramesPerSlice)
            // The graph's bypass keeps parallel paths aligned; the unit's own does not.
            let isBypassed = try unit.value(of: .bypassEffect)
            if isBypassed { try unit.setValue(false, for: .bypassEffect) }
            let graphNode = try graph.addNode(unit, name: node.id)
            if isBypassed { bypassed.append(graphNode) }
            nodes.append((node.id, graphNode, unit))
        }
        let output = try graph.addNode(ComponentDescription(type: ComponentType.output, subtype: "genr", manufacturer: BuiltinUnits.manufacturer), name: "io")
        try graph.open()

        func unit(at index: Int) -> AudioUnit { nodes[index].unit }
        var inputChannels: Int?
        var outputChannels = 0
        for connection in loaded.connections {
            if case .graphInput = connection.source, case .node(let index, let bus) = connection.destination, inputChannels == nil {
                inputChannels = try unit(at: index).busConfiguration(scope: .input, element: bus).format.channelsPerFrame
            }
            if case .node(let index, let bus) = connection.source, case .graphOutput = connection.destination {
                outputChannels = try unit(at: index).busConfiguration(scope: .output, element: bus).format.channelsPerFrame
            }
        }
        let ioUnit = try graph.unit(of: output)
        let inputs = inputChannels ?? outputChannels
        try ioUnit.setValue(.canonical(sampleRate: sampleRate, channels: max(1, inputs)), for: .streamFormat, scope: .output)
        try ioUnit.setValue(.canonical(sampleRate: sampleRate, channels: max(1, outputChannels)), for: .streamFormat, scope: .input)

        for connection in loaded.connections {
            let (source, sourceBus): (GraphNode, Int)
            switch connection.source {
            case .graphInput: (source, sourceBus) = (output, 0)
            case .node(let index, let bus): (source, sourceBus) = (nodes[index].node, bus)
            case .graphOutput: continue
            }
            switch connection.destination {
            case .graphOutput: try graph.connect(source, output: sourceBus, to: output, input: 0)
            case .node(let index, let bus): try graph.connect(source, output: sourceBus, to: nodes[index].node, input: bus)
            case .graphInput: continue
            }
        }
        for connection in loaded.midiConnections {
            try graph.connectMIDI(
                Self.midiEndpoint(connection.source, nodes: nodes), to: Self.midiEndpoint(connection.destination, nodes: nodes),
                channels: MIDIChannelMap(accepted: connection.channels.accepted, target: connection.channels.target))
        }
        for node in bypassed { try graph.setBypass(true, for: node) }
        // Where channel counts disagree (a mono amp into a stereo reverb), a converter.
        convertersInserted = loaded.preset.autoconvert == false ? [] : try graph.insertFormatConverters()
        try graph.initialize()
        self.graph = graph
        self.nodes = nodes
        self.inputChannels = max(1, inputs)
        takesAudioInput = inputChannels != nil
        // Formats propagate at initialize (a stereo unit after a mono one runs mono): ask the graph.
        self.outputChannels = graph.outputFormat?.channelsPerFrame ?? max(1, outputChannels)
    }

    /// A preset's MIDI end as the graph's.
    private static func midiEndpoint(_ end: LoadedEndpoint, nodes: [(id: String, node: GraphNode, unit: AudioUnit)]) -> MIDIEndpoint {
        switch end {
        case .graphInput: .graphInput
        case .graphOutput: .graphOutput
        case .node(let index, _): .node(nodes[index].node)
        }
    }

    /// Where the preset's `tracks` send a song's tracks: track number from 1 to the graph's
    /// endpoint.
    /// - Thread: [control]
    public var trackDestinations: [Int: MIDIEndpoint] { loaded.trackDestinations.mapValues { Self.midiEndpoint($0, nodes: nodes) } }

    /// The node with this id.
    /// - Thread: [control]
    public func node(_ id: String) throws(AudioUnitError) -> (id: String, node: GraphNode, unit: AudioUnit) {
        guard let entry = nodes.first(where: { $0.id == id }) else {
            throw AudioUnitError(.invalidElement, "no node '\(id)'; the chain's nodes are: \(nodes.map(\.id).joined(separator: ", "))")
        }
        return entry
    }

    /// The chain's instruments (units of type `aumu`), which a MIDI file plays.
    /// - Thread: [control]
    public var instruments: [AudioUnit] {
        nodes.map(\.unit).filter { $0.componentDescription.type == ComponentType.musicDevice }
    }

    /// The chain's latency in frames (plugin delay compensation included).
    /// - Thread: [control]
    public var latencyFrames: Int { graph.latencyFrames }

    /// Stops and disposes the graph and its units.
    /// - Thread: [control]
    public func dispose() {
        graph.stop()
        graph.dispose()
    }
}
