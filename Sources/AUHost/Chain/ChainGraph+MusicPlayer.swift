import AUCore
import AUEngine
import AUMIDI
import AUMusicPlayer

extension ChainGraph {
    /// A ``MusicPlayer`` for `sequence` (read from `file`) in this chain: each track the
    /// preset's `tracks` names goes to its node, the others to the graph's MIDI input; the
    /// units see the player's transport. Stopped at beat 0. A `tracks` entry past the song's
    /// last track is an error naming both files. With `sendsMIDIClock`, the player sends MIDI
    /// clock to the graph's MIDI output.
    /// - Thread: [control]
    public func makePlayer(for sequence: MusicSequence, from file: String, sendsMIDIClock: Bool = false) throws(AudioUnitError) -> MusicPlayer {
        var sequence = sequence
        for (track, destination) in trackDestinations.sorted(by: { $0.key < $1.key }) {
            guard track <= sequence.trackCount else {
                throw AudioUnitError(
                    .invalidFile,
                    "\(loaded.file): tracks[\"\(track)\"]: \(file) has \(sequence.trackCount) track\(sequence.trackCount == 1 ? "" : "s"); expected a track number in 1...\(max(1, sequence.trackCount)) (auhost midi info \(file) lists them)")
            }
            sequence.tracks[track - 1].destination = destination
        }
        let player = MusicPlayer(transport: transport, sendsMIDIClock: sendsMIDIClock)
        try player.setAUGraph(graph, sampleRate: sampleRate)
        player.setSequence(sequence)
        return player
    }
}
