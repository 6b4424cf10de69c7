import AUCore

/// A track of a sequence, as Core Audio's `MusicTrack`: events kept in time order (events at
/// the same time keep the order they were added in) and the track's properties. A value:
/// edit it in place through `sequence.tracks[i]` or `sequence.tempoTrack`. Time stamps are
/// meant to be finite: a NaN one sorts unpredictably (nothing traps).
/// - Thread: [any] to read; [control] for the mutating members.
public struct MusicTrack: Sendable, Hashable {
    /// The events, sorted by time stamp, stably.
    public private(set) var events: [MusicTrackEvent]
    /// The length set explicitly (or read from an end-of-track event after the last event).
    var storedLength: MusicTimeStamp?
    /// Looping (`kSequenceTrackProperty_LoopInfo`); none by default.
    public var loopInfo = MusicTrackLoopInfo()
    /// Whether the track is muted (`kSequenceTrackProperty_MuteStatus`).
    public var isMuted = false
    /// Whether the track is soloed (`kSequenceTrackProperty_SoloStatus`).
    public var isSoloed = false
    /// Beats by which playback of the track is delayed (`kSequenceTrackProperty_OffsetTime`).
    public var offset: MusicTimeStamp = 0
    /// Where a ``MusicPlayer`` sends the track's events (`MusicTrackSetDestNode`): a node of
    /// the player's graph, the graph's MIDI output, or (the default) the graph's MIDI input,
    /// which routes them as it routes a driver's MIDI. Kept with the track; not written to files.
    public var destination: MIDIEndpoint = .graphInput

    /// An empty track.
    /// - Thread: [any]
    public init() {
        events = []
    }

    /// A track of events already sorted by time stamp.
    init(sortedEvents: [MusicTrackEvent], storedLength: MusicTimeStamp?) {
        events = sortedEvents
        self.storedLength = storedLength
    }

    /// The track's length in beats (`kSequenceTrackProperty_TrackLength`): the value set, or
    /// else the end of the event that ends last. Writing ends the track at the later of the two.
    /// - Thread: [any] to read; [control] to set.
    public var length: MusicTimeStamp {
        get { storedLength ?? endOfLastEvent }
        set { storedLength = newValue }
    }

    /// The latest end (time stamp plus duration) of any event; 0 for an empty track.
    /// - Thread: [any]
    public var endOfLastEvent: MusicTimeStamp {
        events.reduce(0) { max($0, $1.endTimeStamp) }
    }

    /// Whether the track has no events.
    /// - Thread: [any]
    public var isEmpty: Bool { events.isEmpty }

    /// Adds `event` at `timeStamp`, after the events already at that time.
    /// - Thread: [control]
    public mutating func add(_ event: MusicEvent, at timeStamp: MusicTimeStamp) {
        insert(MusicTrackEvent(timeStamp: timeStamp, event: event))
    }

    /// Inserts `trackEvent` after the events already at its time; returns its index.
    @discardableResult
    mutating func insert(_ trackEvent: MusicTrackEvent) -> Int {
        guard let last = events.last, last.timeStamp > trackEvent.timeStamp else {
            events.append(trackEvent)
            return events.count - 1
        }
        let index = firstIndex(after: trackEvent.timeStamp)
        events.insert(trackEvent, at: index)
        return index
    }

    /// Removes and returns the event at `index`.
    mutating func removeEvent(at index: Int) -> MusicTrackEvent {
        events.remove(at: index)
    }

    /// Adds a note (`MusicTrackNewMIDINoteEvent`).
    /// - Thread: [control]
    public mutating func addMIDINoteEvent(at timeStamp: MusicTimeStamp, _ note: MIDINoteMessage) {
        add(.note(note), at: timeStamp)
    }

    /// Adds a channel message (`MusicTrackNewMIDIChannelEvent`).
    /// - Thread: [control]
    public mutating func addMIDIChannelEvent(
        at timeStamp: MusicTimeStamp, _ message: MIDIChannelMessage
    ) {
        add(.channel(message), at: timeStamp)
    }

    /// Adds a meta event (`MusicTrackNewMetaEvent`).
    /// - Thread: [control]
    public mutating func addMetaEvent(at timeStamp: MusicTimeStamp, _ meta: MIDIMetaEvent) {
        add(.meta(meta), at: timeStamp)
    }

    /// Adds a system-exclusive event (`MusicTrackNewMIDIRawDataEvent`).
    /// - Thread: [control]
    public mutating func addSysexEvent(at timeStamp: MusicTimeStamp, _ sysex: MIDISysexEvent) {
        add(.sysex(sysex), at: timeStamp)
    }

    /// Adds a tempo change, for a sequence's tempo track (`MusicTrackNewExtendedTempoEvent`).
    /// - Thread: [control]
    public mutating func addExtendedTempoEvent(at timeStamp: MusicTimeStamp, bpm: Double) {
        add(.tempo(ExtendedTempoEvent(bpm: bpm)), at: timeStamp)
    }

    /// Adds an application's event (`MusicTrackNewUserEvent`).
    /// - Thread: [control]
    public mutating func addUserEvent(at timeStamp: MusicTimeStamp, _ user: MusicUserEvent) {
        add(.user(user), at: timeStamp)
    }

    /// The index of the first event at or after `timeStamp` (`count` if none).
    /// - Thread: [any]
    public func firstIndex(atOrAfter timeStamp: MusicTimeStamp) -> Int {
        events.partitioningIndex { $0.timeStamp >= timeStamp }
    }

    /// The index of the first event after `timeStamp` (`count` if none).
    /// - Thread: [any]
    public func firstIndex(after timeStamp: MusicTimeStamp) -> Int {
        events.partitioningIndex { $0.timeStamp > timeStamp }
    }

    /// Replaces the events with `sorted` (already in time order).
    mutating func replaceEvents(with sorted: [MusicTrackEvent]) {
        events = sorted
    }
}
