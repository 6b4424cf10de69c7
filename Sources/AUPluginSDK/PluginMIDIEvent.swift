/// A MIDI 1.0 channel message as the unit receives it, at its frame (the SDK's mirror of the
/// host's `MIDIEvent`, without the offset: ``PluginUnit/handleMIDI(_:)`` is called at it).
/// - Thread: [render] (a plain value).
public struct PluginMIDIEvent: Sendable, Equatable {
    public var status: UInt8
    public var data1: UInt8
    public var data2: UInt8

    /// - Thread: [render]
    @inlinable
    public init(status: UInt8, data1: UInt8, data2: UInt8) {
        self.status = status
        self.data1 = data1
        self.data2 = data2
    }

    /// The kind of message: the high nibble of the status byte.
    /// - Thread: [render]
    @inlinable public var command: UInt8 { status & 0xF0 }
    /// The MIDI channel, 0 to 15.
    /// - Thread: [render]
    @inlinable public var channel: UInt8 { status & 0x0F }
    /// A note-on with a velocity above 0.
    /// - Thread: [render]
    @inlinable public var isNoteOn: Bool { command == 0x90 && data2 > 0 }
    /// A note-off, or a note-on with velocity 0.
    /// - Thread: [render]
    @inlinable public var isNoteOff: Bool { command == 0x80 || (command == 0x90 && data2 == 0) }
    /// Control change 123 (all notes off) or 120 (all sound off).
    /// - Thread: [render]
    @inlinable public var isAllNotesOff: Bool { command == 0xB0 && (data1 == 123 || data1 == 120) }
}
