/// A meta event of a Standard MIDI File (`FF type length data`), as Core Audio's
/// `MIDIMetaEvent`, decoded where the type is known and its length the standard one.
/// End-of-track is not kept as an event: reading turns it into the track's length, and
/// writing ends every track with one (any end-of-track event in a track is skipped).
/// - Thread: [any]
public enum MIDIMetaEvent: Sendable, Hashable {
    /// The kinds of text meta event (types 0x01-0x09).
    /// - Thread: [any]
    public enum TextKind: UInt8, Sendable, Hashable, CaseIterable {
        /// 0x01: any text.
        case text = 0x01
        /// 0x02: a copyright notice.
        case copyright = 0x02
        /// 0x03: the sequence or track name.
        case trackName = 0x03
        /// 0x04: an instrument name.
        case instrumentName = 0x04
        /// 0x05: a lyric syllable.
        case lyric = 0x05
        /// 0x06: a marker (rehearsal letter, section name).
        case marker = 0x06
        /// 0x07: a cue point.
        case cuePoint = 0x07
        /// 0x08: a program name (RP-019).
        case programName = 0x08
        /// 0x09: a device name (RP-019).
        case deviceName = 0x09
    }

    /// 0x00, 2 bytes: the sequence number.
    case sequenceNumber(UInt16)
    /// 0x01-0x09: text, kept as bytes (normally ASCII or UTF-8; see `string`).
    case text(TextKind, [UInt8])
    /// 0x20, 1 byte: the MIDI channel (0-15) the following meta and sysex events are for.
    case channelPrefix(UInt8)
    /// 0x21, 1 byte: the MIDI port (cable) of the track.
    case port(UInt8)
    /// 0x2F: end of track (see the type's note: never kept in a track by reading).
    case endOfTrack
    /// 0x51, 3 bytes: microseconds per quarter note (24 bits). On a sequence's tempo track
    /// reading gives `ExtendedTempoEvent`s instead, except for files with an SMPTE division.
    case tempo(microsecondsPerQuarterNote: UInt32)
    /// 0x54, 5 bytes: the SMPTE time the track starts at (`hours` includes the rate bits).
    case smpteOffset(hours: UInt8, minutes: UInt8, seconds: UInt8, frames: UInt8, subframes: UInt8)
    /// 0x58, 4 bytes: a time signature.
    case timeSignature(MIDITimeSignature)
    /// 0x59, 2 bytes: sharps (positive) or flats (negative), and major or minor.
    case keySignature(sharpsOrFlats: Int8, isMinor: Bool)
    /// 0x7F: sequencer-specific data, kept raw.
    case sequencerSpecific([UInt8])
    /// Any other meta event kept raw: types without a case, and known types whose length or
    /// content is not the standard one (reading gives the case whenever it fits).
    case raw(type: UInt8, data: [UInt8])

    /// Decodes a meta event of `metaEventType` with `data` (the bytes after the length).
    /// - Thread: [any]
    public init(metaEventType type: UInt8, data: [UInt8]) {
        switch (type, data.count) {
        case (0x00, 2):
            self = .sequenceNumber(UInt16(data[0]) << 8 | UInt16(data[1]))
        case (0x01...0x09, _):
            self = TextKind(rawValue: type).map { .text($0, data) } ?? .raw(type: type, data: data)
        case (0x20, 1):
            self = .channelPrefix(data[0])
        case (0x21, 1):
            self = .port(data[0])
        case (0x2F, 0):
            self = .endOfTrack
        case (0x51, 3):
            self = .tempo(microsecondsPerQuarterNote:
                UInt32(data[0]) << 16 | UInt32(data[1]) << 8 | UInt32(data[2]))
        case (0x54, 5):
            self = .smpteOffset(hours: data[0], minutes: data[1], seconds: data[2],
                                frames: data[3], subframes: data[4])
        case (0x58, 4):
            self = .timeSignature(MIDITimeSignature(
                numerator: data[0], denominatorPower: data[1], clocksPerClick: data[2],
                thirtySecondNotesPerQuarter: data[3]))
        case (0x59, 2) where data[1] <= 1:
            self = .keySignature(sharpsOrFlats: Int8(bitPattern: data[0]), isMinor: data[1] == 1)
        case (0x7F, _):
            self = .sequencerSpecific(data)
        default:
            self = .raw(type: type, data: data)
        }
    }

    /// A text meta event of `kind` holding `string` as UTF-8.
    /// - Thread: [any]
    public static func text(_ kind: TextKind, string: String) -> Self {
        .text(kind, Array(string.utf8))
    }

    /// The type byte written after `FF`.
    /// - Thread: [any]
    public var metaEventType: UInt8 {
        switch self {
        case .sequenceNumber: 0x00
        case .text(let kind, _): kind.rawValue
        case .channelPrefix: 0x20
        case .port: 0x21
        case .endOfTrack: 0x2F
        case .tempo: 0x51
        case .smpteOffset: 0x54
        case .timeSignature: 0x58
        case .keySignature: 0x59
        case .sequencerSpecific: 0x7F
        case .raw(let type, _): type
        }
    }

    /// The bytes written after the length.
    /// - Thread: [any]
    public var data: [UInt8] {
        switch self {
        case .sequenceNumber(let number): [UInt8(number >> 8), UInt8(number & 0xFF)]
        case .text(_, let bytes): bytes
        case .channelPrefix(let channel): [channel]
        case .port(let port): [port]
        case .endOfTrack: []
        case .tempo(let micros):
            [UInt8((micros >> 16) & 0xFF), UInt8((micros >> 8) & 0xFF), UInt8(micros & 0xFF)]
        case .smpteOffset(let hours, let minutes, let seconds, let frames, let subframes):
            [hours, minutes, seconds, frames, subframes]
        case .timeSignature(let signature):
            [signature.numerator, signature.denominatorPower, signature.clocksPerClick,
             signature.thirtySecondNotesPerQuarter]
        case .keySignature(let sharpsOrFlats, let isMinor):
            [UInt8(bitPattern: sharpsOrFlats), isMinor ? 1 : 0]
        case .sequencerSpecific(let bytes): bytes
        case .raw(_, let bytes): bytes
        }
    }

    /// A text event's bytes decoded as UTF-8 (invalid bytes replaced); nil for other kinds.
    /// - Thread: [any]
    public var string: String? {
        guard case .text(_, let bytes) = self else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
