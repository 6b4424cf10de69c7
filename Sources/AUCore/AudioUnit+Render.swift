/// The render entry points: Core Audio's pull (`AudioUnitRender`), and the push entry
/// points named by their callers, a driver or offline loop that renders one unit over its
/// own buffers and a graph that renders every node inside one render-thread mark.
extension AudioUnit {
    /// Renders `buffers.frameCount` frames of one output bus (`AudioUnitRender`), pulling
    /// each input from its connection or render callback first. Pulling another bus of the
    /// same cycle (same sample time) returns what the cycle produced without processing again.
    /// - Thread: [render] No allocation, no lock.
    public func render(flags: inout RenderFlags, timestamp: RenderTimestamp, outputBus: Element, buffers: AudioBuffers) -> AudioUnitStatus {
        RenderThread.run {
            guard let reference = renderResourcesSlot.reference else { return AudioUnitErrorCode.uninitialized.rawValue }
            let frames = buffers.frameCount
            guard frames <= renderLimits.load(ordering: .relaxed) >> 32 else { return AudioUnitErrorCode.tooManyFramesToProcess.rawValue }
            renderNotifies.notify(flags.union(.preRender), timestamp: timestamp, bus: outputBus, buffers: buffers)
            let status = reference._withUnsafeGuaranteedRef { resources in
                self.render(resources, flags: &flags, timestamp: timestamp, outputBus: outputBus, buffers: buffers)
            }
            renderNotifies.notify(flags.union(status == 0 ? .postRender : [.postRender, .postRenderError]), timestamp: timestamp, bus: outputBus, buffers: buffers)
            return status
        }
    }

    /// ``render(flags:timestamp:outputBus:buffers:)`` once the unit is known to be
    /// initialized and the cycle short enough.
    /// - Thread: [render]
    private func render(_ resources: RenderResources, flags: inout RenderFlags, timestamp: RenderTimestamp, outputBus: Element, buffers: AudioBuffers) -> AudioUnitStatus {
        let frames = buffers.frameCount
        guard outputBus >= 0, outputBus < resources.outputs.count else { return AudioUnitErrorCode.invalidElement.rawValue }
        if !(resources.lastSampleTime == timestamp.sampleTime && resources.lastFrameCount == frames) {
            for bus in 0..<resources.inputs.count {
                let status = pullInput(bus, flags: &flags, timestamp: timestamp, into: resources.inputs[bus].buffers(frameCount: frames))
                if status != 0 { return status }
            }
            resources.prepareViews(frameCount: frames)
            // Already inside the render mark, initialized and within MaximumFramesPerSlice.
            let status = renderCycle(
                resources, timestamp: timestamp, frameCount: frames, inputs: UnsafeBufferPointer(resources.inputViews),
                outputs: UnsafeBufferPointer(resources.outputViews), midi: UnsafeBufferPointer(start: nil, count: 0),
                buffersStamp: resources.viewsStamp)
            if status != 0 { return status }
            resources.lastSampleTime = timestamp.sampleTime
            resources.lastFrameCount = frames
        }
        buffers.copy(from: resources.outputs[outputBus].buffers(frameCount: frames))
        return 0
    }

    /// Fills `buffers` from input bus `bus`'s source: its render callback or the unit it is
    /// connected to (`AUBase::PullInput`). I/O units call it from their device callback.
    /// - Thread: [render] No allocation, no lock (beyond what the source does).
    public func pullInput(_ bus: Int, flags: inout RenderFlags, timestamp: RenderTimestamp, into buffers: AudioBuffers) -> AudioUnitStatus {
        renderInputSources.read { sources in
            guard bus >= 0, bus < sources.count else { return AudioUnitErrorCode.invalidElement.rawValue }
            switch sources[bus] {
            case .none:
                return AudioUnitErrorCode.noConnection.rawValue
            case .callback(let box):
                return box._withUnsafeGuaranteedRef { $0.callback.body(&flags, timestamp, bus, buffers) }
            case .connection(let source, let sourceBus):
                return source._withUnsafeGuaranteedRef { $0.render(flags: &flags, timestamp: timestamp, outputBus: sourceBus, buffers: buffers) }
            }
        }
    }

    /// Runs one cycle over buffers the caller owns, for a driver or an offline loop that
    /// renders this unit by itself (not inside ``RenderThread/run(_:)``): marks the thread,
    /// then does what ``renderCycleFromGraph(timestamp:frameCount:inputs:outputs:midi:buffersStamp:)``
    /// does. `midi` adds events the caller already has (sorted, offsets within the cycle).
    /// - Thread: [render] No allocation, no lock.
    public func renderCycleFromDriver(
        timestamp: RenderTimestamp, frameCount: Int, inputs: UnsafeBufferPointer<AudioBuffers>,
        outputs: UnsafeBufferPointer<AudioBuffers>, midi: UnsafeBufferPointer<MIDIEvent>
    ) -> AudioUnitStatus {
        RenderThread.run {
            renderCycleFromGraph(timestamp: timestamp, frameCount: frameCount, inputs: inputs, outputs: outputs, midi: midi)
        }
    }

    /// Runs one cycle over buffers the caller owns, for a caller already inside
    /// ``RenderThread/run(_:)`` (a graph renders every node of a cycle in one such call,
    /// which saves marking the thread again for each unit): takes the pending parameter and
    /// MIDI events, has the ``ParameterScheduler`` apply them at their frames, and calls
    /// ``process(_:)``; when bypassed, copies each input bus to the output bus of the same
    /// number instead. `midi` adds events the caller already has (sorted, offsets within the
    /// cycle). `buffersStamp` is passed on in ``ProcessContext/buffersStamp`` for a cycle
    /// processed whole (0 for the slices of a cycle cut at parameter events).
    /// - Thread: [render], inside `RenderThread.run`. No allocation, no lock.
    public func renderCycleFromGraph(
        timestamp: RenderTimestamp, frameCount: Int, inputs: UnsafeBufferPointer<AudioBuffers>,
        outputs: UnsafeBufferPointer<AudioBuffers>, midi: UnsafeBufferPointer<MIDIEvent>, buffersStamp: UInt64 = 0
    ) -> AudioUnitStatus {
        assert(RenderThread.isCurrent, "renderCycleFromGraph called outside RenderThread.run")
        guard let reference = renderResourcesSlot.reference else { return AudioUnitErrorCode.uninitialized.rawValue }
        let limits = renderLimits.load(ordering: .relaxed)
        guard frameCount <= limits >> 32 else { return AudioUnitErrorCode.tooManyFramesToProcess.rawValue }
        guard inputs.count << 16 | outputs.count == limits & 0xFFFF_FFFF else { return AudioUnitErrorCode.invalidElement.rawValue }
        // The common call has no render notification: one load, and nothing else for them.
        guard hasRenderNotifies.load(ordering: .relaxed) else {
            return reference._withUnsafeGuaranteedRef { resources in
                renderCycle(resources, timestamp: timestamp, frameCount: frameCount, inputs: inputs, outputs: outputs, midi: midi, buffersStamp: buffersStamp)
            }
        }
        let notified = outputs.isEmpty ? AudioBuffers(channelPointers: UnsafeMutableBufferPointer(start: nil, count: 0), frameCount: frameCount) : outputs[0]
        renderNotifies.notify(.preRender, timestamp: timestamp, bus: 0, buffers: notified)
        let status = reference._withUnsafeGuaranteedRef { resources in
            renderCycle(resources, timestamp: timestamp, frameCount: frameCount, inputs: inputs, outputs: outputs, midi: midi, buffersStamp: buffersStamp)
        }
        renderNotifies.notify(status == 0 ? .postRender : [.postRender, .postRenderError], timestamp: timestamp, bus: 0, buffers: notified)
        return status
    }

    /// One cycle once the unit is known to be initialized, the cycle short enough and the
    /// bus counts its own.
    /// - Thread: [render]
    @inline(__always)
    private func renderCycle(
        _ resources: RenderResources, timestamp: RenderTimestamp, frameCount: Int, inputs: UnsafeBufferPointer<AudioBuffers>,
        outputs: UnsafeBufferPointer<AudioBuffers>, midi: UnsafeBufferPointer<MIDIEvent>, buffersStamp: UInt64
    ) -> AudioUnitStatus {
        let midiOutput = resources.midiOutput
        midiOutput?.pointee.reset()
        checkedOutputFrames.store(0, ordering: .relaxed)
        if bypassed.load(ordering: .relaxed) {
            for bus in 0..<outputs.count {
                if bus < inputs.count { outputs[bus].copy(from: inputs[bus]) } else { outputs[bus].clear() }
            }
            // A bypassed MIDI processor passes its MIDI through, as it passes audio.
            if let midiOutput { for event in midi { midiOutput.pointee.append(event) } }
            return 0
        }
        var status: AudioUnitStatus = 0
        if pendingEvents.load(ordering: .acquiring) == 0 && midi.isEmpty && !rampsActive.load(ordering: .relaxed) {
            // The common cycle: nothing to apply.
            status = process(ProcessContext(
                frameCount: frameCount, timestamp: timestamp, inputs: inputs, outputs: outputs,
                midiEvents: UnsafeBufferPointer(start: nil, count: 0), buffersStamp: buffersStamp, midiOutput: midiOutput))
        } else {
            let scheduler = resources.scheduler
            let eventCount = scheduler.takeEvents(from: parameterEvents, renderRing: renderParameterEvents)
            let midiCount = resources.takeMIDIEvents(from: midiEvents, adding: midi, frameCount: frameCount)
            pendingEvents.wrappingSubtract(eventCount + midiCount - min(midi.count, AudioUnit.eventCapacity), ordering: .relaxed)
            if eventCount == 0 && scheduler.activeRampCount == 0 || rendersWholeCycles {
                if eventCount > 0 || scheduler.activeRampCount > 0 { scheduler.applyAtCycleStart(self, eventCount: eventCount, frameCount: frameCount) }
                status = process(ProcessContext(
                    frameCount: frameCount, timestamp: timestamp, inputs: inputs, outputs: outputs,
                    midiEvents: UnsafeBufferPointer(start: resources.midi, count: midiCount), buffersStamp: buffersStamp, midiOutput: midiOutput))
            } else {
                status = scheduler.render(
                    self, resources, eventCount: eventCount, midiCount: midiCount, timestamp: timestamp, frameCount: frameCount,
                    inputs: inputs, outputs: outputs, buffersStamp: buffersStamp)
            }
            rampsActive.store(scheduler.activeRampCount > 0, ordering: .relaxed)
        }
        if status != 0 && status != lastRenderError.load(ordering: .relaxed) {
            lastRenderError.store(status, ordering: .relaxed)
            notifyPropertyChangeFromRender(.lastRenderError)
        }
        return status
    }
}
