import AUCore

/// Render notifications and CPU load: what a host watches of the graph's render.
extension AudioGraph {
    /// Adds a render notification (`AUGraphAddRenderNotify`): `callback` runs on the render
    /// thread around every ``render(frameCount:timestamp:input:output:)``, with
    /// ``RenderFlags/preRender`` before and ``RenderFlags/postRender`` after (and
    /// ``RenderFlags/postRenderError`` when the render failed), given the cycle's timestamp,
    /// bus 0 and the output buffers (before the render, the buffers it is about to fill). At
    /// most 4 per graph (CannotDoInCurrentContext beyond). The callback keeps the render
    /// thread's rules: no allocation, no lock, no blocking call.
    /// - Thread: [control]
    @discardableResult
    public func addRenderNotify(_ callback: RenderCallback) throws(AudioUnitError) -> RenderNotifyToken {
        try renderNotifies.add(callback)
    }

    /// Removes a render notification (`AUGraphRemoveRenderNotify`); false when the token was
    /// not added. When it returns, the render thread no longer calls it.
    /// - Thread: [control]
    @discardableResult
    public func removeRenderNotify(_ token: RenderNotifyToken) -> Bool { renderNotifies.remove(token) }

    /// The graph's CPU load (`AUGraphGetCPULoad`): the time spent in
    /// ``render(frameCount:timestamp:input:output:)`` over the duration of the audio it
    /// rendered (at the output format's sample rate), averaged over the cycles since the
    /// previous reading; 0.25 is a quarter of real time, 0 when nothing was rendered since.
    /// - Thread: [control]
    public var cpuLoad: Double { cpuLoadMeter.load(sampleRate: outputFormat?.sampleRate ?? 0) }

    /// The highest CPU load of one cycle (`AUGraphGetMaxCPULoad`): one cycle's render time over
    /// its duration, the highest since the previous reading; 0 when nothing was timed since.
    /// Until it is first read the graph times one cycle in 32, so the first reading covers
    /// those; from then on every cycle is timed (two clock reads a cycle).
    /// - Thread: [control]
    public var maxCPULoad: Double { cpuLoadMeter.maxLoad(sampleRate: outputFormat?.sampleRate ?? 0) }
}
