import AUCore
import AUEngine
import AUMIDI
import AUMusicPlayer

/// The song alloc-check's MusicPlayer plays into the check graph while the control thread
/// seeks, stops, starts and changes its rate: sixteenth notes over three tempos (track 1
/// to the instrument, or the graph's MIDI input without one; track 2 to the graph's MIDI
/// output), a looping track, a loop range that wraps every few seconds, MIDI clock out, and
/// the transport published to every unit.
/// - Thread: [control]
enum CheckSong {
    static func sequence(instrument: GraphNode?) -> MusicSequence {
        var sequence = MusicSequence()
        sequence.tempoTrack.addExtendedTempoEvent(at: 0, bpm: 120)
        sequence.tempoTrack.addExtendedTempoEvent(at: 5, bpm: 97)
        sequence.tempoTrack.addExtendedTempoEvent(at: 11, bpm: 173)
        sequence.tempoTrack.addMetaEvent(at: 8, .timeSignature(MIDITimeSignature(numerator: 7, denominatorPower: 3)))
        var lead = MusicTrack(), out = MusicTrack(), loop = MusicTrack()
        for step in 0..<64 {
            let beat = Double(step) / 4
            lead.addMIDINoteEvent(at: beat, MIDINoteMessage(channel: 0, note: UInt8(48 + step % 24), velocity: 90, duration: 0.2 + Double(step % 5) * 0.3))
            out.addMIDIChannelEvent(at: beat + 0.1, MIDIChannelMessage(status: 0xB1, data1: 74, data2: UInt8(step * 2 % 128)))
        }
        loop.addMIDINoteEvent(at: 0, MIDINoteMessage(channel: 2, note: 36, velocity: 100, duration: 0.5))
        loop.addMIDINoteEvent(at: 1.5, MIDINoteMessage(channel: 2, note: 38, velocity: 100, duration: 0.25))
        loop.loopInfo = MusicTrackLoopInfo(loopDuration: 2, numberOfLoops: 0)
        lead.destination = instrument.map { .node($0) } ?? .graphInput
        out.destination = .graphOutput
        loop.destination = instrument.map { .node($0) } ?? .graphInput
        sequence.tracks = [lead, out, loop]
        return sequence
    }

    /// A player of the song in `graph` (its units reading the player's transport), playing.
    static func play(in graph: AudioGraph, instrument: GraphNode?) throws(AudioUnitError) -> MusicPlayer {
        let transport = HostTransport()
        for node in graph.nodes { try graph.unit(of: node).hostTransport = transport }
        let player = MusicPlayer(transport: transport, sendsMIDIClock: true)
        try player.setAUGraph(graph, sampleRate: 48_000)
        player.setSequence(sequence(instrument: instrument))
        try player.setLoopRange(0..<14)
        try player.start()
        return player
    }

    /// The control thread's next move on the player (the `step`th): seek, stop, start, rate.
    static func move(_ player: MusicPlayer, step: Int) throws(AudioUnitError) {
        switch step % 4 {
        case 0: try player.setTime(Double(step % 13) + 0.37)
        case 1: player.stop()
        case 2: try player.start()
        default: try player.setPlayRateScalar([0.5, 1, 1.7][step % 3])
        }
    }
}
