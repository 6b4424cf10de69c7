import AUCore
import AUFiles
import Foundation
import Testing

/// Builds Standard MIDI Files byte by byte for the tests.
enum SMF {
    static func variableLength(_ value: Int) -> [UInt8] {
        var bytes = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest > 0 {
            bytes.insert(UInt8(0x80 | rest & 0x7F), at: 0)
            rest >>= 7
        }
        return bytes
    }

    /// A track of (delta ticks, event bytes), ended by an end-of-track event.
    static func track(_ events: [(Int, [UInt8])]) -> [UInt8] {
        var body: [UInt8] = []
        for (delta, bytes) in events { body += variableLength(delta) + bytes }
        body += [0x00, 0xFF, 0x2F, 0x00]
        return Array("MTrk".utf8) + be32(body.count) + body
    }

    static func file(format: Int, division: Int, tracks: [[UInt8]]) -> Data {
        var bytes: [UInt8] = Array("MThd".utf8) + be32(6) + be16(format) + be16(tracks.count) + be16(division)
        for track in tracks { bytes += track }
        return Data(bytes)
    }

    static func tempo(_ microsecondsPerQuarter: Int) -> [UInt8] {
        [0xFF, 0x51, 0x03, UInt8(microsecondsPerQuarter >> 16 & 0xFF), UInt8(microsecondsPerQuarter >> 8 & 0xFF), UInt8(microsecondsPerQuarter & 0xFF)]
    }

    static func be32(_ value: Int) -> [UInt8] { [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
}

@Suite struct StandardMIDIFileTests {
    /// Format 0 with running status, a note-on of velocity 0, a tempo change half-way and a
    /// system exclusive message that is skipped: times follow the tempo map exactly.
    @Test func formatZeroWithRunningStatusAndATempoChange() throws {
        let data = SMF.file(format: 0, division: 480, tracks: [SMF.track([
            (0, [0x90, 60, 100]),          // 0 s
            (480, [62, 90]),               // running status: note-on 62 at 0.5 s (120 BPM)
            (0, SMF.tempo(1_000_000)),     // 60 BPM from 1 quarter on
            (0, [0xF0, 0x03, 0x7E, 0x7F, 0xF7]),
            (480, [0x90, 60, 0]),          // velocity 0: a note-off at 1.5 s
            (240, [0xC0, 5]),              // program change: one data byte, at 2.0 s
        ])])
        let song = try StandardMIDIFile(data: data, path: "test.mid")
        #expect(song.format == 0 && song.trackCount == 1)
        #expect(song.events.map(\.seconds) == [0, 0.5, 1.5, 2.0])
        #expect(song.events.map(\.status) == [0x90, 0x90, 0x80, 0xC0])
        #expect(song.events.map(\.data1) == [60, 62, 60, 5])
        #expect(song.events[1].data2 == 90)
        #expect(song.duration == 2.0)
    }

    /// Format 1: the tempo track and two note tracks merge in time order (ties keep track
    /// order), and the tempo of track 1 applies to the others.
    @Test func formatOneTracksMergeInTimeOrder() throws {
        let data = SMF.file(format: 1, division: 96, tracks: [
            SMF.track([(0, SMF.tempo(250_000))]),                      // 240 BPM: a quarter is 0.25 s
            SMF.track([(96, [0x91, 40, 80]), (96, [0x81, 40, 0])]),
            SMF.track([(96, [0x92, 50, 80]), (48, [0x82, 50, 0])]),
        ])
        let song = try StandardMIDIFile(data: data, path: "test.mid")
        #expect(song.format == 1 && song.trackCount == 3)
        #expect(song.events.map(\.seconds) == [0.25, 0.25, 0.375, 0.5])
        #expect(song.events.map(\.status) == [0x91, 0x92, 0x82, 0x81])
        #expect(song.duration == 0.5)
    }

    /// SMPTE division: 25 frames per second, 40 ticks per frame is one millisecond a tick.
    @Test func smpteDivision() throws {
        let division = Int(UInt8(bitPattern: -25)) << 8 | 40
        let data = SMF.file(format: 0, division: division, tracks: [SMF.track([(500, [0x90, 64, 64]), (250, [0x80, 64, 0])])])
        let song = try StandardMIDIFile(data: data, path: "test.mid")
        #expect(song.events.map(\.seconds) == [0.5, 0.75])
    }

    @Test(arguments: [
        (Data("RIFF0000WAVE".utf8), "not a Standard MIDI File"),
        (SMF.file(format: 2, division: 96, tracks: [SMF.track([])]), "format 2 MIDI files"),
        (SMF.file(format: 0, division: 96, tracks: []), "no MTrk track"),
        (SMF.file(format: 0, division: 96, tracks: [Array(SMF.track([(0, [0x90, 60, 100])]).dropLast(6))]), "declares"),
        (SMF.file(format: 0, division: 96, tracks: [SMF.track([(0, [60, 100])])]), "no running status"),
        (SMF.file(format: 0, division: 96, tracks: [SMF.track([(0, [0x90, 200, 100])])]), "data byte above 127"),
        (SMF.file(format: 0, division: 0, tracks: [SMF.track([])]), "time division is 0"),
    ])
    func malformedFilesAreOneClearError(data: Data, message: String) {
        let error = #expect(throws: AudioUnitError.self) { try StandardMIDIFile(data: data, path: "bad.mid") }
        #expect(error?.message.hasPrefix("bad.mid: ") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "") should say \(message)")
    }

    @Test func recognisesMIDIFilesByTheirHeader() throws {
        let folder = NSTemporaryDirectory() + "auhost-smf-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SMF.file(format: 0, division: 96, tracks: [SMF.track([])]).write(to: URL(fileURLWithPath: folder + "/song.bin"))
        try Data("RIFF".utf8).write(to: URL(fileURLWithPath: folder + "/song.mid"))
        #expect(StandardMIDIFile.isMIDIFile(folder + "/song.bin"))
        #expect(!StandardMIDIFile.isMIDIFile(folder + "/song.mid"))
        #expect(!StandardMIDIFile.isMIDIFile(folder + "/missing.mid"))
    }
}
