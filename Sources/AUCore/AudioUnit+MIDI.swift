/// MIDI (`MusicDeviceMIDIEvent`) into the next cycle, and the host's transport as a
/// render reads it.
extension AudioUnit {
    /// Queues a MIDI event for the next cycle (`MusicDeviceMIDIEvent`).
    /// - Thread: [control] (any thread but the render thread).
    public func sendMIDIEvent(_ event: MIDIEvent) throws(AudioUnitError) {
        try requireNotDisposed()
        guard event.offset >= 0, Int(event.offset) < maximumFrames else {
            throw AudioUnitError(.invalidPropertyValue, "\(name): MIDI offset \(event.offset) is not in 0..<\(maximumFrames)")
        }
        guard midiEvents.push(event) else {
            throw AudioUnitError(.cannotDoInCurrentContext, "\(name): more than \(AudioUnit.eventCapacity) MIDI events are waiting for the next cycle")
        }
        pendingEvents.wrappingAdd(1, ordering: .releasing)
    }

    /// Hands MIDI events to the unit's next cycle from the render thread (a JACK driver's
    /// MIDI input, before the graph renders): offsets are within that cycle. Events beyond
    /// the queue's capacity are dropped; returns how many were taken.
    /// - Thread: [render] No allocation, no lock.
    @discardableResult
    public func sendMIDIEventsFromRender(_ events: UnsafeBufferPointer<MIDIEvent>) -> Int {
        var taken = 0
        for event in events where renderMIDIEvents.push(event) { taken += 1 }
        pendingEvents.wrappingAdd(taken, ordering: .releasing)
        return taken
    }

    /// The MIDI the unit sent during its last render call (offsets relative to that call's
    /// first frame); empty for a unit without MIDI output or while uninitialized.
    /// - Thread: [render], right after the render call. No retain.
    public var midiOutputFromRender: UnsafeBufferPointer<MIDIEvent> {
        guard let reference = renderResourcesSlot.reference else { return UnsafeBufferPointer(start: nil, count: 0) }
        return reference._withUnsafeGuaranteedRef { $0.midiOutput?.pointee.events ?? UnsafeBufferPointer(start: nil, count: 0) }
    }

    /// MIDI output events dropped because a render call sent more than
    /// ``AudioUnit/eventCapacity``, since the unit was initialized.
    /// - Thread: [any] (a count the render thread updates; read it as a hint).
    public var droppedMIDIOutputEvents: Int {
        guard let reference = renderResourcesSlot.reference else { return 0 }
        return reference._withUnsafeGuaranteedRef { $0.midiOutput?.pointee.dropped ?? 0 }
    }

    /// MIDI events a cycle brought beyond ``AudioUnit/eventCapacity`` (a chord of hundreds
    /// of notes at once) and dropped, since the unit was initialized.
    /// - Thread: [any] (a count the render thread updates; read it as a hint).
    public var droppedMIDIInputEvents: Int {
        guard let reference = renderResourcesSlot.reference else { return 0 }
        return reference._withUnsafeGuaranteedRef { $0.droppedMIDIInput }
    }

    /// The host's transport at the top of this cycle, nil when the host gives none.
    /// - Thread: [render] No retain.
    public var currentTransport: TransportState? {
        hostTransportSlot.reference?._withUnsafeGuaranteedRef { $0.state }
    }
}
