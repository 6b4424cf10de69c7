/// Reads Standard MIDI File bytes into a `MusicSequence`. Every length is checked against the
/// bytes that remain before anything is read or reserved, so no header or chunk length can
/// make it allocate more than the file's size suggests; tick arithmetic wraps instead of
/// trapping. Running status is accepted, and (as many files need) not cancelled by meta or
/// sysex events. Unknown chunks are skipped; bytes after the last track, and inside a track
/// after its end-of-track event, are ignored; a track without an end-of-track event ends
/// after its last event.
struct StandardMIDIFileReader {
    /// The file's bytes.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The file's path for errors, or `<data>`.
    let path: String

    /// What a track chunk becomes in the sequence.
    enum TrackRole {
        /// A track of its own: every event kept as read.
        case plain
        /// A format-1 file's first track: set-tempo events become `ExtendedTempoEvent`s.
        case tempoTrack
        /// A format-0 file's track: tempo, time and key signatures go to the tempo track.
        case singleTrack
    }

    /// A track chunk read: its events, and the tempo track's share for a format-0 file.
    struct ParsedTrack {
        var track: MusicTrack
        var tempoEvents: [MusicTrackEvent]
    }

    func failure(_ offset: Int, _ message: String) -> MIDIFileError {
        MIDIFileError(path: path, offset: offset, message: message)
    }

    func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0x0" + digits : "0x" + digits
    }

    func uint16(at offset: Int) -> Int { Int(bytes[offset]) << 8 | Int(bytes[offset + 1]) }

    func uint32(at offset: Int) -> Int {
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16
            | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }

    /// A chunk type for messages: its ASCII letters in quotes, or its bytes in hex.
    func chunkName(at offset: Int) -> String {
        let type = bytes[offset..<offset + 4]
        if type.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return "\"" + String(decoding: type, as: UTF8.self) + "\""
        }
        return type.map(hex).joined(separator: " ")
    }

    func read() throws(MIDIFileError) -> MusicSequence {
        let count = bytes.count
        let magic: [UInt8] = [0x4D, 0x54, 0x68, 0x64]  // "MThd"
        let prefix = min(count, 4)
        guard bytes[0..<prefix].elementsEqual(magic[0..<prefix]) else {
            let found = bytes[0..<prefix].map(hex).joined(separator: " ")
            throw failure(0, "expected \"MThd\" (a Standard MIDI File header), found \(found)")
        }
        guard count >= 14 else {
            throw failure(count, "the file ends inside the header; expected 14 header bytes "
                + "(\"MThd\", length, format, track count, division), found \(count)")
        }
        let headerLength = uint32(at: 4)
        guard headerLength >= 6 else {
            throw failure(4, "expected a header length of at least 6, found \(headerLength)")
        }
        guard headerLength <= count - 8 else {
            throw failure(4, "the header claims \(headerLength) bytes, but only \(count - 8) "
                + "remain in the file")
        }
        guard let format = MIDIFileFormat(rawValue: UInt16(uint16(at: 8))) else {
            throw failure(8, "expected format 0, 1 or 2, found \(uint16(at: 8))")
        }
        let trackCount = uint16(at: 10)
        if format == .singleTrack && trackCount != 1 {
            throw failure(10, "expected 1 track in a format-0 file, found a count of \(trackCount)")
        }
        let division = try readDivision()
        let ticksPerBeat = division.ticksPerBeat
        let isPPQN = if case .ticksPerQuarterNote = division { true } else { false }

        var sequence = MusicSequence(division: division)
        var tracks: [MusicTrack] = []
        var position = 8 + headerLength
        tracks.reserveCapacity(Self.trackReserve(declared: trackCount, bytesLeft: count - position))
        var tracksRead = 0
        while tracksRead < trackCount {
            guard count - position >= 8 else {
                throw failure(position, "expected \(trackCount) track chunks, found the end of "
                    + "the file after \(tracksRead) (\(count - position) bytes left, a chunk "
                    + "header takes 8)")
            }
            let length = uint32(at: position + 4)
            let start = position + 8
            guard length <= count - start else {
                throw failure(position + 4, "chunk \(chunkName(at: position)) claims \(length) "
                    + "bytes, but only \(count - start) remain in the file")
            }
            if bytes[position..<position + 4].elementsEqual([0x4D, 0x54, 0x72, 0x6B]) {  // MTrk
                let role: TrackRole = switch format {
                case .singleTrack: .singleTrack
                case .multipleTracks: tracksRead == 0 ? .tempoTrack : .plain
                case .independentTracks: .plain
                }
                let parsed = try readTrack(
                    start: start, end: start + length, index: tracksRead, role: role,
                    ticksPerBeat: ticksPerBeat, convertsTempo: isPPQN)
                switch role {
                case .tempoTrack:
                    sequence.tempoTrack = parsed.track
                case .singleTrack:
                    sequence.tempoTrack = MusicTrack(sortedEvents: parsed.tempoEvents, storedLength: nil)
                    tracks.append(parsed.track)
                case .plain:
                    tracks.append(parsed.track)
                }
                tracksRead += 1
            }
            position = start + length
        }
        sequence.tracks = tracks
        return sequence
    }

    func readDivision() throws(MIDIFileError) -> MIDIFileDivision {
        if bytes[12] & 0x80 != 0 {
            let framesPerSecond = -Int(Int8(bitPattern: bytes[12]))
            guard [24, 25, 29, 30].contains(framesPerSecond) else {
                throw failure(12, "expected SMPTE frames per second of -24, -25, -29 or -30, "
                    + "found -\(framesPerSecond)")
            }
            guard bytes[13] > 0 else {
                throw failure(13, "expected a nonzero number of ticks per SMPTE frame, found 0")
            }
            return .smpte(framesPerSecond: UInt8(framesPerSecond), ticksPerFrame: bytes[13])
        }
        let ticks = uint16(at: 12)
        guard ticks > 0 else {
            throw failure(12, "expected a nonzero number of ticks per quarter note, found 0")
        }
        return .ticksPerQuarterNote(UInt16(ticks))
    }

    /// A variable-length quantity of at most 4 bytes at `position`, which it moves past it.
    @inline(__always)
    func readQuantity(
        at position: inout Int, end: Int, track: Int, of what: StaticString
    ) throws(MIDIFileError) -> Int {
        let start = position
        var value = 0
        for byteIndex in 0..<4 {
            guard position < end else {
                throw failure(position, "track \(track) ends inside \(what); expected "
                    + "byte \(byteIndex + 1) of a variable-length quantity")
            }
            let byte = bytes[position]
            position += 1
            value = value << 7 | Int(byte & 0x7F)
            if byte < 0x80 { return value }
        }
        throw failure(start, "track \(track): expected \(what) as a variable-length quantity of "
            + "at most 4 bytes, found a 4th byte with its continuation bit set")
    }

    /// How many tracks to reserve room for when the header declares `declared` and
    /// `bytesLeft` bytes follow it: each track chunk takes at least 8 bytes, so only what the
    /// bytes can hold (a header that asks for 65,535 tracks in a tiny file reserves nothing large).
    static func trackReserve(declared: Int, bytesLeft: Int) -> Int {
        min(declared, max(0, bytesLeft) / 8)
    }

    static func messageName(_ status: UInt8) -> String {
        switch status & 0xF0 {
        case 0x80: "note-off"
        case 0x90: "note-on"
        case 0xA0: "poly pressure"
        case 0xB0: "control change"
        case 0xC0: "program change"
        case 0xD0: "channel pressure"
        default: "pitch bend"
        }
    }

    func readTrack(
        start: Int, end: Int, index: Int, role: TrackRole, ticksPerBeat: Double,
        convertsTempo: Bool
    ) throws(MIDIFileError) -> ParsedTrack {
        var events: [MusicTrackEvent] = []
        // Running-status channel messages take 3 bytes at least; a note takes two of them.
        events.reserveCapacity((end - start) / 4)
        var tempoEvents: [MusicTrackEvent] = []
        var pending = PendingNoteOns()
        var position = start
        var tick: Int64 = 0
        var lastEventTick: Int64 = 0
        var endOfTrackTick: Int64?
        var runningStatus: UInt8 = 0

        events: while position < end {
            let delta = try readQuantity(at: &position, end: end, track: index, of: "a delta time")
            tick &+= Int64(delta)
            let time = Double(tick) / ticksPerBeat
            guard position < end else {
                throw failure(position, "track \(index) ends after a delta time; expected an event")
            }
            var status = bytes[position]
            if status >= 0x80 {
                position += 1
            } else {
                guard runningStatus != 0 else {
                    throw failure(position, "track \(index): expected a status byte, found data "
                        + "byte \(hex(status)) with no running status")
                }
                status = runningStatus
            }

            if status < 0xF0 {
                runningStatus = status
                let needed = (status & 0xE0) == 0xC0 ? 1 : 2
                guard end - position >= needed else {
                    let missing = needed - (end - position)
                    throw failure(end, "track \(index) ends inside an event; expected \(missing) "
                        + "more byte\(missing == 1 ? "" : "s") of a \(Self.messageName(status))")
                }
                let data1 = bytes[position]
                let data2: UInt8 = needed == 2 ? bytes[position + 1] : 0
                guard data1 < 0x80, data2 < 0x80 else {
                    let offset = data1 < 0x80 ? position + 1 : position
                    throw failure(offset, "track \(index): expected a data byte (0x00-0x7F) of a "
                        + "\(Self.messageName(status)), found \(hex(bytes[offset]))")
                }
                position += needed
                let kind = status & 0xF0
                let channel = status & 0x0F
                if kind == 0x90 && data2 > 0 {
                    pending.push(PendingNoteOns.Entry(
                        eventIndex: events.count, tick: tick, velocity: data2),
                        key: Int(channel) << 7 | Int(data1))
                    events.append(MusicTrackEvent(timeStamp: time, event: .note(MIDINoteMessage(
                        channel: channel, note: data1, velocity: data2, duration: 0))))
                } else if kind == 0x80 || kind == 0x90 {
                    let release: UInt8 = kind == 0x80 ? data2 : 0
                    if let on = pending.pop(key: Int(channel) << 7 | Int(data1)) {
                        events[on.eventIndex].event = .note(MIDINoteMessage(
                            channel: channel, note: data1, velocity: on.velocity,
                            releaseVelocity: release,
                            duration: Double(tick &- on.tick) / ticksPerBeat))
                    } else {
                        events.append(MusicTrackEvent(timeStamp: time, event: .channel(
                            .noteOff(channel: channel, note: data1, velocity: release))))
                    }
                } else {
                    events.append(MusicTrackEvent(timeStamp: time, event: .channel(
                        MIDIChannelMessage(status: status, data1: data1, data2: data2))))
                }
                lastEventTick = tick
            } else if status == 0xFF {
                guard position < end else {
                    throw failure(position, "track \(index) ends inside a meta event; expected "
                        + "its type byte")
                }
                let type = bytes[position]
                position += 1
                let length = try readQuantity(
                    at: &position, end: end, track: index, of: "a meta event's length")
                guard length <= end - position else {
                    throw failure(position, "track \(index): meta event \(hex(type)) claims "
                        + "\(length) bytes, but only \(end - position) remain in the track")
                }
                if type == 0x2F {
                    endOfTrackTick = tick
                    break events
                }
                let meta = MIDIMetaEvent(
                    metaEventType: type, data: Array(bytes[position..<position + length]))
                position += length
                let event: MusicEvent = if convertsTempo, role != .plain,
                    case .tempo(let micros) = meta {
                    .tempo(ExtendedTempoEvent(bpm: 60_000_000 / Double(micros)))
                } else {
                    .meta(meta)
                }
                switch (role, meta) {
                case (.singleTrack, .tempo), (.singleTrack, .timeSignature),
                     (.singleTrack, .keySignature):
                    tempoEvents.append(MusicTrackEvent(timeStamp: time, event: event))
                default:
                    events.append(MusicTrackEvent(timeStamp: time, event: event))
                    lastEventTick = tick
                }
            } else if status == 0xF0 || status == 0xF7 {
                let length = try readQuantity(
                    at: &position, end: end, track: index, of: "a sysex event's length")
                guard length <= end - position else {
                    throw failure(position, "track \(index): sysex event claims \(length) bytes, "
                        + "but only \(end - position) remain in the track")
                }
                events.append(MusicTrackEvent(timeStamp: time, event: .sysex(MIDISysexEvent(
                    kind: status == 0xF0 ? .sysex : .escape,
                    data: Array(bytes[position..<position + length])))))
                position += length
                lastEventTick = tick
            } else {
                throw failure(position - 1, "track \(index): expected a status byte (0x80-0xEF, "
                    + "0xF0, 0xF7 or 0xFF), found \(hex(status))")
            }
        }

        let endTick = endOfTrackTick ?? lastEventTick
        for on in pending.remaining() {
            guard case .note(var note) = events[on.eventIndex].event else { continue }
            note.duration = Double(endTick &- on.tick) / ticksPerBeat
            events[on.eventIndex].event = .note(note)
            lastEventTick = endTick
        }
        let storedLength: MusicTimeStamp? =
            endTick > lastEventTick ? Double(endTick) / ticksPerBeat : nil
        return ParsedTrack(
            track: MusicTrack(sortedEvents: events, storedLength: storedLength),
            tempoEvents: tempoEvents)
    }
}
