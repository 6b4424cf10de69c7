import AUMIDI
import Testing

@Suite("Track editing")
struct MusicTrackEditingTests {
    /// Program changes at 0, 1, 2, 2.5, 3 and 5, numbered by program.
    func track() -> MusicTrack {
        var track = MusicTrack()
        for (program, time) in [(0, 0.0), (1, 1), (2, 2), (3, 2.5), (4, 3), (5, 5)] {
            track.addMIDIChannelEvent(at: time, .programChange(channel: 0, program: UInt8(program)))
        }
        return track
    }

    func summary(_ track: MusicTrack) -> [String] {
        track.events.map { trackEvent in
            guard case .channel(let message) = trackEvent.event else { return "?" }
            return "\(message.data1)@\(trackEvent.timeStamp)"
        }
    }

    @Test("adding keeps time order; events of one time keep their insertion order")
    func stableOrder() {
        var track = MusicTrack()
        track.addMIDIChannelEvent(at: 2, .programChange(channel: 0, program: 0))
        track.addMIDIChannelEvent(at: 1, .programChange(channel: 0, program: 1))
        track.addMIDIChannelEvent(at: 2, .programChange(channel: 0, program: 2))
        track.addMIDIChannelEvent(at: 1, .programChange(channel: 0, program: 3))
        track.addMIDIChannelEvent(at: 0, .programChange(channel: 0, program: 4))
        #expect(summary(track) == ["4@0.0", "1@1.0", "3@1.0", "0@2.0", "2@2.0"])
    }

    @Test("clear removes start..<end and keeps the other times")
    func clear() {
        var edited = track()
        edited.clear(from: 1, to: 3)
        #expect(summary(edited) == ["0@0.0", "4@3.0", "5@5.0"])
        edited.clear(from: 4, to: 4)
        #expect(edited.events.count == 3)
        edited.removeAllEvents()
        #expect(edited.isEmpty)
    }

    @Test("cut removes the range and moves later events earlier")
    func cut() {
        var edited = track()
        edited.cut(from: 1, to: 3)
        #expect(summary(edited) == ["0@0.0", "4@1.0", "5@3.0"])
        var tail = track()
        tail.cut(from: 4, to: 10)
        #expect(summary(tail) == ["0@0.0", "1@1.0", "2@2.0", "3@2.5", "4@3.0"])
    }

    @Test("copy returns the range rebased to 0, with the range's length")
    func copy() {
        let copied = track().copy(from: 2, to: 5)
        #expect(summary(copied) == ["2@0.0", "3@0.5", "4@1.0"])
        #expect(copied.length == 3)
        #expect(track().copy(from: 6, to: 9).isEmpty)
    }

    @Test("merge inserts another track's events at a time, after events already there")
    func merge() {
        var edited = track()
        edited.merge(track().copy(from: 0, to: 2), at: 2)
        #expect(summary(edited) == ["0@0.0", "1@1.0", "2@2.0", "0@2.0", "3@2.5", "4@3.0", "1@3.0", "5@5.0"])
    }

    @Test("move shifts a range, later or earlier, re-sorting stably")
    func move() {
        var later = track()
        later.moveEvents(from: 0, to: 2, by: 3)
        #expect(summary(later) == ["2@2.0", "3@2.5", "4@3.0", "0@3.0", "1@4.0", "5@5.0"])
        var earlier = track()
        earlier.moveEvents(from: 5, to: 6, by: -4.5)
        #expect(summary(earlier) == ["0@0.0", "5@0.5", "1@1.0", "2@2.0", "3@2.5", "4@3.0"])
    }

    @Test("length defaults to the last event's end; properties are kept")
    func lengthAndProperties() {
        var edited = track()
        edited.addMIDINoteEvent(at: 4, MIDINoteMessage(channel: 0, note: 60, velocity: 1, duration: 2.5))
        #expect(edited.length == 6.5)
        edited.length = 8
        #expect(edited.length == 8)
        edited.loopInfo = MusicTrackLoopInfo(loopDuration: 4, numberOfLoops: 0)
        edited.isMuted = true
        edited.isSoloed = true
        edited.offset = 1
        edited.cut(from: 0, to: 1)
        #expect(edited.loopInfo.loopDuration == 4 && edited.isMuted && edited.isSoloed && edited.offset == 1)
        #expect(MusicTrack().length == 0)
    }

    @Test("iterator: seek, next and previous, at both edges")
    func iterator() {
        var iterator = MusicEventIterator(track: track())
        #expect(iterator.currentEvent?.timeStamp == 0)
        var moved = iterator.previous()
        #expect(!moved && iterator.currentEvent?.timeStamp == 0)
        moved = iterator.next()
        #expect(moved && iterator.currentEvent?.timeStamp == 1)
        iterator.seek(to: 2.2)
        #expect(iterator.currentEvent?.timeStamp == 2.5)
        iterator.seek(to: 2)
        #expect(iterator.currentEvent?.timeStamp == 2)
        iterator.seek(to: 5)
        #expect(iterator.hasCurrentEvent && !iterator.hasNextEvent)
        moved = iterator.next()
        #expect(!moved && !iterator.hasCurrentEvent && iterator.currentEvent == nil)
        moved = iterator.next()
        #expect(!moved && iterator.position == 6)
        moved = iterator.previous()
        #expect(moved && iterator.currentEvent?.timeStamp == 5)
        iterator.seek(to: 99)
        #expect(!iterator.hasCurrentEvent)
        iterator.seek(to: -1)
        #expect(iterator.currentEvent?.timeStamp == 0 && !iterator.hasPreviousEvent)

        var empty = MusicEventIterator(track: MusicTrack())
        let next = empty.next()
        let previous = empty.previous()
        #expect(!empty.hasCurrentEvent && !next && !previous)
        empty.seek(to: 0)
        #expect(empty.currentEvent == nil)
    }

    @Test("iterator: deleting the current event moves to the one after it; past the end nothing is deleted")
    func iteratorDeletes() {
        var iterator = MusicEventIterator(track: track())
        iterator.seek(to: 2)
        var deleted = iterator.deleteEvent()
        #expect(deleted && summary(iterator.track) == ["0@0.0", "1@1.0", "3@2.5", "4@3.0", "5@5.0"])
        #expect(iterator.currentEvent?.timeStamp == 2.5 && iterator.position == 2)
        iterator.seek(to: 5)
        deleted = iterator.deleteEvent()
        #expect(deleted && !iterator.hasCurrentEvent && iterator.position == 4)
        deleted = iterator.deleteEvent()
        #expect(!deleted && summary(iterator.track) == ["0@0.0", "1@1.0", "3@2.5", "4@3.0"])
        iterator.seek(to: 0)
        deleted = iterator.deleteEvent()
        #expect(deleted && iterator.currentEvent?.timeStamp == 1 && !iterator.hasPreviousEvent)
        // The track it was made from is a value of its own.
        #expect(summary(track()).count == 6)
        var empty = MusicEventIterator(track: MusicTrack())
        deleted = empty.deleteEvent()
        #expect(!deleted)
    }

    @Test("iterator: retiming the current event moves it to its new time, after the events there, and stays on it")
    func iteratorRetimes() {
        var iterator = MusicEventIterator(track: track())
        iterator.seek(to: 1)
        // Later, after the event already at 3.
        var moved = iterator.setEventTime(3)
        #expect(moved && summary(iterator.track) == ["0@0.0", "2@2.0", "3@2.5", "4@3.0", "1@3.0", "5@5.0"])
        #expect(iterator.position == 4 && iterator.currentEvent?.timeStamp == 3 && iterator.hasPreviousEvent)
        // Earlier, before everything.
        iterator.seek(to: 5)
        moved = iterator.setEventTime(-0.5)
        #expect(moved && summary(iterator.track) == ["5@-0.5", "0@0.0", "2@2.0", "3@2.5", "4@3.0", "1@3.0"])
        #expect(iterator.position == 0)
        // In place, and to the end.
        moved = iterator.setEventTime(-0.5)
        #expect(moved && iterator.position == 0)
        moved = iterator.setEventTime(9)
        #expect(moved && iterator.position == 5 && !iterator.hasNextEvent)
        #expect(summary(iterator.track) == ["0@0.0", "2@2.0", "3@2.5", "4@3.0", "1@3.0", "5@9.0"])
        moved = iterator.setEventTime(.nan)
        #expect(!moved)
        iterator.next()
        moved = iterator.setEventTime(1)
        #expect(!moved && summary(iterator.track).last == "5@9.0")
    }
}
