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
