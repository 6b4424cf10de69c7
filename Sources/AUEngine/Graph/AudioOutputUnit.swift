import AUCore

/// An output unit that drives a device (`AudioOutputUnitStart` / `AudioOutputUnitStop`): as
/// the output node of an ``AudioGraph`` it is started by ``AudioGraph/start()`` and stopped by
/// ``AudioGraph/stop()``, which ``AudioGraph/uninitialize()`` and ``AudioGraph/dispose()``
/// call before they free any unit, so the device no longer renders the graph when its
/// units go away. The JACK I/O unit is one; the generic output unit (`auou:genr`), which an
/// application renders itself, is not.
/// - Thread: [control]
public protocol AudioOutputUnit: AudioUnit {
    /// Starts the device: it renders its graph every period (`AudioOutputUnitStart`).
    /// - Thread: [control]
    func start() throws(AudioUnitError)
    /// Stops the device; when it returns, the device renders no more (`AudioOutputUnitStop`).
    /// - Thread: [control]
    func stop()
}
