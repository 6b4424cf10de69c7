import Foundation

/// What the seeded fuzzers share: a reproducible generator, the long-mode settings from the
/// environment and the byte mutations every binary format gets.
public enum Fuzz {
    /// The same variants on every run (SplitMix64).
    public struct SeededGenerator: RandomNumberGenerator {
        public var state: UInt64
        public init(state: UInt64) { self.state = state }
        public mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// `AUHOST_FUZZ_ITERATIONS` (or `defaultIterations`), the generator seeded from
    /// `AUHOST_FUZZ_SEED` (or `defaultSeed`), and whether the long mode was asked for.
    public static func settings(defaultIterations: Int, defaultSeed: UInt64) -> (iterations: Int, random: SeededGenerator, isLong: Bool) {
        let environment = ProcessInfo.processInfo.environment
        let iterations = environment["AUHOST_FUZZ_ITERATIONS"].flatMap(Int.init) ?? defaultIterations
        let seed = environment["AUHOST_FUZZ_SEED"].flatMap(UInt64.init) ?? defaultSeed
        return (iterations, SeededGenerator(state: seed), environment["AUHOST_FUZZ_ITERATIONS"] != nil)
    }

    /// One line of outcome counts, most frequent first (printed in the long mode).
    public static func report(_ name: String, iterations: Int, _ outcomes: [String: Int]) -> String {
        "\(name): \(iterations) variants: " + outcomes.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    /// One byte-level mutation of `bytes` within `range` (the whole file by default): a
    /// flipped bit, an inserted or replaced byte, a deleted run, a truncation, a big-endian
    /// 32-bit 0xFFFFFFFF or 0x7FFFFFFF or 0x80000000 written over four bytes, or a piece
    /// repeated elsewhere.
    public static func mutateBytes(_ bytes: [UInt8], within range: Range<Int>? = nil, using random: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        let limit = min(bytes.count, range?.upperBound ?? bytes.count)
        let lower = min(range?.lowerBound ?? 0, limit)
        func position() -> Int { limit > lower ? Int.random(in: lower..<limit, using: &random) : min(lower, bytes.count) }
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            if limit > lower { bytes[position()] ^= 1 << UInt8.random(in: 0..<8, using: &random) }
        case 1:
            bytes.insert(UInt8.random(in: 0...255, using: &random), at: position())
        case 2:
            if limit > lower { bytes[position()] = [0x00, 0xFF, 0x7F, 0x80, 0x01, 0xFE].randomElement(using: &random)! }
        case 3:
            let start = position()
            bytes.removeSubrange(start..<min(bytes.count, start + Int.random(in: 1...16, using: &random)))
        case 4:
            bytes.removeSubrange(Int.random(in: 0...bytes.count, using: &random)...)
        case 5:
            let start = position()
            let word: [UInt8] = [[0xFF, 0xFF, 0xFF, 0xFF], [0x7F, 0xFF, 0xFF, 0xFF], [0x80, 0, 0, 0], [0, 0, 0, 0]].randomElement(using: &random)!
            let end = min(bytes.count, start + 4)
            bytes.replaceSubrange(start..<end, with: word[0..<(end - start)])
        case 6:
            if limit > lower {
                let value = UInt8.random(in: 0...255, using: &random)
                let start = position()
                bytes.replaceSubrange(start..<min(bytes.count, start + Int.random(in: 1...8, using: &random)), with: [UInt8](repeating: value, count: min(bytes.count, start + 8) - start))
            }
        default:
            guard bytes.count > 2 else { break }
            let start = Int.random(in: 0..<bytes.count, using: &random)
            let piece = Array(bytes[start..<min(bytes.count, start + Int.random(in: 1...64, using: &random))])
            bytes.insert(contentsOf: piece, at: position())
        }
        return bytes
    }
}
