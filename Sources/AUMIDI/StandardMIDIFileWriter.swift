/// Writes a `MusicSequence` as Standard MIDI File bytes. Each note becomes a note-on at its
/// time and a note-off `duration` later; at one tick, note-offs go before the other events
/// (a note of zero ticks keeps its note-off right after its note-on), and the other events
/// keep their track order. Set-tempo events carry `ExtendedTempoEvent`s; user events and
/// end-of-track events in a track are not written; every track ends with one end-of-track
/// event at the later of its length and its last event's end. Times before 0 are written at 0.
struct StandardMIDIFileWriter {
    let sequence: MusicSequence
    let format: MIDIFileFormat
    let usesRunningStatus: Bool
    var output: [UInt8] = []

    /// The largest delta time or length a 4-byte variable-length quantity holds.
    static let maximumQuantity = 0x0FFF_FFFF

    /// One message to write: which event of which source track, and whether it is the
    /// note-off of a note.
    struct Item {
        var tick: Int64
        var order: Int
        var source: Int
        var eventIndex: Int
        var isNoteOff: Bool
    }

    init(sequence: MusicSequence, format: MIDIFileFormat, usesRunningStatus: Bool) {
        self.sequence = sequence
        self.format = format
        self.usesRunningStatus = usesRunningStatus
    }

    func failure(_ message: String) -> MIDIFileError {
        MIDIFileError(path: "<data>", offset: output.count, message: message)
    }

    mutating func write() throws(MIDIFileError) -> [UInt8] {
        let chunks: [[MusicTrack]] = switch format {
        case .singleTrack: [[sequence.tempoTrack] + sequence.tracks]
        case .multipleTracks: [[sequence.tempoTrack]] + sequence.tracks.map { [$0] }
        case .independentTracks:
            (sequence.tempoTrack.isEmpty ? [] : [[sequence.tempoTrack]])
                + sequence.tracks.map { [$0] }
        }
        output.append(contentsOf: [0x4D, 0x54, 0x68, 0x64, 0, 0, 0, 6])  // "MThd", 6
        appendUInt16(Int(format.rawValue))
        guard chunks.count <= 0xFFFF else {
            throw failure("expected at most 65535 tracks, found \(chunks.count)")
        }
        appendUInt16(chunks.count)
        switch sequence.division {
        case .ticksPerQuarterNote(let ticks):
            guard ticks > 0 && ticks <= 0x7FFF else {
                throw failure("expected 1-32767 ticks per quarter note, found \(ticks)")
            }
            appendUInt16(Int(ticks))
        case .smpte(let framesPerSecond, let ticksPerFrame):
            guard [24, 25, 29, 30].contains(framesPerSecond), ticksPerFrame > 0 else {
                throw failure("expected SMPTE 24, 25, 29 or 30 frames per second and nonzero "
                    + "ticks per frame, found \(framesPerSecond) and \(ticksPerFrame)")
            }
            output.append(UInt8(bitPattern: -Int8(framesPerSecond)))
            output.append(ticksPerFrame)
        }
        let ticksPerBeat = sequence.division.ticksPerBeat
        for (index, tracks) in chunks.enumerated() {
            try writeTrack(merging: tracks, index: index, ticksPerBeat: ticksPerBeat)
        }
        return output
    }

    /// Beats as ticks, rounded, at least 0 and at most 2^52.
    static func tick(_ beats: MusicTimeStamp, _ ticksPerBeat: Double) -> Int64 {
        min(max(Int64(clamping: beats * ticksPerBeat, rounding: .toNearestOrAwayFromZero), 0),
            1 << 52)
    }

    mutating func writeTrack(
        merging tracks: [MusicTrack], index: Int, ticksPerBeat: Double
    ) throws(MIDIFileError) {
        var items: [Item] = []
        items.reserveCapacity(tracks.reduce(0) { $0 + $1.events.count } * 2)
        var endTick: Int64 = 0
        var sequenceNumber = 0
        let afterNoteOffs = 1 << 60
        for (source, track) in tracks.enumerated() {
            endTick = max(endTick, Self.tick(track.length, ticksPerBeat))
            for (eventIndex, trackEvent) in track.events.enumerated() {
                let onTick = Self.tick(trackEvent.timeStamp, ticksPerBeat)
                let order = sequenceNumber << 1
                sequenceNumber += 1
                items.append(Item(tick: onTick, order: afterNoteOffs | order, source: source,
                                  eventIndex: eventIndex, isNoteOff: false))
                endTick = max(endTick, onTick)
                guard case .note(let note) = trackEvent.event else { continue }
                let length = Self.tick(note.duration, ticksPerBeat)
                let offTick = min(onTick + length, 1 << 52)
                items.append(Item(
                    tick: offTick, order: length == 0 ? afterNoteOffs | order | 1 : order,
                    source: source, eventIndex: eventIndex, isNoteOff: true))
                endTick = max(endTick, offTick)
            }
        }
        items.sort { $0.tick != $1.tick ? $0.tick < $1.tick : $0.order < $1.order }

        output.append(contentsOf: [0x4D, 0x54, 0x72, 0x6B, 0, 0, 0, 0])  // "MTrk", length later
        let start = output.count
        var lastTick: Int64 = 0
        var runningStatus: UInt8 = 0
        for item in items {
            let trackEvent = tracks[item.source].events[item.eventIndex]
            let body: (status: UInt8, data: [UInt8])
            switch trackEvent.event {
            case .note(let note):
                let channel = note.channel & 0x0F
                body = item.isNoteOff
                    ? (0x80 | channel, [note.note & 0x7F, note.releaseVelocity & 0x7F])
                    : (0x90 | channel, [note.note & 0x7F, max(note.velocity & 0x7F, 1)])
            case .channel(let message):
                guard (0x80...0xEF).contains(message.status) else {
                    throw failure("track \(index): expected a channel status byte 0x80-0xEF, "
                        + "found \(message.status)")
                }
                body = (message.status, message.dataByteCount == 1
                    ? [message.data1 & 0x7F] : [message.data1 & 0x7F, message.data2 & 0x7F])
            case .meta(let meta):
                guard meta.metaEventType != 0x2F else { continue }
                body = (0xFF, [meta.metaEventType] + meta.data)
            case .tempo(let tempo):
                body = (0xFF, [0x51] + MIDIMetaEvent.tempo(
                    microsecondsPerQuarterNote: Self.microsecondsPerQuarterNote(tempo.bpm)).data)
            case .sysex(let sysex):
                body = (sysex.kind.rawValue, sysex.data)
            case .user, .parameter, .auPreset:
                continue
            }
            try appendQuantity(Int(item.tick - lastTick), index: index, of: "a delta time")
            lastTick = item.tick
            if body.status < 0xF0 {
                if !usesRunningStatus || body.status != runningStatus { output.append(body.status) }
                runningStatus = body.status
                output.append(contentsOf: body.data)
            } else {
                runningStatus = 0
                output.append(body.status)
                if body.status == 0xFF {
                    output.append(body.data[0])
                    try appendQuantity(body.data.count - 1, index: index, of: "a meta event's length")
                    output.append(contentsOf: body.data[1...])
                } else {
                    try appendQuantity(body.data.count, index: index, of: "a sysex event's length")
                    output.append(contentsOf: body.data)
                }
            }
        }
        try appendQuantity(Int(max(endTick - lastTick, 0)), index: index, of: "a delta time")
        output.append(contentsOf: [0xFF, 0x2F, 0x00])
        let length = output.count - start
        guard length <= 0xFFFF_FFFF else {
            throw failure("track \(index): expected a track chunk of at most 4 GiB, found "
                + "\(length) bytes")
        }
        for byte in 0..<4 { output[start - 4 + byte] = UInt8((length >> (24 - 8 * byte)) & 0xFF) }
    }

    /// `60,000,000 / bpm` rounded, within 24 bits (an infinite tempo gives 0).
    static func microsecondsPerQuarterNote(_ bpm: Double) -> UInt32 {
        let micros = (60_000_000 / bpm).rounded()
        return micros.isNaN ? 500_000 : UInt32(min(max(micros, 0), 0xFF_FFFF))
    }

    mutating func appendUInt16(_ value: Int) {
        output.append(UInt8((value >> 8) & 0xFF))
        output.append(UInt8(value & 0xFF))
    }

    mutating func appendQuantity(
        _ value: Int, index: Int, of what: StaticString
    ) throws(MIDIFileError) {
        guard value <= Self.maximumQuantity else {
            throw failure("track \(index): expected \(what) of at most \(Self.maximumQuantity) "
                + "(a 4-byte variable-length quantity), found \(value)")
        }
        if value >= 1 << 21 { output.append(UInt8(0x80 | (value >> 21) & 0x7F)) }
        if value >= 1 << 14 { output.append(UInt8(0x80 | (value >> 14) & 0x7F)) }
        if value >= 1 << 7 { output.append(UInt8(0x80 | (value >> 7) & 0x7F)) }
        output.append(UInt8(value & 0x7F))
    }
}
