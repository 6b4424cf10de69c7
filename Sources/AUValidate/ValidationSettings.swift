/// How thoroughly and with what a unit is validated: `auhost validate`'s options.
/// - Thread: [any] (a plain value).
public struct ValidationSettings: Sendable, Equatable {
    /// 1 (quick) to 10 (everything, bit-identical state): a test runs when its own level is
    /// at most this, and several tests do more at higher levels.
    public var strictness: Int
    /// The sample rates the render test covers.
    public var sampleRates: [Double]
    /// The block sizes the render test covers (1 included by default).
    public var blockSizes: [Int]
    /// The seed of every random choice (noise, parameter values, automation offsets).
    public var seed: UInt64

    /// The defaults: strictness 5, 44.1, 48 and 96 kHz, blocks of 1, 17, 64, 512 and 4096 frames.
    /// - Thread: [any]
    public init(strictness: Int = 5, sampleRates: [Double] = [44_100, 48_000, 96_000], blockSizes: [Int] = [1, 17, 64, 512, 4096], seed: UInt64 = 1) {
        self.strictness = strictness
        self.sampleRates = sampleRates
        self.blockSizes = blockSizes
        self.seed = seed
    }

    /// The sample rate every test but the render test uses.
    static let sampleRate = 48_000.0
    /// The block size every test but the render test uses.
    static let blockSize = 512
    /// The strictness from which state must restore bit for bit.
    static let bitIdenticalStrictness = 8

    /// The options a child is given to rebuild these settings.
    /// - Thread: [any]
    public var arguments: [String] {
        ["--strictness", String(strictness), "--sample-rates", sampleRates.map { String(Int($0)) }.joined(separator: ","),
         "--block-sizes", blockSizes.map(String.init).joined(separator: ","), "--seed", String(seed)]
    }
}

/// The generator of every random choice: SplitMix64, seeded per test from the run's seed
/// and the test's name, so that `--only NAME --seed N` repeats exactly what a full run did.
/// - Thread: [any] (a plain value).
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64, test: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in test.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        state = seed ^ hash
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// White noise of peak `amplitude`.
    mutating func noise(_ amplitude: Float = 0.5) -> Float { Float.random(in: -amplitude...amplitude, using: &self) }
}
