import AUCore
import AUEngine
import AULV2
import AUNative

/// The graph alloc-check renders: every kind of render path the host has, each on its own
/// input of one mixer.
///
///     application input -> EQ -> native Gain -> splitter
///       splitter 0 -> mixer 0
///       splitter 1 -> [live edits: an EQ inserted and removed] -> mixer 1
///       splitter 2 -> converter (to mono) -> LV2 swh amp (control ports)
///         -> LV2 x42 zeroconvo (its impulse response, a patch property, set now and then)
///         -> [with --lv2-fixtures: the worker fixture, threaded, then immediate] -> mixer 2
///       splitter 3 -> LV2 x42 dpl (latency report, output controls, atom in/out) -> mixer 3
///       splitter 4 -> LV2 x42 TP/RMS meter (time:Position in, output controls) -> mixer 4
///       splitter 5 -> LV2 convoLV2 (worker, threaded mode) -> mixer 5
///       splitter 6 -> LV2 convoLV2 (worker, immediate mode) -> mixer 6
///       splitter 7 -> fixture (fixed blocks, latency, NaN on request, misbehaviour) -> mixer 7
///       LV2 mda JX10 (atom MIDI in, an instrument) -> mixer 8
///     mixer -> output
///
/// The latencies of dpl and the fixture make the graph delay the other paths (delay lines).
/// A plugin that is not installed (or not built) is left out and ``present`` says so.
/// - Thread: [control]
struct CheckGraph {
    static let dpl = "http://gareus.org/oss/lv2/dpl#stereo"
    static let meter = "http://gareus.org/oss/lv2/meters#TPnRMSstereo"
    static let convolver = "http://gareus.org/oss/lv2/convoLV2#Stereo"
    static let fileConvolver = "http://gareus.org/oss/lv2/zeroconvolv#CfgMono"
    static let instrument = "http://drobilla.net/plugins/mda/JX10"
    static let amp = "http://plugin.org.uk/swh-plugins/amp"
    static let midiTranspose = "http://gareus.org/oss/lv2/midifilter#miditranspose"
    static let workerFixture = "urn:auhost:fixture:worker"

    let graph: AudioGraph
    let output: GraphNode, eq: GraphNode, splitter: GraphNode, mixer: GraphNode
    let fixture: FixtureUnit
    let fixtureNode: GraphNode
    /// The plugin nodes that are in the graph, by role.
    var native: GraphNode?, lv2Amp: GraphNode?, dpl: GraphNode?, meter: GraphNode?
    var threadedWorker: GraphNode?, immediateWorker: GraphNode?, instrument: GraphNode?
    /// A convolver whose impulse response the control thread sets (patch:Set, worker thread).
    var fileConvolver: GraphNode?
    /// MIDI between units: the graph's MIDI input -> the native Arpeggiator -> x42 MIDI
    /// transpose (LV2, atom MIDI in and out) -> the instrument, and the transpose -> the
    /// graph's MIDI output.
    var arpeggiator: GraphNode?, midiProcessor: GraphNode?
    /// The worker fixture in threaded and in immediate mode (schedules work in every run).
    var schedulingWorkers: [GraphNode] = []

    /// `lv2Path` nil: LV2_PATH or lilv's default.
    init(misbehaviour: Misbehaviour, lv2Path: String?, parallelism: RenderParallelism) throws(AudioUnitError) {
        let registry = ComponentRegistry(providers: [BuiltinUnits(), LV2Provider(lv2Path: lv2Path, probeCacheFile: nil), NativeProvider()])
        let graph = AudioGraph(registry: registry)
        graph.parallelism = parallelism
        func builtin(_ code: String, _ name: String) throws(AudioUnitError) -> GraphNode {
            try graph.addNode(ComponentDescription(parsing: code)!, name: name)
        }
        func lv2(_ uri: String, _ name: String, mode: LV2RenderMode = .live) throws(AudioUnitError) -> GraphNode? {
            guard let component = try? registry.resolve(uri), let unit = try? component.instantiate() else { return nil }
            (unit as? LV2Unit)?.renderMode = mode
            return try graph.addNode(unit, name: name)
        }
        self.graph = graph
        output = try builtin("auou:genr:AUHs", "Out")
        eq = try builtin("aufx:ipeq:AUHs", "EQ")
        splitter = try builtin("aufx:splt:AUHs", "Split")
        mixer = try builtin("aumx:mcmx:AUHs", "Mixer")
        let toMono = try builtin("aufc:conv:AUHs", "To Mono")
        fixture = FixtureUnit(misbehaviour: misbehaviour)
        fixtureNode = try graph.addNode(fixture, name: "Fixture")
        let gain = registry.components(matching: ComponentDescription(type: "aufx", subtype: "gain", manufacturer: "AUHs")).first { $0.format == .native }
        if let gain { native = try graph.addNode(try gain.instantiate(), name: "Native Gain") }
        lv2Amp = try lv2(Self.amp, "LV2 Amp")
        fileConvolver = try lv2(Self.fileConvolver, "Convolver (impulse response property)")
        dpl = try lv2(Self.dpl, "Limiter")
        meter = try lv2(Self.meter, "Meter")
        threadedWorker = try lv2(Self.convolver, "Convolver (threaded worker)")
        immediateWorker = try lv2(Self.convolver, "Convolver (immediate worker)", mode: .offline)
        instrument = try lv2(Self.instrument, "Instrument")
        midiProcessor = try lv2(Self.midiTranspose, "MIDI Transpose")
        let arpeggiatorComponent = registry.components(matching: ComponentDescription(type: "aumi", subtype: "arpg", manufacturer: "AUHs")).first { $0.format == .native }
        if let arpeggiatorComponent { arpeggiator = try graph.addNode(try arpeggiatorComponent.instantiate(), name: "Arpeggiator") }
        for (name, mode) in [("Worker fixture (threaded)", LV2RenderMode.live), ("Worker fixture (immediate)", .offline)] {
            if let node = try lv2(Self.workerFixture, name, mode: mode) { schedulingWorkers.append(node) }
        }

        try graph.open()
        try graph.unit(of: splitter).setValue(8, for: .elementCount, scope: .output)
        try graph.unit(of: mixer).setValue(9, for: .elementCount, scope: .input)
        try graph.unit(of: eq).setValue(UnitPreset(number: 2, name: "Bass Booster"), for: .presentPreset)
        try graph.unit(of: toMono).setValue(StreamFormat.canonical(sampleRate: 48_000, channels: 1), for: .streamFormat, scope: .output)
        try graph.connect(output, to: eq)
        if let native {
            try graph.connect(eq, to: native)
            try graph.connect(native, to: splitter)
        } else {
            try graph.connect(eq, to: splitter)
        }
        try graph.connect(splitter, output: 0, to: mixer, input: 0)
        try graph.connect(splitter, output: 1, to: mixer, input: 1)
        try graph.connect(splitter, output: 2, to: toMono)
        var mono = toMono
        for node in [lv2Amp, fileConvolver].compactMap({ $0 }) + schedulingWorkers {
            try graph.connect(mono, to: node)
            mono = node
        }
        try graph.connect(mono, to: mixer, input: 2)
        let paths: [(Element, GraphNode?)] = [(3, dpl), (4, meter), (5, threadedWorker), (6, immediateWorker), (7, fixtureNode)]
        for (element, node) in paths {
            try chain(from: splitter, output: element, through: node, toMixerInput: element)
        }
        if let instrument {
            try graph.connect(instrument, to: mixer, input: 8)
        }
        try graph.connect(mixer, to: output)
        var midiSource = MIDIEndpoint.graphInput
        for node in [arpeggiator, midiProcessor].compactMap({ $0 }) {
            try graph.connectMIDI(midiSource, to: .node(node))
            midiSource = .node(node)
        }
        if midiSource != .graphInput { try graph.connectMIDI(midiSource, to: .graphOutput) }
        if let instrument { try graph.connectMIDI(midiSource, to: .node(instrument)) }
        graph.maximumFramesPerSlice = 1024
        try graph.initialize()
        try graph.start()
    }

    /// `source` (output `output`) -> `node` -> mixer input `element`, or straight to the
    /// mixer when the node is absent.
    private func chain(from source: GraphNode, output: Element = 0, through node: GraphNode?, toMixerInput element: Element) throws(AudioUnitError) {
        if let node {
            try graph.connect(source, output: output, to: node, input: 0)
            try graph.connect(node, to: mixer, input: element)
        } else {
            try graph.connect(source, output: output, to: mixer, input: element)
        }
    }
}
