/// A chain preset (schema version 1): the units of a graph, their settings, and how they
/// are wired. This is the file's content as values; ``PresetLoader`` reads and checks it
/// against the registry, ``PresetWriter`` saves it.
///
/// ```json
/// {"auhost": 1, "name": "Vocal", "nodes": [{"id": "eq", "unit": "aufx:ipeq:AUHs"}], "chain": ["eq"]}
/// ```
/// - Thread: [any] (a plain value).
public struct ChainPreset: Hashable, Sendable {
    /// The value of the `auhost` key this version of AUHost reads and writes.
    public static let schemaVersion = 1

    /// The top-level keys of a version 1 file, in the order a save writes them.
    public static let keys = ["auhost", "name", "description", "sampleRate", "nodes", "chain", "connections", "midi", "midiMap", "snapshots", "tracks", "autoconvert"]

    /// The rates a chain may run at, 8 kHz to 768 kHz: below and above them plugins stop
    /// working (some loop forever at a rate near zero), so a preset's `sampleRate`, an
    /// input file's rate the chain would take and `--sample-rate` are refused outside it.
    public static let sampleRates: ClosedRange<Double> = 8_000...768_000
    /// ``sampleRates`` as messages write it: `8000...768000`.
    public static let sampleRateRange = "\(Int(sampleRates.lowerBound))...\(Int(sampleRates.upperBound))"

    public var name: String
    public var description: String?
    /// The rate the chain runs at; nil: the input file's, or the JACK server's.
    public var sampleRate: Double?
    public var nodes: [PresetNode]
    public var routing: PresetRouting
    /// MIDI connections besides those a `chain` implies (a node that sends MIDI feeds the
    /// next node that takes it).
    public var midi: [PresetMIDIConnection]
    /// Where a MIDI file's tracks play (`MusicTrackSetDestNode`): track number (from 1, as
    /// `auhost midi info` counts them) to a node id that takes MIDI, or `output` (the graph's
    /// MIDI output). Tracks not named go to the graph's MIDI input.
    public var tracks: [Int: String]
    /// MIDI controls that move parameters live (`auhost run`): CC, pitch bend or notes.
    public var midiMap: [PresetMIDIMapping]
    /// Named sets of parameter values, recalled live (`snapshot NAME`, program change N).
    public var snapshots: [PresetSnapshot]
    /// Whether format converters go where channel counts disagree (a mono amp into a stereo
    /// reverb); nil: yes. `false` makes such a chain an error naming the connection.
    public var autoconvert: Bool?

    /// - Thread: [any]
    public init(
        name: String, description: String? = nil, sampleRate: Double? = nil, nodes: [PresetNode], routing: PresetRouting,
        midi: [PresetMIDIConnection] = [], tracks: [Int: String] = [:], autoconvert: Bool? = nil, midiMap: [PresetMIDIMapping] = [], snapshots: [PresetSnapshot] = []
    ) {
        self.midiMap = midiMap
        self.snapshots = snapshots
        self.tracks = tracks
        self.autoconvert = autoconvert
        self.name = name
        self.description = description
        self.sampleRate = sampleRate
        self.nodes = nodes
        self.routing = routing
        self.midi = midi
    }

    /// The node with this id, if any.
    /// - Thread: [any]
    public func node(id: String) -> PresetNode? { nodes.first { $0.id == id } }
}
