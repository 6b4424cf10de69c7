@testable import AUMIDI
import Testing

@Suite("Malformed files")
struct MalformedFileTests {
    /// The error reading `bytes` as `song.mid`, or nil if it reads.
    func error(_ bytes: [UInt8]) -> MIDIFileError? {
        do {
            _ = try MusicSequence.load(bytes: bytes, path: "song.mid")
            return nil
        } catch {
            return error
        }
    }

    func expectError(_ bytes: [UInt8], offset: Int, _ text: String,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        let found = error(bytes)
        #expect(found?.path == "song.mid", sourceLocation: sourceLocation)
        #expect(found?.offset == offset, "\(String(describing: found))", sourceLocation: sourceLocation)
        #expect(found?.message.contains(text) == true, "\(String(describing: found))",
                sourceLocation: sourceLocation)
    }

    /// A format-1 file of one track holding `body`.
    func oneTrack(_ body: [UInt8]) -> [UInt8] { Fixtures.file(tracks: [body]) }

    @Test("a truncated header, an empty file")
    func truncatedHeader() {
        expectError([0x4D, 0x54, 0x68, 0x64, 0, 0, 0, 6, 0, 1], offset: 10,
                    "the file ends inside the header; expected 14 header bytes")
        expectError([], offset: 0, "found 0")
    }

    @Test("wrong magic")
    func wrongMagic() {
        expectError(Array("RIFF\0\0\0\u{6}\0\u{1}\0\u{1}\0\u{60}".utf8), offset: 0,
                    "expected \"MThd\" (a Standard MIDI File header), found 0x52 0x49 0x46 0x46")
    }

    @Test("a track that ends inside an event, with the message in full")
    func trackEndsInsideEvent() {
        let found = error(oneTrack([0x00, 0x90]))
        #expect(found?.description
            == "song.mid: byte 24: track 0 ends inside an event; expected 2 more bytes of a note-on")
        expectError(oneTrack([0x00, 0xB0, 0x07]), offset: 25,
                    "track 0 ends inside an event; expected 1 more byte of a control change")
        expectError(oneTrack([0x81]), offset: 23, "track 0 ends inside a delta time")
        expectError(oneTrack([0x00]), offset: 23, "ends after a delta time; expected an event")
        expectError(oneTrack([0x00, 0xFF]), offset: 24, "expected its type byte")
    }

    @Test("a variable-length quantity longer than 4 bytes")
    func quantityTooLong() {
        expectError(oneTrack([0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x90, 0x3C, 0x40]), offset: 22,
                    "a delta time as a variable-length quantity of at most 4 bytes")
        expectError(oneTrack([0x00, 0xFF, 0x01, 0x80, 0x80, 0x80, 0x80, 0x01]), offset: 25,
                    "a meta event's length as a variable-length quantity of at most 4 bytes")
    }

    @Test("running status with no previous status")
    func runningStatusWithoutStatus() {
        expectError(oneTrack([0x00, 0x3C, 0x40]), offset: 23,
                    "expected a status byte, found data byte 0x3C with no running status")
    }

    @Test("a huge track count with a tiny file allocates nothing large and errs")
    func hugeTrackCount() {
        expectError(Fixtures.file(trackCount: 65535, tracks: []), offset: 14,
                    "expected 65535 track chunks, found the end of the file after 0")
        expectError(Fixtures.file(trackCount: 65535, tracks: [[0x00, 0xFF, 0x2F, 0x00]]), offset: 26,
                    "found the end of the file after 1")
        // What the reader reserves for those files' tracks: what their bytes can hold, not 65,535.
        #expect(StandardMIDIFileReader.trackReserve(declared: 65535, bytesLeft: 0) == 0)
        #expect(StandardMIDIFileReader.trackReserve(declared: 65535, bytesLeft: 12) == 1)
        #expect(StandardMIDIFileReader.trackReserve(declared: 2, bytesLeft: 1_000) == 2)
    }

    @Test("a format-0 file without its one track")
    func formatZeroWithoutItsTrack() {
        expectError(Fixtures.file(format: 0, trackCount: 0, tracks: []), offset: 10,
                    "expected 1 track in a format-0 file, found a count of 0")
        expectError(Fixtures.file(format: 0, trackCount: 1, tracks: []), offset: 14,
                    "expected 1 track chunks, found the end of the file after 0")
        // An unknown chunk is skipped; it is not the track.
        expectError(Fixtures.file(format: 0, trackCount: 1, tracks: []) + Array("XFIH".utf8) + [0, 0, 0, 1, 9],
                    offset: 23, "expected 1 track chunks, found the end of the file after 0")
    }

    @Test("a chunk length past the end of the file")
    func chunkLengthPastEnd() {
        var bytes = oneTrack([0x00, 0xFF, 0x2F, 0x00])
        bytes[19] = 0x01  // length 0x00010004
        expectError(bytes, offset: 18, "chunk \"MTrk\" claims 65540 bytes, but only 4 remain")
        var header = bytes
        header[4] = 0x7F
        expectError(header, offset: 4, "the header claims")
    }

    @Test("a meta or sysex length past the end of the track")
    func metaLengthPastEnd() {
        expectError(oneTrack([0x00, 0xFF, 0x03, 0x7F, 0x41]), offset: 26,
                    "meta event 0x03 claims 127 bytes, but only 1 remain in the track")
        expectError(oneTrack([0x00, 0xF0, 0x05, 0x7E]), offset: 25,
                    "sysex event claims 5 bytes, but only 1 remain")
    }

    @Test("bad header fields, bad status and data bytes")
    func badFields() {
        expectError(Fixtures.file(format: 3, tracks: []), offset: 8, "expected format 0, 1 or 2, found 3")
        expectError(Fixtures.file(format: 0, trackCount: 2, tracks: []), offset: 10, "expected 1 track")
        expectError(Fixtures.file(division: [0, 0], tracks: []), offset: 12, "nonzero number of ticks")
        expectError(Fixtures.file(division: [0xE0, 4], tracks: []), offset: 12, "found -32")
        expectError(Fixtures.file(division: [0xE8, 0], tracks: []), offset: 13, "ticks per SMPTE frame")
        var shortHeader = Fixtures.file(tracks: [])
        shortHeader[7] = 2
        expectError(shortHeader, offset: 4, "header length of at least 6, found 2")
        expectError(oneTrack([0x00, 0x90, 0x3C, 0x90]), offset: 25,
                    "expected a data byte (0x00-0x7F) of a note-on, found 0x90")
        expectError(oneTrack([0x00, 0xF8]), offset: 23, "found 0xF8")
    }

    @Test("unknown chunks are skipped; a missing end-of-track ends at the last event")
    func unknownChunksAndMissingEnd() throws {
        var bytes = Fixtures.file(tracks: [])
        bytes[11] = 2
        bytes += Array("XFIH".utf8) + [0, 0, 0, 3, 1, 2, 3]
        bytes += Array("MTrk".utf8) + [0, 0, 0, 4, 0x00, 0xFF, 0x2F, 0x00]
        bytes += Array("MTrk".utf8) + [0, 0, 0, 5, 0x60, 0xC0, 0x01, 0x00, 0x02]
        let sequence = try MusicSequence.load(bytes: bytes)
        #expect(sequence.tracks.count == 1)
        #expect(sequence.tracks[0].events.map(\.timeStamp) == [0.2, 0.2])
    }
}
