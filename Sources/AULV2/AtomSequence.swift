import AUCore

/// The URIDs the render path writes and reads atoms with, interned at start-up.
/// - Thread: [any] (plain values).
struct AtomURIDs: BitwiseCopyable {
    var sequence: UInt32
    var chunk: UInt32
    var midiEvent: UInt32
    var object: UInt32
    var float: UInt32
    var long: UInt32
    var int: UInt32
    var position: UInt32
    var frame: UInt32
    var speed: UInt32
    var bar: UInt32
    var barBeat: UInt32
    var beatUnit: UInt32
    var beatsPerBar: UInt32
    var beatsPerMinute: UInt32
    var patchSet: UInt32
    var patchPut: UInt32

    init(_ urids: URIDMap) {
        sequence = urids.map(LV2URI.atomSequence)
        chunk = urids.map(LV2URI.atomChunk)
        midiEvent = urids.map(LV2URI.midiMidiEvent)
        object = urids.map(LV2URI.atomObject)
        float = urids.map(LV2URI.atomFloat)
        long = urids.map(LV2URI.atomLong)
        int = urids.map(LV2URI.atomInt)
        position = urids.map(LV2URI.timePosition)
        frame = urids.map(LV2URI.timeFrame)
        speed = urids.map(LV2URI.timeSpeed)
        bar = urids.map(LV2URI.timeBar)
        barBeat = urids.map(LV2URI.timeBarBeat)
        beatUnit = urids.map(LV2URI.timeBeatUnit)
        beatsPerBar = urids.map(LV2URI.timeBeatsPerBar)
        beatsPerMinute = urids.map(LV2URI.timeBeatsPerMinute)
        patchSet = urids.map(LV2URI.patchSet)
        patchPut = urids.map(LV2URI.patchPut)
    }
}

/// Reads and writes an `atom:Sequence` in a caller-owned buffer, in place:
/// `LV2_Atom {size, type}`, `LV2_Atom_Sequence_Body {unit, pad}`, then events
/// (`int64 frames`, `LV2_Atom`, body padded to 8 bytes).
/// - Thread: [render] (no allocation; the buffer is preallocated).
struct AtomSequence {
    let buffer: UnsafeMutableRawPointer
    let capacity: Int

    private static let headerSize = 16  // LV2_Atom + LV2_Atom_Sequence_Body
    private static let eventHeaderSize = 16  // frames + LV2_Atom

    /// Makes the buffer an empty input sequence (time in frames).
    func clear(_ urids: AtomURIDs) {
        buffer.storeBytes(of: UInt32(8), as: UInt32.self)
        buffer.storeBytes(of: urids.sequence, toByteOffset: 4, as: UInt32.self)
        buffer.storeBytes(of: UInt64(0), toByteOffset: 8, as: UInt64.self)
    }

    /// Offers the whole buffer to the plugin as an output (`atom:Chunk` of the capacity):
    /// done before every `run()`.
    func prepareOutput(_ urids: AtomURIDs) {
        buffer.storeBytes(of: UInt32(capacity - 8), as: UInt32.self)
        buffer.storeBytes(of: urids.chunk, toByteOffset: 4, as: UInt32.self)
    }

    /// Whether an event whose body is `size` bytes fits after the events already appended.
    @inline(__always)
    func fits(_ size: Int) -> Bool {
        Int(buffer.load(as: UInt32.self)) + 8 + Self.eventHeaderSize + ((size + 7) & ~7) <= capacity
    }

    /// Whether an event whose body is `size` bytes fits into an empty sequence.
    @inline(__always)
    func couldHold(_ size: Int) -> Bool { Self.headerSize + Self.eventHeaderSize + ((size + 7) & ~7) <= capacity }

    /// Appends one event whose body is `size` bytes of type `type`, written by `fill`
    /// into the space given; false when it does not fit.
    @inline(__always)
    func append(frames: Int64, type: UInt32, size: Int, _ fill: (UnsafeMutableRawPointer) -> Void) -> Bool {
        guard fits(size) else { return false }
        let used = Int(buffer.load(as: UInt32.self)) + 8
        let padded = (size + 7) & ~7
        let event = buffer + used
        event.storeBytes(of: frames, as: Int64.self)
        event.storeBytes(of: UInt32(size), toByteOffset: 8, as: UInt32.self)
        event.storeBytes(of: type, toByteOffset: 12, as: UInt32.self)
        (event + Self.eventHeaderSize).initializeMemory(as: UInt8.self, repeating: 0, count: padded)
        fill(event + Self.eventHeaderSize)
        buffer.storeBytes(of: UInt32(used - 8 + Self.eventHeaderSize + padded), as: UInt32.self)
        return true
    }

    /// Appends a MIDI message.
    @inline(__always)
    func appendMIDI(_ event: MIDIEvent, frames: Int64, _ urids: AtomURIDs) -> Bool {
        append(frames: frames, type: urids.midiEvent, size: event.length) { body in
            body.storeBytes(of: event.status, as: UInt8.self)
            if event.length > 1 { body.storeBytes(of: event.data1, toByteOffset: 1, as: UInt8.self) }
            if event.length > 2 { body.storeBytes(of: event.data2, toByteOffset: 2, as: UInt8.self) }
        }
    }

    /// Appends a `time:Position` object: frame, speed (rolling or stopped), tempo, bar,
    /// beat within the bar and the time signature, from the transport.
    func appendPosition(_ transport: TransportState, _ urids: AtomURIDs) -> Bool {
        // Object body (id, otype) + 7 properties of (key, context, LV2_Atom, value padded).
        let size = 8 + 7 * 16 + 8 * 7
        return append(frames: 0, type: urids.object, size: size) { body in
            body.storeBytes(of: UInt32(0), as: UInt32.self)
            body.storeBytes(of: urids.position, toByteOffset: 4, as: UInt32.self)
            var offset = 8
            Self.property(body, &offset, urids.frame, urids.long, 8).storeBytes(of: transport.frame, as: Int64.self)
            Self.property(body, &offset, urids.speed, urids.float, 4).storeBytes(of: Float(transport.isRolling ? 1 : 0), as: Float.self)
            Self.property(body, &offset, urids.beatsPerMinute, urids.float, 4).storeBytes(of: Float(transport.beatsPerMinute), as: Float.self)
            Self.property(body, &offset, urids.bar, urids.long, 8).storeBytes(of: Int64(transport.bar), as: Int64.self)
            Self.property(body, &offset, urids.barBeat, urids.float, 4).storeBytes(of: Float(transport.beatInBar), as: Float.self)
            Self.property(body, &offset, urids.beatUnit, urids.int, 4).storeBytes(of: Int32(transport.beatUnit), as: Int32.self)
            Self.property(body, &offset, urids.beatsPerBar, urids.float, 4).storeBytes(of: Float(transport.beatsPerBar), as: Float.self)
        }
    }

    /// Writes an object property's header at `offset`, moves past it (value padded to 8)
    /// and returns where the value goes.
    @inline(__always)
    private static func property(_ body: UnsafeMutableRawPointer, _ offset: inout Int, _ key: UInt32, _ type: UInt32, _ size: UInt32) -> UnsafeMutableRawPointer {
        body.storeBytes(of: key, toByteOffset: offset, as: UInt32.self)
        body.storeBytes(of: UInt32(0), toByteOffset: offset + 4, as: UInt32.self)
        body.storeBytes(of: size, toByteOffset: offset + 8, as: UInt32.self)
        body.storeBytes(of: type, toByteOffset: offset + 12, as: UInt32.self)
        let value = body + offset + 16
        offset += 24
        return value
    }

    /// Calls `body` with each MIDI message of an output sequence the plugin wrote.
    @inline(__always)
    func forEachMIDI(_ urids: AtomURIDs, _ body: (Int64, UInt8, UInt8, UInt8) -> Void) {
        forEachEvent(urids) { frames, atom, type, size in
            guard type == urids.midiEvent, (1...3).contains(size) else { return }
            let data = atom + 8
            let status = data.load(as: UInt8.self)
            let data1 = size > 1 ? data.load(fromByteOffset: 1, as: UInt8.self) : 0
            let data2 = size > 2 ? data.load(fromByteOffset: 2, as: UInt8.self) : 0
            body(frames, status, data1, data2)
        }
    }

    /// Calls `body` with each event of an output sequence the plugin wrote: its time in
    /// frames, its atom (the `LV2_Atom` header, then the body), the atom's type and body size.
    @inline(__always)
    func forEachEvent(_ urids: AtomURIDs, _ body: (Int64, UnsafeRawPointer, UInt32, Int) -> Void) {
        guard buffer.load(fromByteOffset: 4, as: UInt32.self) == urids.sequence else { return }
        let end = min(capacity, Int(buffer.load(as: UInt32.self)) + 8)
        var offset = Self.headerSize
        while offset + Self.eventHeaderSize <= end {
            let size = Int(buffer.load(fromByteOffset: offset + 8, as: UInt32.self))
            let data = offset + Self.eventHeaderSize
            guard data + size <= end else { return }
            body(buffer.load(fromByteOffset: offset, as: Int64.self), UnsafeRawPointer(buffer + offset + 8),
                 buffer.load(fromByteOffset: offset + 12, as: UInt32.self), size)
            offset = data + ((size + 7) & ~7)
        }
    }
}
