import AUCore

/// What the device that plays a graph can ask of it beyond a render: to render it at the
/// graph's own rate for a device at another (a program that set 48 kHz on a 44.1 kHz JACK
/// server), and to hand a unit's render callback the application's input of the cycle
/// (Remote I/O's capture element).
extension AudioGraph {
    /// Makes ``render(frameCount:timestamp:input:output:midi:)`` resample: the graph renders
    /// at its own rate (`graphRate`), 64 frames at a time, and each cycle's output is
    /// interpolated to `deviceRate` (``PullResampler``). While it resamples, the application's
    /// input and the driver's MIDI do not reach the graph (they are at the device's rate and
    /// cycle): the device refuses capture then. nil turns it off. Set by the device while
    /// no render can run (before it publishes its cycle).
    /// - Thread: [control]
    public func resampleOutput(graphRate: Double, deviceRate: Double, channels: Int) {
        outputResampler = graphRate == deviceRate ? nil : PullResampler(sourceRate: graphRate, deviceRate: deviceRate, channels: channels)
    }

    /// Turns resampling off (``resampleOutput(graphRate:deviceRate:channels:)``).
    /// - Thread: [control]
    public func stopResamplingOutput() { outputResampler = nil }

    /// Whether renders are resampled to a device's rate.
    /// - Thread: [control]
    public var resamplesOutput: Bool { outputResampler != nil }

    /// Copies the application's input of the slice being rendered (what the driver passed as
    /// `input`, from where the slice starts) into `buffers`, channels it lacks silent; false
    /// (and `buffers` untouched) when no render of this graph is in progress on this thread
    /// or it has no input that long. Called from inside the render, by a unit's render
    /// callback: Remote I/O's `AudioUnitRender` on its capture element.
    /// - Thread: [render] No allocation, no lock.
    public func copyApplicationInput(into buffers: AudioBuffers) -> Bool {
        guard let input = renderer.cycleInput else { return false }
        let start = renderer.cycleInputOffset
        guard input.frameCount >= start + buffers.frameCount else { return false }
        for channel in 0..<buffers.channelCount {
            let target = buffers.channelPointers[channel]
            if channel < input.channelCount {
                target.update(from: input.channelPointers[channel] + start, count: buffers.frameCount)
            } else {
                target.update(repeating: 0, count: buffers.frameCount)
            }
        }
        return true
    }
}
