import AUCore
import AUFiles

/// Where an offline render's output goes, block by block: a file (``OutputPipeline``) or
/// memory (``MemorySink``, for ``ChainProcessor``).
/// - Thread: [control] the job's thread.
protocol OfflineSink: AnyObject {
    /// Takes the next frames of the chain's output.
    func write(_ buffers: AudioBuffers) throws(AudioUnitError)
    /// Where the next `frames` frames can be rendered in place (the caller's memory); nil
    /// when they have to be written (``write(_:)``). The frames rendered there are taken by
    /// ``tookInPlace(_:)``.
    func placeFor(_ frames: Int) -> AudioBuffers?
    /// Takes the `frames` frames rendered into the last ``placeFor(_:)`` view.
    func tookInPlace(_ frames: Int)
    /// Completes the output and returns the levels of what it holds; a file is renamed into
    /// place only when `committing` (else by ``commit()``).
    func finish(committing: Bool) throws(AudioUnitError) -> AudioLevels
    /// Puts in place what ``finish(committing:)`` completed without committing (a file:
    /// flushed to disk and renamed); on failure nothing is left.
    func commit() throws(AudioUnitError)
    /// Abandons the output.
    func cancel()
}

extension OfflineSink {
    func placeFor(_ frames: Int) -> AudioBuffers? { nil }
    func tookInPlace(_ frames: Int) {}
    func commit() throws(AudioUnitError) {}
}

extension OutputPipeline: OfflineSink {}
