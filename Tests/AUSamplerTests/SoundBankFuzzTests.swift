import AUCore
import AUSampler
import AUTestSupport
import Foundation
import Testing

/// The sound bank reader against hostile files (issue 35): a sparse bank past the size cap,
/// a symbolic link that loops, and a seeded fuzzer of the RIFF chunk sizes and list names of
/// a small SoundFont. Each variant is refused with one error naming the file, or loads; the
/// sampler keeps playing what it had.
@Suite("Sampler: hostile sound banks")
struct SoundBankFuzzTests {
    @Test("a sparse bank past 1 GiB is refused before it is read, naming its size")
    func bankPastTheSizeCap() throws {
        try withScratchFolder { folder in
            let path = folder.appendingPathComponent("huge.sf2").path
            let size: UInt32 = 0xF000_0000
            var header = Data("RIFF".utf8)
            withUnsafeBytes(of: (size - 8).littleEndian) { header.append(contentsOf: $0) }
            header += Data("sfbk".utf8)
            try header.write(to: URL(fileURLWithPath: path))
            try #require(truncate(path, off_t(size)) == 0)
            let unit = try makeSampler(bank: false)
            defer { unit.dispose() }
            let error = #expect(throws: AudioUnitError.self) { try unit.loadSoundBank(path: path) }
            #expect(error?.message == "sound bank '\(path)' is larger than 1024 MiB (\(size) bytes); expected a SoundFont of at most that size", "\(String(describing: error))")
        }
    }

    @Test("a symbolic link that loops is reported as one, not as a missing file")
    func loopingLink() throws {
        try withScratchFolder { folder in
            let path = folder.appendingPathComponent("loop.sf2").path
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path)
            let unit = try makeSampler(bank: false)
            defer { unit.dispose() }
            let error = #expect(throws: AudioUnitError.self) { try unit.loadSoundBank(path: path) }
            #expect(error?.message == "sound bank '\(path)' is a symbolic link that leads nowhere or loops; expected a SoundFont file", "\(String(describing: error))")
        }
    }

    @Test("a list whose type holds a newline is named by its hexadecimal code, in one line (the long fuzz found it printed raw)")
    func unprintableListTypeIsNotPrintedRaw() throws {
        try withScratchFolder { folder in
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try TestBank.write(.sf2, into: folder))))
            let pdta = try #require((0..<(bytes.count - 4)).first { bytes[$0..<$0 + 4] == ArraySlice("pdta".utf8) })
            bytes[pdta + 2] = 0x0A  // "pd\na"
            let path = folder.appendingPathComponent("newline.sf2").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let unit = try makeSampler(bank: false)
            defer { unit.dispose() }
            let error = #expect(throws: AudioUnitError.self) { try unit.loadSoundBank(path: path) }
            #expect(error?.message == "sound bank '\(path)' is not a complete SoundFont: its lists are INFO, sdta, 0x70640a61, expected INFO, sdta, pdta", "\(String(describing: error))")
        }
    }

    /// The offsets of the RIFF form's chunk headers (size words and list names) in `bytes`:
    /// the top-level lists and the chunks inside them.
    static func chunkHeaders(_ bytes: [UInt8]) -> [Int] {
        func word(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        var headers = [4]
        var offset = 12
        while offset + 12 <= bytes.count {
            headers.append(offset + 4)
            let size = word(offset + 4)
            if bytes[offset..<offset + 4] == ArraySlice("LIST".utf8) {
                headers.append(offset + 8)
                var inner = offset + 12
                while inner + 8 <= min(bytes.count, offset + 8 + size) {
                    headers.append(inner + 4)
                    inner += 8 + word(inner + 4) + word(inner + 4) % 2
                }
            }
            offset += 8 + size + size % 2
        }
        return headers
    }

    @Test("seeded fuzz of SF2 chunk sizes and lists: each variant loads or is one error naming the file; the bank in play keeps playing")
    func fuzzChunkSizesAndLists() throws {
        let (iterations, seeded, isLong) = Fuzz.settings(defaultIterations: TestLength.choose(short: 60, long: 600), defaultSeed: 35)
        var random = seeded
        try withScratchFolder { folder in
            let good = try TestBank.write(.sf2, into: folder)
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
            let headers = Self.chunkHeaders(bytes)
            let unit = try makeSampler(bank: false)
            defer { unit.dispose() }
            try unit.loadSoundBank(path: good)
            let variant = folder.appendingPathComponent("variant.sf2").path
            var outcomes: [String: Int] = [:]
            for _ in 0..<iterations {
                var mutated = bytes
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let at = min(mutated.count, try #require(headers.randomElement(using: &random)))
                    mutated = Fuzz.mutateBytes(mutated, within: at..<min(mutated.count, at + 4), using: &random)
                }
                try Data(mutated).write(to: URL(fileURLWithPath: variant))
                do throws(AudioUnitError) {
                    try unit.loadSoundBank(path: variant)
                    outcomes["loaded", default: 0] += 1
                    try unit.loadSoundBank(path: good)
                } catch {
                    #expect(error.message.contains("'\(variant)'") && !error.message.contains("\n"), "\(error.message)")
                    outcomes["refused: \(error.code)", default: 0] += 1
                }
            }
            #expect(try unit.value(of: SamplerUnit.soundBankURL) == good)
            let played = try renderMono(unit, seconds: 0.3, midi: note(60, seconds: 0.2))
            #expect(played.contains { abs($0) > 0.01 }, "the bank no longer plays")
            if isLong { print(Fuzz.report("sound bank chunks", iterations: iterations, outcomes)) }
        }
    }
}
