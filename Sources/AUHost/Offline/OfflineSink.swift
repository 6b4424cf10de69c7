import AUCore
import AUFiles

/// Where an offline render's output goes, block by block: a file (``OutputPipeline``) or
/// memory (``MemorySink``, for ``ChainProcessor``).
/// - Thread: [control] the job's thread.
protocol OfflineSink: AnyObject {
    /// Takes the next frames of the chain's output.
    func write(_ buffers: AudioBuffers) throws(AudioUnitError)
    /// Completes the output and returns the levels of what it holds.
    func finish() throws(AudioUnitError) -> AudioLevels
    /// Abandons the output.
    func cancel()
}

extension OutputPipeline: OfflineSink {}
