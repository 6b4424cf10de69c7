/// A four-character code (Core Audio's `OSType`), such as `"aufx"` or `"AUHs"`.
///
/// Stored big-endian in a `UInt32`, as Core Audio does: the first character is the most
/// significant byte. `0` is the wildcard in a ``ComponentDescription``.
/// - Thread: [any] (a plain value).
public struct FourCharCode: RawRepresentable, Hashable, Comparable, Sendable, BitwiseCopyable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    public var rawValue: UInt32

    /// - Thread: [any]
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The wildcard (all zero bits).
    public static let wildcard = FourCharCode(rawValue: 0)

    /// Parses one to four printable ASCII characters; shorter codes are padded with
    /// spaces (`"peq"` is `"peq "`). `"*"` and `"0"` are the wildcard. Returns nil otherwise.
    /// - Thread: [any]
    public init?(parsing text: String) {
        if text == "*" || text == "0" { self = .wildcard; return }
        let bytes = Array(text.utf8)
        guard (1...4).contains(bytes.count), bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            return nil
        }
        var value: UInt32 = 0
        for index in 0..<4 {
            value = value << 8 | UInt32(index < bytes.count ? bytes[index] : 0x20)
        }
        rawValue = value
    }

    /// - Thread: [any]
    public init(stringLiteral value: String) {
        guard let code = FourCharCode(parsing: value) else {
            preconditionFailure("'\(value)' is not a four-character code")
        }
        self = code
    }

    /// - Thread: [any]
    public var isWildcard: Bool { rawValue == 0 }

    /// The four characters, or the hexadecimal value when some byte is not printable.
    /// - Thread: [any]
    public var description: String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (24 - 8 * $0)) }
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            return "0x" + String(rawValue, radix: 16, uppercase: false)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// - Thread: [any]
    public static func < (lhs: FourCharCode, rhs: FourCharCode) -> Bool { lhs.rawValue < rhs.rawValue }
}
