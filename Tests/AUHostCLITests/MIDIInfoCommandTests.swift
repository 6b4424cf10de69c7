import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Testing

/// `auhost midi info`: a multi-track file written with AUMIDI (two tracks with names,
/// channels and programs, a tempo change and a meter change) is described track by track,
/// with its tempo and time-signature maps and its length in beats, bars and seconds; bad
/// files and arguments are one clear error each.
@Suite struct MIDIInfoCommandTests {
    /// Track 1 'Lead' on channel 1 (program 1, then 5), track 2 'Bass' on channel 2
    /// (program 34); 120 BPM and 4/4, then 60 BPM and 3/4 from beat 8 (bar 3); 11 beats long.
    static func song(in folder: TemporaryFolder) throws -> String {
        var sequence = MusicSequence()
        sequence.tempoTrack.addExtendedTempoEvent(at: 0, bpm: 120)
        sequence.tempoTrack.addMetaEvent(at: 0, .timeSignature(MIDITimeSignature(numerator: 4, denominatorPower: 2)))
        sequence.tempoTrack.addExtendedTempoEvent(at: 8, bpm: 60)
        sequence.tempoTrack.addMetaEvent(at: 8, .timeSignature(MIDITimeSignature(numerator: 3, denominatorPower: 2)))
        let lead = sequence.newTrack(), bass = sequence.newTrack()
        sequence.tracks[lead].addMetaEvent(at: 0, .text(.trackName, string: "Lead"))
        sequence.tracks[lead].addMIDIChannelEvent(at: 0, .programChange(channel: 0, program: 0))
        sequence.tracks[lead].addMIDIChannelEvent(at: 4, .programChange(channel: 0, program: 4))
        for beat in 0..<10 {
            sequence.tracks[lead].addMIDINoteEvent(at: Double(beat), MIDINoteMessage(channel: 0, note: 60, velocity: 100, releaseVelocity: 0, duration: 1))
        }
        sequence.tracks[lead].addMIDINoteEvent(at: 10, MIDINoteMessage(channel: 0, note: 62, velocity: 100, releaseVelocity: 0, duration: 1))
        sequence.tracks[bass].addMetaEvent(at: 0, .text(.trackName, string: "Bass"))
        sequence.tracks[bass].addMIDIChannelEvent(at: 0, .programChange(channel: 1, program: 33))
        sequence.tracks[bass].addMIDINoteEvent(at: 0, MIDINoteMessage(channel: 1, note: 36, velocity: 90, releaseVelocity: 0, duration: 4))
        let path = folder.file("song.mid")
        try sequence.write(to: path)
        return path
    }

    @Test func describesTracksTempoMeterAndLength() throws {
        let folder = try TemporaryFolder(prefix: "auhost-midi-info")
        defer { folder.remove() }
        let path = try Self.song(in: folder)
        let result = runCLI("midi", "info", path)
        #expect(result.status == 0, "\(result.errors)")
        // 8 beats at 120 BPM (4 s), then 3 at 60 (3 s); bars 1-2 of 4/4 and one of 3/4.
        #expect(result.output == """
            \(path): format 1, 480 ticks per quarter note
              length:  11 beats, 3.00 bars, 7.000 s
              tempo:   120 BPM at 1:1:0 (0.000 s), 60 BPM at 3:1:0 (4.000 s)
              meter:   4/4 from bar 1, 3/4 from bar 3
              tracks:  2
                1: 'Lead', channel 1, programs 1: 1,5, 11 notes, 2 other channel messages, 1 meta, 0 sysex
                2: 'Bass', channel 2, programs 2: 34, 1 notes, 1 other channel messages, 1 meta, 0 sysex

            """)
    }

    @Test func theJSONHasTheDocumentedKeys() throws {
        let folder = try TemporaryFolder(prefix: "auhost-midi-info")
        defer { folder.remove() }
        let result = runCLI("midi", "info", try Self.song(in: folder), "--json")
        #expect(result.status == 0, "\(result.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["format", "division", "tracks", "tempos", "timeSignatures", "lengthBeats", "lengthBars", "lengthSeconds"])
        #expect(object["lengthSeconds"] as? Double == 7)
        let tracks = try #require(object["tracks"] as? [[String: Any]])
        #expect(tracks.map { $0["name"] as? String } == ["Lead", "Bass"])
        #expect(tracks[1]["channels"] as? [Int] == [2])
        let tempos = try #require(object["tempos"] as? [[String: Any]])
        #expect(tempos.map { $0["bpm"] as? Double } == [120, 60])
    }

    @Test func aMalformedFileIsOneErrorNamingTheByte() throws {
        let folder = try TemporaryFolder(prefix: "auhost-midi-info")
        defer { folder.remove() }
        let path = folder.file("cut.mid")
        // A header, then a track of 3 bytes that ends inside a note-on (its velocity missing).
        let bytes: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 1, 0xE0] + Array("MTrk".utf8) + [0, 0, 0, 3, 0x00, 0x90, 0x3C]
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = runCLI("midi", "info", path)
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.errors.hasPrefix("auhost: \(path): byte "), "\(result.errors)")
        #expect(result.errors.split(separator: "\n").count == 1, "\(result.errors)")
        let missing = runCLI("midi", "info", folder.file("none.mid"))
        #expect(missing.status == 1 && missing.errors.contains("none.mid: no such file; expected a Standard MIDI File (.mid)"), "\(missing.errors)")
        let device = runCLI("midi", "info", "/dev/null")
        #expect(device.errors == "auhost: /dev/null: is a character device, not a file; expected a Standard MIDI File (.mid)\n")
        let usage = runCLI("midi", "play", path)
        #expect(usage.status == 64 && usage.errors.contains("midi takes 'info', not 'play'"), "\(usage.errors)")
    }
}
