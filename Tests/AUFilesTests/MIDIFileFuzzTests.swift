import AUCore
import AUFiles
import AUTestSupport
import Foundation
import Testing

/// A seeded mutation fuzzer over Standard MIDI Files built here (format 0 and 1, running
/// status, meta events, system exclusive, tempo changes, long deltas): flipped, inserted,
/// deleted and replaced bytes, truncations, huge variable-length quantities (0x0FFFFFFF
/// deltas, five-byte numbers) and chunk lengths of 0xFFFFFFFF. Every variant goes through
/// `StandardMIDIFile(data:path:)` in-process and must parse or throw an ``AudioUnitError``; a
/// trap ends the test run, and a parse that does not end stalls it (the parser's loops only
/// move forward through the bytes). A few seconds by default; `AUHOST_FUZZ_ITERATIONS=N`
/// runs N variants (and `AUHOST_FUZZ_SEED` another seed).
@Suite struct MIDIFileFuzzTests {
    /// Valid files exercising every part of the parser.
    static let corpus: [[UInt8]] = [
        SMF.file(format: 0, division: 480, tracks: [SMF.track([
            (0, [0x90, 60, 100]), (480, [62, 90]), (0, SMF.tempo(1_000_000)),
            (0, [0xF0, 0x03, 0x7E, 0x7F, 0xF7]), (480, [0x90, 60, 0]), (240, [0xC0, 5]),
            (0x0FFF_FFFF, [0xB0, 7, 100]), (0, [0xFF, 0x03, 0x04] + Array("Lead".utf8)),
        ])]),
        SMF.file(format: 1, division: 96, tracks: [
            SMF.track([(0, SMF.tempo(250_000)), (192, SMF.tempo(600_000)), (0, [0xFF, 0x58, 0x04, 4, 2, 24, 8])]),
            SMF.track([(96, [0x91, 40, 80]), (96, [0x81, 40, 0]), (0x20_0000, [0xE1, 0x00, 0x40]), (1, [0x7F, 0x7F])]),
            SMF.track([(96, [0x92, 50, 80]), (48, [0x82, 50, 0]), (0, [0xF7, 0x02, 0x01, 0x02]), (16_383, [0xD2, 64])]),
        ]),
        SMF.file(format: 0, division: Int(UInt8(bitPattern: -25)) << 8 | 40, tracks: [SMF.track([(500, [0x90, 64, 64]), (250, [0x80, 64, 0])])]),
    ].map { [UInt8]($0) }

    /// One mutation: a byte-level one, or a MIDI-specific one (a huge or overlong
    /// variable-length number inserted, a chunk length of 0xFFFFFFFF).
    static func mutate(_ bytes: [UInt8], using random: inout Fuzz.SeededGenerator) -> [UInt8] {
        var bytes = bytes
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            let numbers: [[UInt8]] = [[0xFF, 0xFF, 0xFF, 0x7F], [0x80, 0x80, 0x80, 0x80, 0x00], [0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0x8F, 0xFF, 0xFF, 0xFF, 0x7F], [0x83, 0x60]]
            bytes.insert(contentsOf: numbers.randomElement(using: &random)!, at: Int.random(in: min(14, bytes.count)...bytes.count, using: &random))
        case 1:
            let chunks = bytes.indices.filter { $0 + 8 <= bytes.count && (bytes[$0..<$0 + 4].elementsEqual("MTrk".utf8) || bytes[$0..<$0 + 4].elementsEqual("MThd".utf8)) }
            if let chunk = chunks.randomElement(using: &random) {
                let length: [UInt8] = [[0xFF, 0xFF, 0xFF, 0xFF], [0x7F, 0xFF, 0xFF, 0xFF], [0, 0, 0, 0], [0, 0, 0, 5]].randomElement(using: &random)!
                bytes.replaceSubrange(chunk + 4..<chunk + 8, with: length)
            }
        default:
            bytes = Fuzz.mutateBytes(bytes, using: &random)
        }
        return bytes
    }

    /// An error's message without the file name, numbers and the byte position, so that
    /// errors of one kind count together.
    static func kind(of error: AudioUnitError) -> String {
        var text = error.message.replacingOccurrences(of: "fuzz.mid: ", with: "")
        if let open = text.lastIndex(of: "(") { text = String(text[..<open]) }
        return String(text.filter { !$0.isNumber }.prefix(60)).trimmingCharacters(in: .whitespaces)
    }

    @Test func everyMutantParsesOrIsAnAudioUnitError() throws {
        var (iterations, random, isLong) = Fuzz.settings(defaultIterations: 20_000, defaultSeed: 14)
        for bytes in Self.corpus { _ = try StandardMIDIFile(data: Data(bytes), path: "valid.mid") }
        var outcomes: [String: Int] = [:]
        for _ in 0..<iterations {
            var bytes = Self.corpus.randomElement(using: &random)!
            for _ in 0..<Int.random(in: 1...4, using: &random) { bytes = Self.mutate(bytes, using: &random) }
            do {
                let song = try StandardMIDIFile(data: Data(bytes), path: "fuzz.mid")
                #expect(song.duration.isFinite && song.events.allSatisfy { $0.seconds.isFinite && $0.seconds >= 0 })
                outcomes["parsed", default: 0] += 1
            } catch {
                outcomes["error: " + Self.kind(of: error), default: 0] += 1
            }
        }
        #expect(outcomes.values.reduce(0, +) == iterations)
        #expect(outcomes["parsed", default: 0] > 0)
        if isLong { print(Fuzz.report("MIDI file fuzz", iterations: iterations, outcomes)) }
    }
}
