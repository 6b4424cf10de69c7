/// Walks a track's events in time order, as Core Audio's `MusicEventIterator`. It holds a
/// copy of the track (a value): later edits of the track do not show through it, and
/// ``deleteEvent()`` and ``setEventTime(_:)`` edit its copy, ``track``, which the caller
/// puts back (`sequence.tracks[i] = iterator.track`).
/// The position is an event index, or `events.count` ("past the end": no current event).
/// - Thread: [any] to read; [control] for the mutating members.
public struct MusicEventIterator: Sendable {
    /// The track walked, with the edits made through the iterator.
    public private(set) var track: MusicTrack
    /// The index of the current event; `events.count` when past the end.
    public private(set) var position: Int

    /// An iterator on the first event of `track` (past the end if the track is empty)
    /// (`NewMusicEventIterator`).
    /// - Thread: [any]
    public init(track: MusicTrack) {
        self.track = track
        position = 0
    }

    /// The events walked: the track's.
    /// - Thread: [any]
    public var events: [MusicTrackEvent] { track.events }

    /// Deletes the current event from ``track``; the iterator is then on the event that
    /// followed it, or past the end (`MusicEventIteratorDeleteEvent`). Returns false, and
    /// changes nothing, past the end.
    /// - Thread: [control]
    @discardableResult
    public mutating func deleteEvent() -> Bool {
        guard hasCurrentEvent else { return false }
        _ = track.removeEvent(at: position)
        return true
    }

    /// Moves the current event to `timeStamp` in ``track``, after the events already at that
    /// time, and stays on it at its new place (`MusicEventIteratorSetEventTime`). Returns
    /// false, and changes nothing, past the end or for a time stamp that is not finite.
    /// - Thread: [control]
    @discardableResult
    public mutating func setEventTime(_ timeStamp: MusicTimeStamp) -> Bool {
        guard hasCurrentEvent, timeStamp.isFinite else { return false }
        var moved = track.removeEvent(at: position)
        moved.timeStamp = timeStamp
        position = track.insert(moved)
        return true
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
