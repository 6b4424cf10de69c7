/// A channel message other than a paired note, as Core Audio's `MIDIChannelMessage`: a status
/// byte 0x80-0xEF and up to two data bytes (`data2` is 0 for program change and channel
/// pressure). Note-offs that end no pending note are kept as channel messages; a note-on
/// (0x9n with velocity > 0) added as a channel message becomes a note when read back.
/// - Thread: [any]
public struct MIDIChannelMessage: Sendable, Hashable {
    /// The status byte: the message kind in the high nibble, the channel in the low one.
    public var status: UInt8
    /// The first data byte (key, controller, program, pressure, or pitch bend's low 7 bits).
    public var data1: UInt8
    /// The second data byte (velocity, value, or pitch bend's high 7 bits); 0 if none.
    public var data2: UInt8

    /// A message from its raw bytes.
    /// - Thread: [any]
    public init(status: UInt8, data1: UInt8, data2: UInt8 = 0) {
        self.status = status
        self.data1 = data1
        self.data2 = data2
    }

    /// The channel, 0-15.
    /// - Thread: [any]
    public var channel: UInt8 { status & 0x0F }

    /// How many data bytes the message has in a file: 1 for program change and channel
    /// pressure, otherwise 2.
    /// - Thread: [any]
    public var dataByteCount: Int { (status & 0xE0) == 0xC0 ? 1 : 2 }

    /// A note-off (0x8n).
    /// - Thread: [any]
    public static func noteOff(channel: UInt8, note: UInt8, velocity: UInt8) -> Self {
        Self(status: 0x80 | (channel & 0x0F), data1: note, data2: velocity)
    }

    /// A polyphonic key pressure (0xAn).
    /// - Thread: [any]
    public static func polyPressure(channel: UInt8, note: UInt8, pressure: UInt8) -> Self {
        Self(status: 0xA0 | (channel & 0x0F), data1: note, data2: pressure)
    }

    /// A control change (0xBn).
    /// - Thread: [any]
    public static func controlChange(channel: UInt8, controller: UInt8, value: UInt8) -> Self {
        Self(status: 0xB0 | (channel & 0x0F), data1: controller, data2: value)
    }

    /// A program change (0xCn).
    /// - Thread: [any]
    public static func programChange(channel: UInt8, program: UInt8) -> Self {
        Self(status: 0xC0 | (channel & 0x0F), data1: program)
    }

    /// A channel pressure (0xDn).
    /// - Thread: [any]
    public static func channelPressure(channel: UInt8, pressure: UInt8) -> Self {
        Self(status: 0xD0 | (channel & 0x0F), data1: pressure)
    }

    /// A pitch bend (0xEn) of `value` 0-16383 (8192: centre); higher bits are dropped.
    /// - Thread: [any]
    public static func pitchBend(channel: UInt8, value: UInt16) -> Self {
        Self(status: 0xE0 | (channel & 0x0F), data1: UInt8(value & 0x7F),
             data2: UInt8((value >> 7) & 0x7F))
    }

    /// A pitch bend's 14-bit value, `data1 | data2 << 7`.
    /// - Thread: [any]
    public var pitchBendValue: UInt16 { UInt16(data1 & 0x7F) | UInt16(data2 & 0x7F) << 7 }
}
