import AUCore

/// Where an offline render's input comes from, block by block: an audio file
/// (``InputPipeline``) or a MIDI file played by the chain's instruments over silence
/// (``MIDIFileSource``).
/// - Thread: [control] the job's thread.
protocol OfflineSource: AnyObject {
    /// The input's length in frames at the chain's rate: the output has as many.
    var totalFrames: Int { get }
    /// Fills `buffers` with the next frames (silence after the end) and hands the chain
    /// whatever else happens during them (MIDI events).
    func read(into buffers: AudioBuffers) throws(AudioUnitError)
    /// The next `frames` frames where they already are, as the chain takes them (its
    /// channels, all inside the input), and moves past them, and whether they are known to
    /// be finite (screened already); nil when they have to be read (``read(into:)``).
    /// Nothing may write into the view.
    func takeInPlace(_ frames: Int) -> (buffers: AudioBuffers, isFinite: Bool)?
    /// Ends any helper thread; the source reads nothing more.
    func stop()
    /// What is wrong with the input file that it still reads (cut short), nil when nothing is.
    var inputWarning: String? { get }
}

extension OfflineSource {
    func takeInPlace(_ frames: Int) -> (buffers: AudioBuffers, isFinite: Bool)? { nil }
    var inputWarning: String? { nil }
}

extension InputPipeline: OfflineSource {}
