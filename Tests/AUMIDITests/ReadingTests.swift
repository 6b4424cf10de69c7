import AUMIDI
import AUTestSupport
import Foundation
import Testing

/// Hand-written files read into beats, and their beats into seconds through the tempo map:
/// what the offline render plays at each frame. Also how a file is recognised as MIDI.
@Suite("Reading files: seconds, and recognising one")
struct ReadingTests {
    /// `track`'s events as (start, end) in seconds through `sequence`'s tempo map.
    func seconds(_ sequence: MusicSequence, track: Int) -> [[Double]] {
        sequence.tracks[track].events.map { [sequence.seconds(forBeats: $0.timeStamp), sequence.seconds(forBeats: $0.endTimeStamp)] }
    }

    @Test("format 0: running status, a velocity-0 note-off and a tempo change mid-track time every event")
    func formatZeroRunningStatusAndTempoChange() throws {
        let track: [UInt8] = [
            0x00, 0x90, 0x3C, 0x64,                    // tick 0: C4 on, 0 s
            0x83, 0x60, 0x3E, 0x5A,                    // tick 480, running status: D4 on at 0.5 s (120 BPM)
            0x00, 0xFF, 0x51, 0x03, 0x0F, 0x42, 0x40,  // 60 BPM from beat 1 on
            0x00, 0xF0, 0x03, 0x7E, 0x7F, 0xF7,        // sysex at beat 1
            0x83, 0x60, 0x90, 0x3C, 0x00,              // tick 960: velocity 0, C4 off at 1.5 s
            0x81, 0x70, 0xC0, 0x05,                    // tick 1200: program change, one data byte, at 2.0 s
            0x00, 0xFF, 0x2F, 0x00,
        ]
        let sequence = try MusicSequence.load(bytes: Fixtures.file(format: 0, division: [0x01, 0xE0], tracks: [track]))
        #expect(sequence.tracks.count == 1)
        #expect(sequence.tempoTrack.events == [MusicTrackEvent(timeStamp: 1, event: .tempo(ExtendedTempoEvent(bpm: 60)))])
        #expect(sequence.tracks[0].events == [
            MusicTrackEvent(timeStamp: 0, event: .note(MIDINoteMessage(channel: 0, note: 60, velocity: 100, duration: 2))),
            // Never released: it lasts to the end of the track.
            MusicTrackEvent(timeStamp: 1, event: .note(MIDINoteMessage(channel: 0, note: 62, velocity: 90, duration: 1.5))),
            MusicTrackEvent(timeStamp: 1, event: .sysex(MIDISysexEvent(kind: .sysex, data: [0x7E, 0x7F, 0xF7]))),
            MusicTrackEvent(timeStamp: 2.5, event: .channel(.programChange(channel: 0, program: 5))),
        ])
        #expect(seconds(sequence, track: 0) == [[0, 1.5], [0.5, 2], [0.5, 0.5], [2, 2]])
        #expect(sequence.seconds(forBeats: sequence.length) == 2)
    }

    /// Deltas of every length a variable-length quantity takes, at each length its smallest
    /// and largest value, with middle bytes of 0x80 and last bytes of 0x00.
    static let deltas: [(bytes: [UInt8], ticks: Int)] = [
        ([0x00], 0), ([0x7F], 127),
        ([0x81, 0x00], 128), ([0xFF, 0x7F], 16_383),
        ([0x81, 0x80, 0x00], 16_384), ([0xC0, 0x80, 0x01], 1_048_577), ([0xFF, 0xFF, 0x7F], 2_097_151),
        ([0x81, 0x80, 0x80, 0x00], 2_097_152), ([0x81, 0x80, 0x80, 0x7F], 2_097_279), ([0xFF, 0xFF, 0xFF, 0x7F], 268_435_455),
    ]

    @Test("a delta of each variable-length quantity length, with middle bytes 0x80 (81 80 00 is 16,384 ticks), reads to its tick")
    func everyQuantityLength() throws {
        // A program change after each delta, its program the delta's index.
        let track: [UInt8] = Self.deltas.enumerated().flatMap { index, delta -> [UInt8] in delta.bytes + [0xC0, UInt8(index)] } + [0x00, 0xFF, 0x2F, 0x00]
        let sequence = try MusicSequence.load(bytes: Fixtures.file(format: 0, division: [0x01, 0xE0], tracks: [track]))
        var tick = 0
        let expected = Self.deltas.enumerated().map { index, delta in
            tick += delta.ticks
            return MusicTrackEvent(timeStamp: Double(tick) / 480, event: .channel(.programChange(channel: 0, program: UInt8(index))))
        }
        #expect(sequence.tracks.count == 1)
        #expect(sequence.tracks.first?.events == expected)
    }

    @Test("format 1: the tempo track's tempo times the other tracks")
    func formatOneTempoTrackTimesTheOthers() throws {
        let tempo: [UInt8] = [0x00, 0xFF, 0x51, 0x03, 0x03, 0xD0, 0x90, 0x00, 0xFF, 0x2F, 0x00]  // 240 BPM: a beat is 0.25 s
        let first: [UInt8] = [0x60, 0x91, 40, 80, 0x60, 0x81, 40, 0, 0x00, 0xFF, 0x2F, 0x00]
        let second: [UInt8] = [0x60, 0x92, 50, 80, 0x30, 0x82, 50, 0, 0x00, 0xFF, 0x2F, 0x00]
        let sequence = try MusicSequence.load(bytes: Fixtures.file(format: 1, division: [0x00, 0x60], tracks: [tempo, first, second]))
        #expect(sequence.tracks.count == 2)
        #expect(sequence.tempoMap.bpm(atBeats: 0) == 240)
        #expect(seconds(sequence, track: 0) == [[0.25, 0.5]])
        #expect(seconds(sequence, track: 1) == [[0.25, 0.375]])
        #expect(sequence.tempoMap.sampleFrame(forBeats: sequence.tracks[1].events[0].endTimeStamp, sampleRate: 48_000) == 18_000)
        #expect(sequence.seconds(forBeats: sequence.length) == 0.5)
    }

    @Test("SMPTE division: 25 frames of 40 ticks is a millisecond a tick")
    func smpteDivisionTiming() throws {
        let track: [UInt8] = [0x83, 0x74, 0x90, 64, 64, 0x81, 0x7A, 0x80, 64, 0, 0x00, 0xFF, 0x2F, 0x00]  // 500 ticks, then 250
        let sequence = try MusicSequence.load(bytes: Fixtures.file(format: 0, division: [0xE7, 0x28], tracks: [track]))
        #expect(seconds(sequence, track: 0) == [[0.5, 0.75]])
        #expect(sequence.seconds(forBeats: sequence.length) == 0.75)
    }

    @Test("a file is MIDI by its MThd header, whatever its name; a missing path or a folder is not")
    func recognisesMIDIFilesByTheirHeader() throws {
        let folder = try TemporaryFolder(prefix: "aumidi")
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("folder.mid"), withIntermediateDirectories: true)
        try Data(Fixtures.file(format: 0, tracks: [[0x00, 0xFF, 0x2F, 0x00]])).write(to: URL(fileURLWithPath: folder.file("song.bin")))
        try Data("RIFF".utf8).write(to: URL(fileURLWithPath: folder.file("song.mid")))
        try Data("MTh".utf8).write(to: URL(fileURLWithPath: folder.file("short.mid")))
        #expect(MusicSequence.isStandardMIDIFile(atPath: folder.file("song.bin")))
        #expect(!MusicSequence.isStandardMIDIFile(atPath: folder.file("song.mid")))
        #expect(!MusicSequence.isStandardMIDIFile(atPath: folder.file("short.mid")))
        #expect(!MusicSequence.isStandardMIDIFile(atPath: folder.file("missing.mid")))
        #expect(!MusicSequence.isStandardMIDIFile(atPath: folder.file("folder.mid")))
    }
}
