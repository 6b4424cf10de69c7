internal import AUCore
internal import AUEngine
internal import AUMIDI
internal import AUMusicPlayer

// What MusicSequence, MusicTrack, MusicEventIterator and MusicPlayer point at. AUMIDI's
// sequence and tracks are values; the C API's are handles the program keeps editing, so a
// SequenceHandle holds the value and gives every edit to the players that play it (an edit
// made while playing is heard from the next cycle, the player going on from its beat).

typealias SequenceModel = AUMIDI.MusicSequence
typealias TrackModel = AUMIDI.MusicTrack

/// A `MusicSequence`.
final class SequenceHandle: @unchecked Sendable {
    static let live = LiveHandles<SequenceHandle>()

    var model = SequenceModel()
    /// The tracks' handles, in the model's order.
    var tracks: [TrackHandle] = []
    private(set) var tempoTrack: TrackHandle!
    /// The graph its tracks play into (`MusicSequenceSetAUGraph`), and whether the sequence
    /// made it (`MusicSequenceGetAUGraph` without one: disposed with the sequence).
    var graph: GraphHandle?
    var ownsGraph = false
    var sequenceType = kMusicSequenceType_Beats
    /// The players whose sequence this is.
    var players: [PlayerHandle] = []
    /// What delivers the user events and AU preset events its players pass, while it has a
    /// user callback or a preset event.
    var passedEvents: PassedEventDelivery?

    init() {
        tempoTrack = TrackHandle(sequence: self, isTempoTrack: true)
        _ = TrackHandle.live.register(tempoTrack)
    }

    /// Adds a track handle for the model's track at the end.
    func adoptTrack() -> TrackHandle {
        let track = TrackHandle(sequence: self, isTempoTrack: false)
        tracks.append(track)
        _ = TrackHandle.live.register(track)
        return track
    }

    /// Replaces the model (a file loaded) with one handle per track.
    func replaceModel(_ sequence: SequenceModel) {
        for track in tracks { TrackHandle.live.unregister(track) }
        tracks = []
        model = sequence
        for _ in sequence.tracks { _ = adoptTrack() }
    }

    /// The node `track` plays into: its `MusicTrackSetDestNode` node, else the graph's first
    /// music device.
    func destination(of track: TrackHandle) -> GraphNode? {
        if let number = track.destNode, let node = graph?.node(number) { return node }
        return graph?.nodes.first { $0.description.componentType == kAudioUnitType_MusicDevice }?.node
    }

    /// The sequence as the player plays it: each track to its ``destination(of:)``.
    func resolved() -> SequenceModel {
        var sequence = model
        for (index, handle) in tracks.enumerated() {
            if let node = destination(of: handle) { sequence.tracks[index].destination = .node(node) }
        }
        return sequence
    }

    /// The sequence's ``passedEvents``, started now if it was not.
    func deliversPassedEvents() -> PassedEventDelivery {
        if let passedEvents { return passedEvents }
        let delivery = PassedEventDelivery(sequence: self)
        passedEvents = delivery
        return delivery
    }

    /// Gives an edit to every player of the sequence (and starts the delivery of passed
    /// events when an AU preset event came).
    func edited() throws(AudioUnitError) {
        if passedEvents == nil, tracks.contains(where: { $0.model.events.contains { if case .auPreset = $0.event { true } else { false } } }) {
            _ = deliversPassedEvents()
        }
        for player in players { try player.publish() }
    }

    /// Lets every track handle go (the sequence is disposed).
    func disposeTracks() {
        for track in tracks + [tempoTrack!] { TrackHandle.live.unregister(track) }
        tracks = []
    }
}

/// A `MusicTrack`: a track of one sequence, found by identity in it.
final class TrackHandle: @unchecked Sendable {
    static let live = LiveHandles<TrackHandle>()

    unowned let sequence: SequenceHandle
    let isTempoTrack: Bool
    /// `MusicTrackSetDestNode`'s node.
    var destNode: Int32?

    init(sequence: SequenceHandle, isTempoTrack: Bool) {
        self.sequence = sequence
        self.isTempoTrack = isTempoTrack
    }

    var index: Int? { sequence.tracks.firstIndex { $0 === self } }

    /// The track's value.
    var model: TrackModel {
        isTempoTrack ? sequence.model.tempoTrack : sequence.model.tracks[index!]
    }

    /// Edits the track's value and gives the edit to the sequence's players.
    func edit<T>(_ body: (inout TrackModel) throws -> T) throws -> T {
        let result: T
        if isTempoTrack {
            result = try body(&sequence.model.tempoTrack)
        } else {
            result = try body(&sequence.model.tracks[index!])
        }
        try sequence.edited()
        return result
    }
}

/// A `MusicEventIterator`: a position in a track, which it edits through the track handle.
final class IteratorHandle: @unchecked Sendable {
    static let live = LiveHandles<IteratorHandle>()

    let track: TrackHandle
    /// The index of the current event in the track's events (== count: past the end).
    var position = 0
    /// The current event's data in Apple's layout, valid until the next call (GetEventInfo).
    var eventData: [UInt8] = []

    init(track: TrackHandle) { self.track = track }

    /// The position kept inside the track's events after an edit elsewhere.
    var clampedPosition: Int { min(position, track.model.events.count) }
}

/// A `MusicPlayer`.
final class PlayerHandle: @unchecked Sendable {
    static let live = LiveHandles<PlayerHandle>()

    let player = AUMusicPlayer.MusicPlayer()
    var sequence: SequenceHandle?
    /// The beat from which passed events are still to be delivered (``PassedEventDelivery``):
    /// where the player started or was set.
    var passedEventsFrom = 0.0
    /// The graph and rate the player was last attached to.
    private var attached: (graph: GraphHandle, rate: Double)?

    /// Hands the sequence (resolved to the graph's nodes) and its graph to the player,
    /// keeping the player's beat.
    func publish() throws(AudioUnitError) {
        guard let sequence else {
            player.setSequence(nil)
            return
        }
        let beat = player.time
        if let graph = sequence.graph {
            let rate = graph.outputSampleRate
            if attached?.graph !== graph || attached?.rate != rate {
                try player.setAUGraph(graph.graph, sampleRate: rate)
                attached = (graph, rate)
            }
        }
        player.setSequence(sequence.resolved())
        if !player.isPlaying { try player.setTime(beat) }
    }
}

extension GraphHandle {
    /// The rate the graph renders at: its output node's input (a device unit's output scope
    /// is the device's side), 44.1 kHz before the graph has an output.
    var outputSampleRate: Double {
        guard let output = graph.outputNode, let unit = try? graph.unit(of: output),
              let rate = try? unit.value(of: .sampleRate, scope: .input, element: 0), rate > 0
        else { return 44_100 }
        return rate
    }
}
