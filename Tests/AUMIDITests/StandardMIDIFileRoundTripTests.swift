import AUMIDI
import AUTestSupport
import Foundation
import Testing

@Suite("Standard MIDI File round trips")
struct StandardMIDIFileRoundTripTests {
    @Test("format 1 with every event kind reads back as written, and rewrites byte for byte")
    func formatOneEveryKind() throws {
        let sequence = Fixtures.everyKindSequence()
        let bytes = try sequence.fileBytes(format: .multipleTracks)
        #expect(Array(bytes[8..<14]) == [0, 1, 0, 3, 0x01, 0xE0])
        let read = try MusicSequence.load(bytes: bytes)
        #expect(read.tracks.count == 2)
        #expect(read.tempoTrack == sequence.tempoTrack)
        #expect(read.tracks[0] == sequence.tracks[0])
        #expect(read.tracks[1] == sequence.tracks[1])
        #expect(read == sequence)
        #expect(read.tracks[0].length == 40)
        #expect(try read.fileBytes(format: .multipleTracks) == bytes)
    }

    @Test("running status on writing makes a smaller file that reads the same")
    func runningStatusWriting() throws {
        let sequence = Fixtures.everyKindSequence()
        let plain = try sequence.fileBytes()
        let compact = try sequence.fileBytes(runningStatus: true)
        #expect(compact.count < plain.count)
        #expect(try MusicSequence.load(bytes: compact) == sequence)
    }

    @Test("format 0 keeps one track and splits tempo, time and key signatures off")
    func formatZero() throws {
        let sequence = Fixtures.singleTrackSequence()
        let bytes = try sequence.fileBytes(format: .singleTrack)
        #expect(Array(bytes[8..<12]) == [0, 0, 0, 1])
        let read = try MusicSequence.load(bytes: bytes)
        #expect(read == sequence)
        #expect(read.division == .ticksPerQuarterNote(96))
        #expect(try read.fileBytes(format: .singleTrack) == bytes)
    }

    @Test("format 2 keeps independent tracks with their own tempo metas")
    func formatTwo() throws {
        let sequence = Fixtures.independentSequence()
        let bytes = try sequence.fileBytes(format: .independentTracks)
        #expect(Array(bytes[8..<12]) == [0, 2, 0, 3])
        let read = try MusicSequence.load(bytes: bytes)
        #expect(read == sequence)
        #expect(read.tempoTrack.isEmpty)
        #expect(read.tracks[2].events[1].event == .meta(.tempo(microsecondsPerQuarterNote: 600_000)))
    }

    @Test("user events and end-of-track events in a track are not written")
    func userEventsAreNotWritten() throws {
        var sequence = MusicSequence()
        var track = MusicTrack()
        track.addUserEvent(at: 1, MusicUserEvent(data: [1, 2, 3]))
        track.addMetaEvent(at: 1, .endOfTrack)
        track.addMIDIChannelEvent(at: 2, .programChange(channel: 0, program: 1))
        sequence.tracks = [track]
        let read = try MusicSequence.load(bytes: try sequence.fileBytes())
        #expect(read.tracks[0].events == [MusicTrackEvent(
            timeStamp: 2, event: .channel(.programChange(channel: 0, program: 1)))])
    }

    @Test("files on disk: write(to:) and init(contentsOf:) round trip; an existing file is kept unless overwrite; a missing file errs")
    func filesOnDisk() throws {
        let folder = try TemporaryFolder(prefix: "aumidi")
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("round-trip.mid")
        let sequence = Fixtures.everyKindSequence()
        try sequence.write(to: url.path)
        #expect(try MusicSequence(contentsOf: url) == sequence)
        let again = #expect(throws: MIDIFileError.self) { try MusicSequence().write(to: url.path) }
        #expect(again?.description == "\(url.path): already exists; pass overwrite (--force) to replace it")
        #expect(try MusicSequence(contentsOf: url) == sequence, "the refused write left the file as it was")
        try MusicSequence().write(to: url.path, overwrite: true)
        #expect(try MusicSequence(contentsOf: url) == MusicSequence())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["round-trip.mid"], "no temporary file left")
        let missing = folder.url.appendingPathComponent("missing.mid")
        #expect(throws: MIDIFileError.self) { try MusicSequence(contentsOf: missing) }
    }

    @Test("hand-written running status: notes, velocity-0 note-offs, CCs, program changes")
    func runningStatusReading() throws {
        let track: [UInt8] = [
            0x00, 0x90, 0x3C, 0x40,  // note-on C4
            0x00, 0x40, 0x41,        // running: note-on E4
            0x60, 0x3C, 0x00,        // tick 96: C4 off (velocity 0)
            0x00, 0x40, 0x00,        // E4 off
            0x00, 0xB0, 0x07, 0x64,  // CC 7 = 100
            0x30, 0x0A, 0x20,        // tick 144: running CC 10 = 32
            0x00, 0xC1, 0x05,        // program 5, channel 1
            0x10, 0x06,              // tick 160: running program 6
            0x00, 0x80, 0x3C, 0x12,  // an unpaired note-off stays a channel message
            0x00, 0xFF, 0x2F, 0x00,
        ]
        let sequence = try MusicSequence.load(
            bytes: Fixtures.file(format: 1, division: [0x00, 0x60], tracks: [[0x00, 0xFF, 0x2F, 0x00], track]))
        let events = sequence.tracks[0].events
        #expect(events == [
            MusicTrackEvent(timeStamp: 0, event: .note(MIDINoteMessage(
                channel: 0, note: 0x3C, velocity: 0x40, releaseVelocity: 0, duration: 1))),
            MusicTrackEvent(timeStamp: 0, event: .note(MIDINoteMessage(
                channel: 0, note: 0x40, velocity: 0x41, releaseVelocity: 0, duration: 1))),
            MusicTrackEvent(timeStamp: 1, event: .channel(.controlChange(channel: 0, controller: 7, value: 100))),
            MusicTrackEvent(timeStamp: 1.5, event: .channel(.controlChange(channel: 0, controller: 10, value: 32))),
            MusicTrackEvent(timeStamp: 1.5, event: .channel(.programChange(channel: 1, program: 5))),
            MusicTrackEvent(timeStamp: 160.0 / 96, event: .channel(.programChange(channel: 1, program: 6))),
            MusicTrackEvent(timeStamp: 160.0 / 96, event: .channel(.noteOff(channel: 0, note: 0x3C, velocity: 0x12))),
        ])
        #expect(try MusicSequence.load(bytes: try sequence.fileBytes()) == sequence)
    }

    @Test("an unpaired note-on lasts to the end of its track; overlapping same keys pair first in, first out")
    func unpairedAndOverlappingNotes() throws {
        let track: [UInt8] = [
            0x00, 0x90, 0x3C, 0x40,  // C4 on at 0
            0x60, 0x90, 0x3C, 0x50,  // C4 on again at 1
            0x60, 0x80, 0x3C, 0x00,  // off at 2: ends the first
            0x00, 0x91, 0x30, 0x7F,  // channel 1 key 48 on at 2, never released
            0x81, 0x40, 0xFF, 0x2F, 0x00,  // end of track at 2 + 192 ticks = 4
        ]
        let sequence = try MusicSequence.load(
            bytes: Fixtures.file(format: 0, division: [0x00, 0x60], tracks: [track]))
        let notes = sequence.tracks[0].events.compactMap { trackEvent -> MIDINoteMessage? in
            if case .note(let note) = trackEvent.event { return note }
            return nil
        }
        #expect(notes.map(\.duration) == [2, 3, 2])
        #expect(notes.map(\.velocity) == [0x40, 0x50, 0x7F])
        #expect(sequence.tracks[0].length == 4)
    }

    @Test("SMPTE division is read, timed at 120 BPM beats, and written back")
    func smpteDivision() throws {
        let track: [UInt8] = [
            0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20,  // a tempo meta stays a meta event
            0x87, 0x68, 0x90, 0x3C, 0x40,              // tick 1000 = 1 s: note-on
            0x83, 0x74, 0x80, 0x3C, 0x00,              // 500 ticks later: note-off
            0x00, 0xFF, 0x2F, 0x00,
        ]
        let bytes = Fixtures.file(format: 1, division: [0xE7, 0x28], tracks: [track])  // -25 fps, 40
        let sequence = try MusicSequence.load(bytes: bytes)
        #expect(sequence.division == .smpte(framesPerSecond: 25, ticksPerFrame: 40))
        #expect(sequence.tempoTrack.events[0].event == .meta(.tempo(microsecondsPerQuarterNote: 500_000)))
        #expect(sequence.tempoTrack.events[1].timeStamp == 2)
        #expect(sequence.tempoTrack.events[1].event.duration == 1)
        #expect(sequence.seconds(forBeats: sequence.tempoTrack.events[1].timeStamp) == 1)
        let written = try sequence.fileBytes()
        #expect(Array(written[12..<14]) == [0xE7, 0x28])
        #expect(written == bytes)
        #expect(try MusicSequence.load(bytes: written) == sequence)
    }
}
