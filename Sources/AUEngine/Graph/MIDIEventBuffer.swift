import AUCore

/// MIDI events of one cycle or slice in time order, in storage a plan or the renderer
/// owns: what a node sent, what it is about to get, the graph's MIDI input and output.
/// Full, it drops what comes next and counts it. Stable: events at the same frame keep the
/// order they were added in (a fan-in merges its sources in connection order).
/// - Thread: [render] once made; [control] allocates and frees it.
struct MIDIEventBuffer {
    let storage: UnsafeMutablePointer<MIDIEvent>
    let capacity: Int
    var count = 0
    /// Events dropped because the buffer was full.
    var dropped = 0

    /// A buffer over `storage` (room for `capacity` events), which the caller owns.
    init(capacity: Int, storage: UnsafeMutableBufferPointer<MIDIEvent>) {
        self.capacity = capacity
        self.storage = storage.baseAddress!
    }

    var events: UnsafeBufferPointer<MIDIEvent> { UnsafeBufferPointer(start: storage, count: count) }

    @inline(__always)
    mutating func clear() { count = 0 }

    /// Inserts `event` after every event at or before its frame.
    @inline(__always)
    mutating func insert(_ event: MIDIEvent) {
        guard count < capacity else {
            dropped += 1
            return
        }
        storage.insertSorted(event, count: &count, by: { $0.offset })
    }

    /// Adds the events of `source` that fall in `window` once moved by `shift` frames,
    /// channel messages through `table` (16 entries: the channel each goes to, 0xFF to drop
    /// it; nil keeps them).
    @inline(__always)
    mutating func merge(_ source: UnsafeBufferPointer<MIDIEvent>, table: UnsafePointer<UInt8>?, shift: Int32, window: Range<Int32>) {
        for var event in source {
            event.offset += shift
            guard window.contains(event.offset) else { continue }
            if let table, event.status < 0xF0 {
                let channel = table[Int(event.status & 0x0F)]
                if channel == 0xFF { continue }
                event.status = event.status & 0xF0 | channel
            }
            insert(event)
        }
    }
}

/// One MIDI source of a node or of the graph's output, resolved for the render thread.
struct PlanMIDISource {
    /// The source's events of the current slice (a node's output, or the graph's input).
    var events: UnsafeMutablePointer<MIDIEventBuffer>
    /// The connection's channel table, nil for every channel unchanged.
    var table: UnsafePointer<UInt8>?
}

/// The MIDI side of a plan step: where its MIDI comes from, what it gets in the current
/// slice, and what its unit sent in it.
struct StepMIDI {
    var sources: UnsafeMutableBufferPointer<PlanMIDISource>
    /// The slice's events for the unit, merged from `sources`.
    var input: MIDIEventBuffer
    /// What the unit sent in the slice (offsets within the slice).
    var output: MIDIEventBuffer
    /// One call's share of `input`, offsets moved to the call's first frame.
    var call: UnsafeMutablePointer<MIDIEvent>
    var producesOutput: Bool
    /// What a ``MIDIScheduler`` sent the node for the whole cycle (offsets within the
    /// cycle); nil for a node that takes no MIDI.
    var scheduled: UnsafeMutablePointer<MIDIEventBuffer>?
}
