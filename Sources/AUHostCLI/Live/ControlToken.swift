/// The secret a control client must send as its first line (`auth TOKEN`) before the
/// control port serves it: 32 random bytes from the system's generator (getrandom), as
/// 64 hexadecimal digits, made fresh for each run and printed on standard error only.
/// - Thread: [any] (a plain value).
public struct ControlToken: Sendable, CustomStringConvertible {
    /// The 64 hexadecimal digits.
    public let description: String

    /// A new random token.
    /// - Thread: [any]
    public init() {
        var generator = SystemRandomNumberGenerator()
        description = (0..<4).map { _ in
            let word = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }.joined()
    }

    /// Whether `candidate` is the token; takes as long whichever character differs.
    /// - Thread: [any]
    public func matches(_ candidate: String) -> Bool {
        let expected = Array(description.utf8), given = Array(candidate.utf8)
        var difference = UInt8(expected.count == given.count ? 0 : 1)
        for index in expected.indices { difference |= expected[index] ^ (index < given.count ? given[index] : 0) }
        return difference == 0
    }
}
