/// Walks a track's events in time order, as Core Audio's `MusicEventIterator`. It holds a
/// snapshot of the track: later edits of the track do not show through it.
/// The position is an event index, or `events.count` ("past the end": no current event).
/// - Thread: [any] to read; [control] for the mutating members.
public struct MusicEventIterator: Sendable {
    /// The events walked.
    public let events: [MusicTrackEvent]
    /// The index of the current event; `events.count` when past the end.
    public private(set) var position: Int

    /// An iterator on the first event of `track` (past the end if the track is empty)
    /// (`NewMusicEventIterator`).
    /// - Thread: [any]
    public init(track: MusicTrack) {
        events = track.events
        position = 0
    }

    /// Moves to the first event at or after `timeStamp`, or past the end if there is none
    /// (`MusicEventIteratorSeek`).
    /// - Thread: [control]
    public mutating func seek(to timeStamp: MusicTimeStamp) {
        var low = 0
        var high = events.count
        while low < high {
            let middle = low + (high - low) / 2
            if events[middle].timeStamp < timeStamp { low = middle + 1 } else { high = middle }
        }
        position = low
    }

    /// Moves to the next event (`MusicEventIteratorNextEvent`). Returns whether there is a
    /// current event now: from the last event it moves past the end and returns false; past
    /// the end it stays and returns false.
    /// - Thread: [control]
    @discardableResult
    public mutating func next() -> Bool {
        if position < events.count { position += 1 }
        return position < events.count
    }

    /// Moves to the previous event (`MusicEventIteratorPreviousEvent`); from past the end, to
    /// the last event. Returns whether it moved: on the first event (or in an empty track) it
    /// stays and returns false.
    /// - Thread: [control]
    @discardableResult
    public mutating func previous() -> Bool {
        guard position > 0 else { return false }
        position -= 1
        return true
    }

    /// Whether the iterator is on an event (`MusicEventIteratorHasCurrentEvent`).
    /// - Thread: [any]
    public var hasCurrentEvent: Bool { position < events.count }

    /// Whether an event follows the current one (`MusicEventIteratorHasNextEvent`).
    /// - Thread: [any]
    public var hasNextEvent: Bool { position + 1 < events.count }

    /// Whether an event precedes the current position (`MusicEventIteratorHasPreviousEvent`).
    /// - Thread: [any]
    public var hasPreviousEvent: Bool { position > 0 }

    /// The current event, nil past the end (`MusicEventIteratorGetEventInfo`).
    /// - Thread: [any]
    public var currentEvent: MusicTrackEvent? {
        hasCurrentEvent ? events[position] : nil
    }
}
