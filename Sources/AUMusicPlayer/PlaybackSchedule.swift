import AUCore
import AUMIDI

/// A sequence compiled for the render thread: the tempo and time-signature maps and each
/// playing track's notes, channel messages, parameter events and SysEx in plain memory, with
/// the track's loop, offset and destination, and a cursor per track that only the render
/// thread moves. Muted tracks are left out; when any track is soloed, only soloed tracks play.
/// Meta, tempo, user and AU preset events do not play here (tempo is in the map); a parameter
/// event plays when its destination's unit has the parameter (its slot is found now), a SysEx
/// event (raw data) when its destination's unit takes SysEx (its ``SysExQueue``, found now).
/// - Thread: [control] to build and free; [render] reads it and moves the cursors.
final class PlaybackSchedule: @unchecked Sendable {
    /// One note, channel message, parameter change or SysEx message of a track.
    struct Event {
        /// What the event is.
        enum Kind { case note, channel, parameter, sysEx }

        var beat: MusicTimeStamp
        /// A note's length in beats (0 for a channel message).
        var duration: MusicTimeStamp
        var status: UInt8
        var data1: UInt8
        var data2: UInt8
        /// The note-off velocity of a note.
        var releaseVelocity: UInt8
        var kind: Kind
        /// A parameter event's slot in its unit's parameter table, and its value.
        var parameterSlot: Int32 = 0
        var value: Float = 0
        /// A SysEx message's bytes in the track's ``Track/bytes``.
        var bytes: Range<Int32> = 0..<0
    }

    /// One track: its events and where the render thread is in them.
    struct Track {
        var events: UnsafeMutableBufferPointer<Event>
        var offset: MusicTimeStamp
        /// 0: no loop.
        var loopDuration: MusicTimeStamp
        /// How many times the loop plays; 0: forever.
        var loopCount: Int
        var destination: MIDIEndpoint
        /// The SysEx messages' bytes, one after the other, and the destination's queue for
        /// them (nil: the destination takes no SysEx; the schedule holds it).
        var bytes: UnsafeMutableBufferPointer<UInt8>
        var sysEx: Unmanaged<SysExQueue>?
        /// The cursor: the loop pass and the index of the next event (`events.count`: none).
        var pass = 0
        var index = 0

        /// Whether the track plays its first `loopDuration` beats over and over.
        var loops: Bool { loopDuration > 0 }

        /// The beat of the next event, nil when the track has no more.
        /// - Thread: [render]
        mutating func nextBeat() -> MusicTimeStamp? {
            if loops, index >= events.count || events[index].beat >= loopDuration {
                guard !events.isEmpty, events[0].beat < loopDuration, loopCount == 0 || pass + 1 < loopCount else {
                    index = events.count
                    return nil
                }
                pass += 1
                index = 0
            }
            guard index < events.count else { return nil }
            return offset + Double(pass) * loopDuration + events[index].beat
        }

        /// Moves the cursor to the first event at or after `beat`.
        /// - Thread: [render]
        mutating func seek(to beat: MusicTimeStamp) {
            var local = beat - offset
            pass = 0
            if loops, local > 0 {
                pass = Int(Int64(clamping: (local / loopDuration).rounded(.down), rounding: .down))
                local -= Double(pass) * loopDuration
                if loopCount > 0, pass >= loopCount {
                    index = events.count
                    return
                }
            }
            let events = self.events
            index = partitioningIndex(count: events.count) { events[$0].beat >= local }
        }
    }

    let tempo: UnsafeMutableBufferPointer<MusicTempoMap.Segment>
    let signatures: UnsafeMutableBufferPointer<MusicTimeSignatureMap.Segment>
    let tracks: UnsafeMutableBufferPointer<Track>
    /// The tracks that have an event to come, by that event's beat (ties by track index): a
    /// binary min-heap, so that finding the next event of a song of 65,534 tracks does not
    /// scan them all. It matches the tracks' cursors: built here, rebuilt by
    /// ``rebuildUpcoming()`` after the cursors move, updated by ``advanceUpcoming()``.
    private let upcoming: UnsafeMutableBufferPointer<(beat: MusicTimeStamp, track: Int)>
    private var upcomingCount = 0

    /// The destinations' SysEx queues the tracks point at, kept alive.
    private let sysExQueues: [SysExQueue]

    /// Compiles `sequence`; `parameterSlot` finds a parameter's slot in a destination's unit
    /// (nil: the event does not play), `sysExQueue` a destination's SysEx queue.
    /// - Thread: [control]
    init(
        _ sequence: MusicSequence, parameterSlot: (MIDIEndpoint, ParameterAddress) -> Int? = { _, _ in nil },
        sysExQueue: (MIDIEndpoint) -> SysExQueue? = { _ in nil }
    ) {
        let tempoMap = sequence.tempoMap, signatureMap = sequence.timeSignatureMap
        tempo = .allocate(capacity: tempoMap.segments.count)
        _ = tempo.initialize(from: tempoMap.segments)
        signatures = .allocate(capacity: signatureMap.segments.count)
        _ = signatures.initialize(from: signatureMap.segments)
        // A format-1 file's first track is the tempo track; the notes it may hold play too.
        let candidates = sequence.tracks + [sequence.tempoTrack]
        let soloing = candidates.contains { $0.isSoloed }
        let playing = candidates.filter { !$0.isMuted && (!soloing || $0.isSoloed) }
        tracks = .allocate(capacity: playing.count)
        var queues: [SysExQueue] = []
        for (index, track) in playing.enumerated() {
            let queue = sysExQueue(track.destination)
            if let queue { queues.append(queue) }
            var bytes: [UInt8] = []
            var events: [Event] = []
            for trackEvent in track.events {
                guard let event = Self.event(trackEvent, slot: { parameterSlot(track.destination, $0) }, takesSysEx: queue != nil, bytes: &bytes)
                else { continue }
                events.append(event)
            }
            let storage = UnsafeMutableBufferPointer<Event>.allocate(capacity: max(1, events.count))
            _ = storage.initialize(from: events)
            let byteStorage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, bytes.count))
            _ = byteStorage.initialize(from: bytes)
            tracks.initializeElement(at: index, to: Track(
                events: UnsafeMutableBufferPointer(rebasing: storage[0..<events.count]), offset: track.offset,
                loopDuration: max(0, track.loopInfo.loopDuration), loopCount: Int(max(0, track.loopInfo.numberOfLoops)),
                destination: track.destination, bytes: byteStorage, sysEx: queue.map { Unmanaged.passUnretained($0) }))
        }
        sysExQueues = queues
        upcoming = .allocate(capacity: max(1, playing.count))
        rebuildUpcoming()
    }

    /// The track whose event comes next and that event's beat; nil when none is left.
    /// - Thread: [render]
    @inline(__always)
    var nextUpcoming: (beat: MusicTimeStamp, track: Int)? { upcomingCount > 0 ? upcoming[0] : nil }

    /// Puts every track with an event to come into the heap, after the cursors moved (O(n)).
    /// - Thread: [render]
    func rebuildUpcoming() {
        upcomingCount = 0
        for index in tracks.indices {
            guard let beat = tracks[index].nextBeat() else { continue }
            upcoming[upcomingCount] = (beat, index)
            upcomingCount += 1
        }
        var parent = upcomingCount / 2
        while parent > 0 {
            parent -= 1
            siftDown(from: parent)
        }
    }

    /// Moves the next track's cursor past its event and re-files the track (O(log n)).
    /// - Thread: [render]
    func advanceUpcoming() {
        guard upcomingCount > 0 else { return }
        let index = upcoming[0].track
        tracks[index].index += 1
        if let beat = tracks[index].nextBeat() {
            upcoming[0] = (beat, index)
        } else {
            upcomingCount -= 1
            upcoming[0] = upcoming[upcomingCount]
        }
        siftDown(from: 0)
    }

    private func siftDown(from start: Int) {
        guard start < upcomingCount else { return }
        let item = upcoming[start]
        var parent = start
        while true {
            var child = 2 * parent + 1
            guard child < upcomingCount else { break }
            if child + 1 < upcomingCount, Self.precedes(upcoming[child + 1], upcoming[child]) { child += 1 }
            guard Self.precedes(upcoming[child], item) else { break }
            upcoming[parent] = upcoming[child]
            parent = child
        }
        upcoming[parent] = item
    }

    @inline(__always)
    private static func precedes(_ one: (beat: MusicTimeStamp, track: Int), _ other: (beat: MusicTimeStamp, track: Int)) -> Bool {
        one.beat < other.beat || (one.beat == other.beat && one.track < other.track)
    }

    deinit {
        RenderThread.assertNotCurrent("PlaybackSchedule.deinit")
        for track in tracks {
            track.events.baseAddress?.deallocate()
            track.bytes.deallocate()
        }
        tracks.deallocate()
        upcoming.deallocate()
        tempo.deallocate()
        signatures.deallocate()
    }

    /// What of a track event plays: notes, channel messages, parameter changes and, when
    /// the track's destination takes them, SysEx messages (their bytes appended to `bytes`).
    private static func event(_ trackEvent: MusicTrackEvent, slot: (ParameterAddress) -> Int?, takesSysEx: Bool, bytes: inout [UInt8]) -> Event? {
        switch trackEvent.event {
        case .note(let note):
            Event(beat: trackEvent.timeStamp, duration: max(0, note.duration), status: 0x90 | (note.channel & 0x0F), data1: note.note & 0x7F,
                  data2: max(1, note.velocity & 0x7F), releaseVelocity: note.releaseVelocity & 0x7F, kind: .note)
        case .channel(let message):
            Event(beat: trackEvent.timeStamp, duration: 0, status: message.status, data1: message.data1 & 0x7F, data2: message.data2 & 0x7F,
                  releaseVelocity: 0, kind: .channel)
        case .parameter(let change):
            slot(change.address).map {
                Event(beat: trackEvent.timeStamp, duration: 0, status: 0, data1: 0, data2: 0, releaseVelocity: 0, kind: .parameter,
                      parameterSlot: Int32($0), value: change.value)
            }
        case .sysex(let sysex) where takesSysEx:
            appendSysEx(sysex, at: trackEvent.timeStamp, to: &bytes)
        default: nil
        }
    }

    /// A SysEx event whose message (F0 and the event's data, or an escape's bytes as they
    /// are) is appended to `bytes`.
    private static func appendSysEx(_ sysex: MIDISysexEvent, at beat: MusicTimeStamp, to bytes: inout [UInt8]) -> Event {
        let start = Int32(bytes.count)
        if sysex.kind == .sysex { bytes.append(0xF0) }
        bytes += sysex.data
        return Event(beat: beat, duration: 0, status: 0, data1: 0, data2: 0, releaseVelocity: 0, kind: .sysEx, bytes: start..<Int32(bytes.count))
    }

    /// Seconds at `beats`.
    /// - Thread: [render]
    @inline(__always)
    func seconds(forBeats beats: MusicTimeStamp) -> Double { MusicTempoMap.seconds(forBeats: beats, in: UnsafeBufferPointer(tempo)) }

    /// Beats at `seconds`.
    /// - Thread: [render]
    @inline(__always)
    func beats(forSeconds seconds: Double) -> MusicTimeStamp { MusicTempoMap.beats(forSeconds: seconds, in: UnsafeBufferPointer(tempo)) }

    /// The transport at `beats` while rolling at `rate` (tempo scaled by it).
    /// - Thread: [render]
    func transport(atBeats beats: MusicTimeStamp, seconds: Double, sampleRate: Double, rate: Double, isRolling: Bool) -> TransportState {
        let bpm = MusicTempoMap.segment(atBeats: beats, in: UnsafeBufferPointer(tempo)).bpm
        let position = MusicTimeSignatureMap.transportPosition(atBeats: beats, in: UnsafeBufferPointer(signatures))
        return TransportState(
            isRolling: isRolling, beatsPerMinute: bpm * position.beatsPerQuarter * rate, beat: beats * position.beatsPerQuarter, bar: position.bar,
            beatInBar: position.beatInBar, beatsPerBar: Double(position.beatsPerBar), beatUnit: position.beatUnit,
            frame: MusicTempoMap.sampleFrame(forSeconds: seconds, sampleRate: sampleRate))
    }
}
