import AUMIDI
import AUTestSupport
import Testing

/// `AUHOST_FUZZ_ITERATIONS=N` reads N mutations (and `AUHOST_FUZZ_SEED` another seed) and
/// prints the counts: `AUHOST_FUZZ_ITERATIONS=1000000 swift test --filter AUMIDITests.FuzzTests`.
@Suite("Fuzzing")
struct FuzzTests {
    /// Mutates `bytes` one to four times: bit flips, byte sets (0x00, 0x7F, 0x80, 0xFF or any),
    /// insertions, deletions, truncations, chunk lengths and the track count set to extremes.
    func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        // Half the files get one mutation, so that enough of them still parse.
        for _ in 0..<([1, 1, 1, 2, 3, 4].randomElement(using: &random) ?? 1) {
            guard !bytes.isEmpty else { break }
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<8, using: &random) {
            case 0:
                bytes[at] ^= 1 << UInt8.random(in: 0..<8, using: &random)
            case 1:
                bytes[at] = [0x00, 0x7F, 0x80, 0xFF, UInt8.random(in: 0...255, using: &random)]
                    .randomElement(using: &random) ?? 0
            case 2:
                let count = Int.random(in: 1...8, using: &random)
                bytes.insert(contentsOf: (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }, at: at)
            case 3:
                bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...16, using: &random)))
            case 4:
                bytes.removeSubrange(at...)
            case 5, 6:
                // A chunk's 4-byte length (the header's or a track's) set to an extreme.
                var chunks: [Int] = []
                var index = 0
                while index + 8 <= bytes.count {
                    if bytes[index] == 0x4D && bytes[index + 1] == 0x54 { chunks.append(index + 4) }
                    index += 1
                }
                guard let field = chunks.randomElement(using: &random) else { continue }
                let value: UInt32 = [0, 1, 5, 0x7FFF_FFFF, 0xFFFF_FFFF, UInt32.random(in: 0...0xFFFF, using: &random)]
                    .randomElement(using: &random) ?? 0
                for byte in 0..<4 { bytes[field + byte] = UInt8((value >> (24 - 8 * UInt32(byte))) & 0xFF) }
            default:
                // The track count, or a run of 0xFF (variable-length quantities, metas).
                if bytes.count >= 12 && Bool.random(using: &random) {
                    bytes[10] = 0xFF
                    bytes[11] = [0xFF, 0x00, 0x02].randomElement(using: &random) ?? 0
                } else {
                    for index in at..<min(bytes.count, at + 5) { bytes[index] = 0xFF }
                }
            }
        }
        return bytes
    }

    @Test("mutated files (10,000 by default) each parse or throw MIDIFileError, each within 1 second")
    func mutatedFiles() throws {
        let seeds: [[UInt8]] = [
            try Fixtures.everyKindSequence().fileBytes(format: .multipleTracks),
            try Fixtures.everyKindSequence().fileBytes(format: .multipleTracks, runningStatus: true),
            try Fixtures.singleTrackSequence().fileBytes(format: .singleTrack),
            try Fixtures.independentSequence().fileBytes(format: .independentTracks),
        ]
        let (iterations, seeded, isLong) = Fuzz.settings(defaultIterations: 10_000, defaultSeed: 0x5EED_AD1D)
        let isDefault = !isLong && seeded.state == 0x5EED_AD1D
        var random = seeded
        let clock = ContinuousClock()
        var slowest = Duration.zero
        var parsed = 0
        var refused = 0
        var rewritten = 0
        for _ in 0..<iterations {
            let bytes = mutate(seeds[Int.random(in: 0..<seeds.count, using: &random)], &random)
            let start = clock.now
            let result = Result { () throws(MIDIFileError) in try MusicSequence.load(bytes: bytes) }
            slowest = max(slowest, clock.now - start)
            switch result {
            case .success(let sequence):
                parsed += 1
                // What was read must write, and what was written must read.
                if let written = try? sequence.fileBytes() {
                    rewritten += 1
                    #expect(throws: Never.self) { try MusicSequence.load(bytes: written) }
                }
            case .failure(let error):
                refused += 1
                #expect(error.offset.map { $0 >= 0 && $0 <= bytes.count } == true, "a malformed file is refused at a byte of it")
                #expect(!error.message.isEmpty)
            }
        }
        #expect(rewritten == parsed, "parsed \(parsed), rewritten \(rewritten)")
        #expect(slowest < .seconds(1), "slowest parse: \(slowest)")
        #expect(parsed + refused == iterations)
        // Seed 0x5EEDAD1D gives 971 parsed, 9029 refused (all 971 rewritten and read back),
        // slowest parse about 2 ms in a debug build: pinned, so a change in what is accepted shows.
        if isDefault { #expect(parsed == 971 && refused == 9029, "parsed \(parsed), refused \(refused)") }
        if isLong {
            print(Fuzz.report("MIDI file fuzz (AUMIDI)", iterations: iterations, ["parsed": parsed, "refused": refused, "rewritten": rewritten]) + ", slowest parse \(slowest)")
        }
    }
}
