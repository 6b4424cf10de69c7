import AUCore
import AUEngine
import AUMIDI
import AUMusicPlayer
import AUTestSupport
import Foundation
import Testing

/// The player's work per event does not grow with the notes sounding nor with the tracks
/// (issue 35: a million notes at one tick stalled each loop pass for seconds in a linear
/// scan of the pending note-offs; 65,534 tracks took 41 s for 0.5 s of song, a scan of
/// every track per event). Both songs here took well over a minute before; the bound is
/// generous. The note-offs also still come in time order.
@Suite("MusicPlayer: scale")
struct PlayerScaleTests {
    /// Plays `sequence` into one recorder for `frames` frames in blocks of 1024 and returns
    /// the seconds it took and what the recorder got.
    static func play(_ sequence: MusicSequence, frames: Int) throws -> (seconds: Double, received: [MIDIRecorder.Received]) {
        let recorder = MIDIRecorder()
        let graph = AudioGraph(registry: ComponentRegistry(providers: [BuiltinUnits()]))
        defer { graph.dispose() }
        let node = try graph.addNode(recorder)
        let output = try graph.addNode(ComponentDescription(type: "auou", subtype: "genr", manufacturer: BuiltinUnits.manufacturer))
        try graph.connect(node, to: output)
        try graph.initialize()
        let player = MusicPlayer()
        try player.setAUGraph(graph, sampleRate: 48_000)
        var sequence = sequence
        for index in sequence.tracks.indices { sequence.tracks[index].destination = .node(node) }
        player.setSequence(sequence)
        try player.start()
        let buffers = OwnedAudioBuffers(channels: 2, capacity: 1024)
        let started = ContinuousClock.now
        var done = 0
        while done < frames {
            let status = graph.render(frameCount: 1024, timestamp: RenderTimestamp(sampleTime: Double(done)), output: buffers.buffers(frameCount: 1024))
            try #require(status == 0)
            done += 1024
        }
        let elapsed = ContinuousClock.now - started
        player.stop()
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18, recorder.received)
    }

    @Test("200,000 notes at one tick with 4,096 sounding: the note-offs come in time order, and fast")
    func manyNotesAtOneTick() throws {
        var track = MusicTrack()
        let count = TestLength.choose(short: 200_000, long: 1_000_000)
        for index in 0..<count {
            track.addMIDINoteEvent(at: 0, MIDINoteMessage(channel: 0, note: UInt8(index % 128), velocity: 100, duration: 0.001 + Double(index % 4096) / 4096))
        }
        var sequence = MusicSequence()
        sequence.tracks = [track]
        let (seconds, received) = try Self.play(sequence, frames: 48_000)
        #expect(seconds < 20, "\(seconds) s to play \(count) notes")
        let offs = received.filter { $0.status == 0x80 && $0.frame > 0 }
        #expect(!offs.isEmpty)
        #expect(zip(offs, offs.dropFirst()).allSatisfy { $0.frame <= $1.frame }, "note-offs out of time order")
    }

    @Test("65,534 tracks of one note each play in time proportional to their events")
    func manyTracks() throws {
        var sequence = MusicSequence()
        for index in 0..<65_534 {
            var track = MusicTrack()
            track.addMIDINoteEvent(at: Double(index % 1000) / 1000, MIDINoteMessage(channel: 0, note: 60, velocity: 100, duration: 0.1))
            sequence.tracks.append(track)
        }
        let (seconds, received) = try Self.play(sequence, frames: 48_000)
        #expect(seconds < 20, "\(seconds) s to play 65,534 tracks")
        let ons = received.filter { $0.status == 0x90 }
        #expect(!ons.isEmpty && zip(ons, ons.dropFirst()).allSatisfy { $0.frame <= $1.frame }, "note-ons out of time order")
    }
}
