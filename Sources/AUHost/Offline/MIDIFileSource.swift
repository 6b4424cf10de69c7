import AUCore
import AUEngine
import AUFiles

/// A Standard MIDI File as an offline render's input: each block's events go to the
/// graph's MIDI input at their frames, before the block renders (the graph routes them: to
/// the chain's first MIDI consumers unless the preset says otherwise); the audio input is
/// silence. The render lasts the file's duration (plus the tail). Events past what the
/// graph takes in one cycle (``AudioUnit/eventCapacity``, a chord of hundreds of notes)
/// are dropped and counted, not an error.
/// - Thread: [control] the job's thread (``AudioGraph/sendMIDIEvent(_:)`` from the thread that then renders
///   the block, as the offline driver plays both parts).
final class MIDIFileSource: OfflineSource {
    let totalFrames: Int
    /// Events the graph could not take (its queue for the cycle was full).
    private(set) var droppedEvents = 0
    private let events: [(frame: Int, event: MIDIEvent)]
    private let graph: AudioGraph
    private var next = 0
    private var position = 0

    /// Plays `song` at `sampleRate` into `graph`'s MIDI input.
    init(_ song: StandardMIDIFile, sampleRate: Double, graph: AudioGraph) {
        self.graph = graph
        events = song.events.map { timed in
            (Int((timed.seconds * sampleRate).rounded()), MIDIEvent(offset: 0, status: timed.status, data1: timed.data1, data2: timed.data2))
        }
        totalFrames = max(1, Int((song.duration * sampleRate).rounded(.up)))
    }

    func read(into buffers: AudioBuffers) throws(AudioUnitError) {
        buffers.clear()
        let end = position + buffers.frameCount
        while next < events.count, events[next].frame < end {
            var event = events[next].event
            event.offset = Int32(max(0, events[next].frame - position))
            if !graph.sendMIDIEvent(event) { droppedEvents += 1 }
            next += 1
        }
        position = end
    }

    func stop() {}
}
