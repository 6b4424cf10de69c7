@testable import AUHost
import Testing

/// Live `seek` takes positions within the song (issue 35: `seek 9223372036854775807` and
/// `seek 99999` on a one-bar song answered `ok` and left the song where nothing plays).
@Suite struct SeekBoundsTests {
    /// Two bars of 4/4 at 120 BPM: eight beats.
    static var song: MusicSequence {
        var sequence = MusicSequence()
        var track = MusicTrack()
        track.addMIDINoteEvent(at: 0, MIDINoteMessage(channel: 0, note: 60, velocity: 100, duration: 8))
        sequence.tracks = [track]
        return sequence
    }

    @Test("positions from the start to the end are taken; past the end, one error naming the last position", arguments: ["99999", "9223372036854775807", "3:1:1", "4"])
    func pastTheEndIsRefused(position: String) throws {
        let error = #expect(throws: AudioUnitError.self) { try LiveSong.beats(at: position, in: Self.song) }
        #expect(error?.message == "'\(position)' is past the song's end; expected a position from 1 to 3:1:0", "\(String(describing: error))")
    }

    @Test func positionsInTheSongAreTaken() throws {
        #expect(try LiveSong.beats(at: "1", in: Self.song) == 0)
        #expect(try LiveSong.beats(at: "2:3", in: Self.song) == 6)
        #expect(try LiveSong.beats(at: "3", in: Self.song) == 8)
    }
}
