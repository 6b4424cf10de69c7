/// The MIDI a unit sends during one render call of its own (its MIDI output, what Core
/// Audio hands a host through `kAudioUnitProperty_MIDIOutputCallback`): events in the
/// order sent, offsets relative to the first frame of the call. Allocated with the render
/// resources of a unit whose ``AudioUnit/producesMIDIOutput`` is true; emptied when each
/// render call begins; read by the graph right after the call. Full, it drops what comes
/// next and counts it.
/// - Thread: [render]
public struct MIDIOutputList {
    /// Room for ``AudioUnit/eventCapacity`` events.
    let storage: UnsafeMutablePointer<MIDIEvent>
    /// How many events the current render call sent.
    public internal(set) var count = 0
    /// Added to the offset of each event sent: where the current `process` call starts in
    /// the render call (the parameter scheduler cuts a render call into several).
    var baseOffset: Int32 = 0
    /// Events dropped because the list was full, since the unit was initialized.
    public internal(set) var dropped = 0

    init() {
        storage = .allocate(capacity: AudioUnit.eventCapacity)
    }

    /// The events of the current render call.
    /// - Thread: [render]
    public var events: UnsafeBufferPointer<MIDIEvent> { UnsafeBufferPointer(start: storage, count: count) }

    /// Appends `event` (its offset relative to the current `process` call); false when the
    /// list is full and the event was dropped.
    /// - Thread: [render] No allocation, no lock.
    @discardableResult
    public mutating func append(_ event: MIDIEvent) -> Bool {
        guard count < AudioUnit.eventCapacity else {
            dropped += 1
            return false
        }
        var placed = event
        placed.offset += baseOffset
        storage[count] = placed
        count += 1
        return true
    }

    /// Empties the list for a new render call.
    /// - Thread: [render]
    mutating func reset() {
        count = 0
        baseOffset = 0
    }

    func deallocate() { storage.deallocate() }
}

extension ProcessContext {
    /// Sends `event` out of the unit (its offset relative to this call's first frame);
    /// false when the unit has no MIDI output (``AudioUnit/producesMIDIOutput``) or its list
    /// is full (the event is dropped and counted).
    /// - Thread: [render] No allocation, no lock.
    @discardableResult
    public func sendMIDI(_ event: MIDIEvent) -> Bool {
        midiOutput?.pointee.append(event) ?? false
    }
}
