import AUCore
import AUEngine
import AUMIDI
import AUMusicPlayer

/// A Standard MIDI File as an offline render's input: a ``MusicPlayer`` plays it into the
/// chain from beat 0 as the graph renders, each event at its exact frame, each track to the
/// node the preset's `tracks` names (the others to the graph's MIDI input, routed as live
/// MIDI is), and the units see the song's transport (tempo, bar, beat) rolling from 0. The
/// audio input is silence. The render lasts the song (plus the tail). Events past what a
/// node takes in one cycle (``AudioUnit/eventCapacity``, a chord of hundreds of notes) are
/// dropped and counted, not an error.
/// - Thread: [control] the job's thread, which also renders the graph.
final class MIDIFileSource: OfflineSource {
    let totalFrames: Int
    private let player: MusicPlayer

    /// Plays `sequence`, read from `file`, into `chain`.
    init(_ sequence: MusicSequence, file: String, chain: ChainGraph) throws(AudioUnitError) {
        hasNotes = (sequence.tracks + [sequence.tempoTrack]).contains { track in track.events.contains { if case .note = $0.event { true } else { false } } }
        player = try chain.makePlayer(for: sequence, from: file)
        try player.start()
        totalFrames = max(1, Int((sequence.tempoMap.seconds(forBeats: sequence.length) * chain.sampleRate).rounded(.up)))
    }

    /// Whether the song has a note to play.
    let hasNotes: Bool

    /// Events a node could not take.
    var droppedEvents: Int { player.droppedEvents }

    func read(into buffers: AudioBuffers) throws(AudioUnitError) { buffers.clear() }

    func stop() { player.stop() }
}
