/// Editing a track over beat ranges, as Core Audio's `MusicTrackClear`, `MusicTrackCut`,
/// `MusicTrackCopyInsert`, `MusicTrackMerge` and `MusicTrackMoveEvents`. A range
/// `start..<end` holds the events whose time stamp is at or after `start` and before `end`
/// (a note belongs to the range of its start; durations are never cut). An empty or reversed
/// range changes nothing.
extension MusicTrack {
    /// Removes every event (the other properties stay).
    /// - Thread: [control]
    public mutating func removeAllEvents() {
        replaceEvents(with: [])
    }

    /// Removes the events in `start..<end`; the others keep their times (`MusicTrackClear`).
    /// - Thread: [control]
    public mutating func clear(from start: MusicTimeStamp, to end: MusicTimeStamp) {
        guard start < end else { return }
        var kept = events
        kept.removeSubrange(indices(from: start, to: end))
        replaceEvents(with: kept)
    }

    /// Removes the events in `start..<end` and moves the later ones `end - start` beats
    /// earlier (`MusicTrackCut`).
    /// - Thread: [control]
    public mutating func cut(from start: MusicTimeStamp, to end: MusicTimeStamp) {
        guard start < end else { return }
        let range = indices(from: start, to: end)
        var kept = events
        kept.removeSubrange(range)
        let shift = end - start
        for index in range.lowerBound..<kept.count { kept[index].timeStamp -= shift }
        replaceEvents(with: kept)
    }

    /// A new track of the events in `start..<end`, moved `start` beats earlier (so the range
    /// starts at 0), with a length of `end - start` and default properties.
    /// - Thread: [any]
    public func copy(from start: MusicTimeStamp, to end: MusicTimeStamp) -> MusicTrack {
        guard start < end else { return MusicTrack() }
        let copied = events[indices(from: start, to: end)].map {
            MusicTrackEvent(timeStamp: $0.timeStamp - start, event: $0.event)
        }
        return MusicTrack(sortedEvents: copied, storedLength: end - start)
    }

    /// Inserts every event of `source`, moved `timeStamp` beats later, after this track's
    /// events of the same time; this track's events keep their times (`MusicTrackMerge`).
    /// - Thread: [control]
    public mutating func merge(_ source: MusicTrack, at timeStamp: MusicTimeStamp) {
        let moved = source.events.map {
            MusicTrackEvent(timeStamp: $0.timeStamp + timeStamp, event: $0.event)
        }
        replaceEvents(with: Self.mergeSorted(events, moved))
    }

    /// Moves the events in `start..<end` by `offset` beats (negative: earlier); they go after
    /// the events already at their new times (`MusicTrackMoveEvents`).
    /// - Thread: [control]
    public mutating func moveEvents(
        from start: MusicTimeStamp, to end: MusicTimeStamp, by offset: MusicTimeStamp
    ) {
        guard start < end else { return }
        let range = indices(from: start, to: end)
        let moved = events[range].map {
            MusicTrackEvent(timeStamp: $0.timeStamp + offset, event: $0.event)
        }
        var kept = events
        kept.removeSubrange(range)
        replaceEvents(with: Self.mergeSorted(kept, moved))
    }

    /// The indices of the events in `start..<end` (never a reversed range, even if a NaN
    /// time stamp upset the order).
    func indices(from start: MusicTimeStamp, to end: MusicTimeStamp) -> Range<Int> {
        let lower = firstIndex(atOrAfter: start)
        return lower..<max(lower, firstIndex(atOrAfter: end))
    }

    /// Merges two sorted event lists; at equal times `first`'s events come first.
    static func mergeSorted(
        _ first: [MusicTrackEvent], _ second: [MusicTrackEvent]
    ) -> [MusicTrackEvent] {
        var merged: [MusicTrackEvent] = []
        merged.reserveCapacity(first.count + second.count)
        var i = 0
        var j = 0
        while i < first.count && j < second.count {
            if second[j].timeStamp < first[i].timeStamp {
                merged.append(second[j])
                j += 1
            } else {
                merged.append(first[i])
                i += 1
            }
        }
        merged.append(contentsOf: first[i...])
        merged.append(contentsOf: second[j...])
        return merged
    }
}
