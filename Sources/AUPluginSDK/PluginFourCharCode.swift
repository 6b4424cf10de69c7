/// A Core Audio four-character code (`OSType`; the SDK's mirror of the host's `FourCharCode`): `"aufx"`, `"dely"`, `"AUHs"`, packed
/// big-endian into 32 bits as the C ABI carries it. Shorter codes are padded with spaces.
/// - Thread: [any] (a plain value).
public struct PluginFourCharCode: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: UInt32

    /// - Thread: [any]
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Packs up to four ASCII characters; precondition: 1 to 4 ASCII characters.
    /// - Thread: [any]
    public init(_ text: String) {
        let bytes = Array(text.utf8)
        precondition((1...4).contains(bytes.count) && bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "'\(text)' is not a four-character code")
        var value: UInt32 = 0
        for index in 0..<4 { value = value << 8 | UInt32(index < bytes.count ? bytes[index] : 0x20) }
        rawValue = value
    }

    /// - Thread: [any]
    public init(stringLiteral value: String) { self.init(value) }

    /// - Thread: [any]
    public var description: String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (24 - 8 * $0)) }, as: UTF8.self)
    }

    /// `aufx`: an effect.
    public static let effect: PluginFourCharCode = "aufx"
    /// `aumu`: a music device (an instrument played by MIDI).
    public static let musicDevice: PluginFourCharCode = "aumu"
    /// `augn`: a generator.
    public static let generator: PluginFourCharCode = "augn"
    /// `aumf`: a music effect (an effect that also takes MIDI).
    public static let musicEffect: PluginFourCharCode = "aumf"
    /// `aumi`: a MIDI processor (MIDI in, MIDI out; declare ``UnitDescriptor/sendsMIDI``).
    public static let midiProcessor: PluginFourCharCode = "aumi"
    /// `aumx`: a mixer.
    public static let mixer: PluginFourCharCode = "aumx"
}
