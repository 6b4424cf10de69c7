/// A preset as far as it could be read, with what the checks against the registry need to
/// know about the parts that could not: those are skipped rather than reported twice.
/// - Thread: [control]
struct DecodedPreset {
    var preset: ChainPreset
    /// Parallel to `preset.nodes`: false when the node's id or unit could not be read.
    var isNodeUsable: [Bool]
    /// Every node's id was read (so an unknown name in the routing really is unknown).
    var hasAllNodeIDs: Bool
    /// Parallel to the routing's entries (chain items or connections): where each was written.
    var routingPaths: [JSONPath]
    /// The routing was read without problems (so "not connected" is worth checking).
    var isRoutingComplete: Bool
    /// Parallel to `preset.midi`: where each MIDI connection was written.
    var midiPaths: [JSONPath]
    /// Parallel to `preset.midiMap`: where each mapping was written.
    var midiMapPaths: [JSONPath]

    /// A preset made in code: every part usable, paths by position.
    init(_ preset: ChainPreset) {
        self.preset = preset
        isNodeUsable = Array(repeating: true, count: preset.nodes.count)
        hasAllNodeIDs = true
        switch preset.routing {
        case .chain(let ids): routingPaths = ids.indices.map { JSONPath.root.key("chain").index($0) }
        case .connections(let connections): routingPaths = connections.indices.map { JSONPath.root.key("connections").index($0) }
        }
        isRoutingComplete = true
        midiPaths = preset.midi.indices.map { JSONPath.root.key("midi").index($0) }
        midiMapPaths = preset.midiMap.indices.map { JSONPath.root.key("midiMap").index($0) }
    }

    init(preset: ChainPreset, isNodeUsable: [Bool], hasAllNodeIDs: Bool, routingPaths: [JSONPath], isRoutingComplete: Bool, midiPaths: [JSONPath]) {
        self.preset = preset
        self.isNodeUsable = isNodeUsable
        self.hasAllNodeIDs = hasAllNodeIDs
        self.routingPaths = routingPaths
        self.isRoutingComplete = isRoutingComplete
        self.midiPaths = midiPaths
        midiMapPaths = []
    }
}
