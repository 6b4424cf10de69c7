/// The parameter events and ramps of a unit's render cycle, and the one place a cycle is
/// cut at them (`AUBase::ProcessForScheduledParams`): every event takes effect at its own
/// frame, every ramp moves in steps of at most ``AudioUnit/rampSliceFrames`` frames and ends
/// at its last frame. A unit that renders slices gets one ``AudioUnit/process(_:)`` call per
/// slice; a unit that applies timed changes itself (``AudioUnit/takesTimedParameterChanges``)
/// gets the whole cycle and the changes at their offsets instead. The graph hands its events
/// to the unit (``AudioUnit/scheduleParameterFromRender(at:value:offset:)``) rather than
/// cutting the unit's render itself.
/// - Thread: [control] creates and releases it (with ``RenderResources``); [render] uses it, on
///   the render thread.
final class ParameterScheduler {
    /// This cycle's events, sorted by offset (stable).
    let events: UnsafeMutablePointer<ParameterEvent>
    private let ramps: UnsafeMutablePointer<Ramp>
    private(set) var activeRampCount = 0
    /// The changes handed to a unit that applies them itself, at their offsets in its call.
    private let changes: UnsafeMutablePointer<ParameterChange>
    private var changeCount = 0

    private struct Ramp {
        var slot: Int
        var from: Float
        var to: Float
        var total: Int
        var elapsed: Int
    }

    init() {
        events = .allocate(capacity: AudioUnit.eventCapacity)
        ramps = .allocate(capacity: AudioUnit.eventCapacity)
        changes = .allocate(capacity: AudioUnit.parameterChangeCapacity)
    }

    deinit {
        events.deallocate()
        ramps.deallocate()
        changes.deallocate()
    }

    /// Moves the waiting events (the control threads' and the render thread's) into this
    /// cycle's list, sorted by offset.
    /// - Thread: [render]
    #if !DEBUG
    @_noLocks
    #endif
    func takeEvents(from ring: SharedProducerRing<ParameterEvent>, renderRing: RealTimeRing<ParameterEvent>) -> Int {
        var count = 0
        while count < AudioUnit.eventCapacity, let event = renderRing.pop() { events.insertSorted(event, count: &count, by: { $0.offset }) }
        while count < AudioUnit.eventCapacity, let event = ring.pop() { events.insertSorted(event, count: &count, by: { $0.offset }) }
        return count
    }

    /// Forgets the ramps in flight.
    /// - Thread: [control]
    func clear() {
        activeRampCount = 0
        changeCount = 0
    }

    // MARK: - The cycle

    /// Renders one cycle of `unit` with this cycle's `eventCount` events and `midiCount` MIDI
    /// events (in `resources.midi`), cutting it at each event and ramp step.
    /// - Thread: [render] No allocation, no lock.
    func render(
        _ unit: AudioUnit, _ resources: RenderResources, eventCount: Int, midiCount: Int, timestamp: RenderTimestamp, frameCount: Int,
        inputs: UnsafeBufferPointer<AudioBuffers>, outputs: UnsafeBufferPointer<AudioBuffers>, buffersStamp: UInt64
    ) -> AudioUnitStatus {
        let recordsChanges = unit.takesTimedParameterChanges
        changeCount = 0
        var callStart = 0
        var start = 0
        var nextEvent = 0
        var nextMIDI = 0
        while start < frameCount {
            var due = nextEvent
            while due < eventCount && Int(events[due].offset) <= start { due += 1 }
            if recordsChanges && changeCount + (due - nextEvent) + activeRampCount > AudioUnit.parameterChangeCapacity {
                // The list is full: the unit gets the cycle so far, then the rest.
                let status = call(unit, resources, from: callStart, to: start, nextMIDI: &nextMIDI, midiCount: midiCount, timestamp: timestamp, inputs: inputs, outputs: outputs)
                if status != 0 { return status }
                callStart = start
                changeCount = 0
            }
            while nextEvent < due {
                apply(events[nextEvent], unit, at: start - callStart, records: recordsChanges)
                nextEvent += 1
            }
            var end = nextEvent < eventCount ? Int(events[nextEvent].offset) : frameCount
            end = min(end, frameCount)
            if activeRampCount > 0 {
                let step = stepRamps(unit, at: start - callStart, records: recordsChanges)
                if activeRampCount > 0 {
                    end = min(end, start + step)
                    advanceRamps(by: end - start)
                }
            }
            if !recordsChanges {
                // A unit that renders only powers of two gets the slice in such blocks.
                var from = start
                while from < end {
                    var block = end - from
                    if resources.rendersPowerOfTwoBlocks {
                        block = 1
                        while block << 1 <= end - from { block <<= 1 }
                    }
                    let status = call(unit, resources, from: from, to: from + block, nextMIDI: &nextMIDI, midiCount: midiCount, timestamp: timestamp, inputs: inputs, outputs: outputs)
                    if status != 0 { return status }
                    from += block
                }
                callStart = end
            }
            start = end
        }
        var status: AudioUnitStatus = 0
        if recordsChanges {
            if callStart == 0 {
                // One call for the whole cycle: the caller's buffers as they are.
                status = unit.process(ProcessContext(
                    frameCount: frameCount, timestamp: timestamp, inputs: inputs, outputs: outputs,
                    midiEvents: UnsafeBufferPointer(start: resources.midi, count: midiCount), buffersStamp: buffersStamp,
                    parameterChanges: UnsafeBufferPointer(start: changes, count: changeCount), midiOutput: resources.midiOutput))
                changeCount = 0
            } else {
                status = call(unit, resources, from: callStart, to: frameCount, nextMIDI: &nextMIDI, midiCount: midiCount, timestamp: timestamp, inputs: inputs, outputs: outputs)
            }
        }
        // Events beyond a cycle shorter than they expected hold from the next one.
        while nextEvent < eventCount {
            apply(events[nextEvent], unit, at: 0, records: false)
            nextEvent += 1
        }
        return status
    }

    /// Processes frames `from..<to` of the cycle, with their MIDI events (offsets made
    /// relative to `from`) and the changes recorded for them.
    @inline(__always)
    private func call(
        _ unit: AudioUnit, _ resources: RenderResources, from: Int, to: Int, nextMIDI: inout Int, midiCount: Int, timestamp: RenderTimestamp,
        inputs: UnsafeBufferPointer<AudioBuffers>, outputs: UnsafeBufferPointer<AudioBuffers>
    ) -> AudioUnitStatus {
        let midiStart = nextMIDI
        while nextMIDI < midiCount && Int(resources.midi[nextMIDI].offset) < to {
            resources.midi[nextMIDI].offset -= Int32(from)
            nextMIDI += 1
        }
        var sliceTime = timestamp
        sliceTime.sampleTime += Double(from)
        resources.midiOutput?.pointee.baseOffset = Int32(from)
        let status = unit.process(ProcessContext(
            frameCount: to - from, timestamp: sliceTime,
            inputs: resources.sliceViews(of: inputs, input: true, offset: from, frames: to - from),
            outputs: resources.sliceViews(of: outputs, input: false, offset: from, frames: to - from),
            midiEvents: UnsafeBufferPointer(start: resources.midi + midiStart, count: nextMIDI - midiStart),
            parameterChanges: UnsafeBufferPointer(start: changes, count: changeCount), midiOutput: resources.midiOutput))
        changeCount = 0
        return status
    }

    /// Applies a cycle's events at its first frame and moves ramps on by the whole cycle
    /// (for units that render whole cycles only).
    /// - Thread: [render]
    #if !DEBUG
    @_noLocks
    #endif
    func applyAtCycleStart(_ unit: AudioUnit, eventCount: Int, frameCount: Int) {
        for index in 0..<eventCount { apply(events[index], unit, at: 0, records: false) }
        if activeRampCount > 0 {
            _ = stepRamps(unit, at: 0, records: false)
            advanceRamps(by: frameCount)
        }
    }

    /// Applies one parameter event: a jump cancels the slot's ramp and sets the value; a ramp
    /// starts from its start value (the current value when that is NaN).
    @inline(__always)
    private func apply(_ event: ParameterEvent, _ unit: AudioUnit, at offset: Int, records: Bool) {
        let slot = Int(event.index)
        cancelRamp(slot: slot)
        if event.duration == 0 {
            set(slot, event.value, unit, at: offset, records: records)
        } else if activeRampCount < AudioUnit.eventCapacity {
            let from = event.startValue.isNaN ? unit.unretainedParameters._withUnsafeGuaranteedRef { $0.value(at: slot) } : event.startValue
            ramps[activeRampCount] = Ramp(slot: slot, from: from, to: event.value, total: Int(event.duration), elapsed: 0)
            activeRampCount += 1
        }
    }

    /// Stores a value the cycle reached at `offset` frames into the current call, and
    /// records it for a unit that applies changes itself.
    @inline(__always)
    private func set(_ slot: Int, _ value: Float, _ unit: AudioUnit, at offset: Int, records: Bool) {
        let previous = unit.setParameterFromRender(at: slot, value: value)
        if records {
            changes[changeCount] = ParameterChange(slot: Int32(slot), offset: Int32(offset), value: value, previous: previous)
            changeCount += 1
        }
    }

    // MARK: - Ramps

    /// Stops a ramp, when one runs on `slot`.
    private func cancelRamp(slot: Int) {
        var index = 0
        while index < activeRampCount {
            if ramps[index].slot == slot {
                activeRampCount -= 1
                ramps[index] = ramps[activeRampCount]
            } else {
                index += 1
            }
        }
    }

    /// Applies each ramp's value at a step that starts `offset` frames into the call (its end
    /// value, and it stops, when it has run its course) and returns how many frames the step
    /// may last: until the first ramp ends, at most ``AudioUnit/rampSliceFrames``.
    private func stepRamps(_ unit: AudioUnit, at offset: Int, records: Bool) -> Int {
        var frames = AudioUnit.rampSliceFrames
        var index = 0
        while index < activeRampCount {
            let ramp = ramps[index]
            if ramp.elapsed >= ramp.total {
                set(ramp.slot, ramp.to, unit, at: offset, records: records)
                activeRampCount -= 1
                ramps[index] = ramps[activeRampCount]
            } else {
                set(ramp.slot, ramp.from + (ramp.to - ramp.from) * (Float(ramp.elapsed) / Float(ramp.total)), unit, at: offset, records: records)
                frames = min(frames, ramp.total - ramp.elapsed)
                index += 1
            }
        }
        return frames
    }

    private func advanceRamps(by frames: Int) {
        for index in 0..<activeRampCount { ramps[index].elapsed += frames }
    }
}

/// A parameter value a cycle reached, for a unit that applies changes at their frames itself
/// (``AudioUnit/takesTimedParameterChanges``): what its render call should apply where.
/// - Thread: [render]
public struct ParameterChange: BitwiseCopyable, Equatable {
    /// The parameter's slot in ``AudioUnit/parameters``.
    public var slot: Int32
    /// The frame of the render call it takes effect at.
    public var offset: Int32
    /// The value it takes there.
    public var value: Float
    /// The value it replaced (the slot's value at the call's start, for its first change).
    public var previous: Float

    /// A change of `slot` to `value` at frame `offset`, replacing `previous`.
    /// - Thread: [render]
    public init(slot: Int32, offset: Int32, value: Float, previous: Float) {
        self.slot = slot
        self.offset = offset
        self.value = value
        self.previous = previous
    }
}
