import AUCore
import AUEngine
@testable import AUPresets
import AUTestSupport
import Foundation
import Testing

/// A seeded mutation fuzzer over the shipped presets (Presets/*.json) and two that load
/// with the fixtures: flipped, inserted and
/// deleted bytes, numbers replaced by extremes, strings by huge ones, deep nesting. Every
/// variant goes through the real loader in-process and must load or throw a
/// ``PresetError``; a trap ends the test run. A few seconds by default;
/// `AUHOST_FUZZ_ITERATIONS=N` runs N variants (and `AUHOST_FUZZ_SEED` another seed).
@Suite struct PresetFuzzTests {
    /// The same variants on every run (SplitMix64).
    typealias SeededGenerator = Fuzz.SeededGenerator

    static let extremes = [
        "1e308", "-1e308", "-1", "0", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "99999999999999999999999", "5e-324", "1e-300", "1536000", "4294967296", "-0", "1.7976931348623157e308",
    ]

    /// The shipped presets, beside this package's Tests folder.
    static func shippedPresets() throws -> [(name: String, bytes: [UInt8])] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Presets")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { ($0, [UInt8](try Data(contentsOf: folder.appendingPathComponent($0)))) }
    }

    /// Presets that load with this suite's registry (fixtures and built-in units), so that
    /// variants also reach bus growth, parameters and states of real instances.
    static let loadable: [(name: String, bytes: [UInt8])] = [
        ("fixture-chain.json", Array(#"""
        {"auhost": 1, "name": "Fixture chain", "sampleRate": 48000, "nodes": [
          {"id": "eq", "unit": "aufx:fxeq:Test", "parameters": {"gain": -6.5, "freq": 440, "mode": "Warm"}, "preset": "Bass Boost", "bypass": false},
          {"id": "split", "unit": "aufx:splt:AUHs"}], "chain": ["eq", "split"]}
        """#.utf8)),
        ("fixture-graph.json", Array(#"""
        {"auhost": 1, "name": "Fixture graph", "nodes": [
          {"id": "syn", "unit": "augn:fsyn:Test", "parameters": {"volume": 0.25}},
          {"id": "eq", "unit": "aufx:fxeq:Test", "parameters": {"mode": 2}},
          {"id": "mix", "unit": "aumx:fmix:Test"}],
         "connections": [["syn:0", "mix:0"], ["input:0", "eq:0"], ["eq:0", "mix:1"], ["mix:0", "output:0"]]}
        """#.utf8)),
    ]

    /// One mutation of `bytes`.
    static func mutate(_ bytes: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        func position() -> Int { bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random) }
        func replaceToken(where isPart: (UInt8) -> Bool, starts: (UInt8) -> Bool, with text: String) {
            let starts = bytes.indices.filter { starts(bytes[$0]) && ($0 == 0 || !isPart(bytes[$0 - 1])) }
            guard let start = starts.randomElement(using: &random) else { return }
            var end = start
            while end < bytes.count, isPart(bytes[end]) { end += 1 }
            bytes.replaceSubrange(start..<end, with: Array(text.utf8))
        }
        let isNumberPart: (UInt8) -> Bool = { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || "-+.eE".utf8.contains($0) }
        switch Int.random(in: 0..<9, using: &random) {
        case 0:
            if !bytes.isEmpty { bytes[position()] ^= 1 << UInt8.random(in: 0..<8, using: &random) }
        case 1:
            bytes.insert(UInt8.random(in: 0...255, using: &random), at: position())
        case 2:
            let start = position()
            bytes.removeSubrange(start..<min(bytes.count, start + Int.random(in: 1...16, using: &random)))
        case 3, 4:
            replaceToken(where: isNumberPart, starts: { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") },
                         with: extremes.randomElement(using: &random)!)
        case 5:
            // A bus number: the digits after a colon inside a string.
            let colons = bytes.indices.filter { bytes[$0] == UInt8(ascii: ":") && $0 + 1 < bytes.count && isNumberPart(bytes[$0 + 1]) }
            if let colon = colons.randomElement(using: &random) {
                var end = colon + 1
                while end < bytes.count, isNumberPart(bytes[end]) { end += 1 }
                bytes.replaceSubrange(colon + 1..<end, with: Array(extremes.randomElement(using: &random)!.utf8))
            }
        case 6:
            // A string's content replaced by a huge one.
            let quotes = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\"") }
            if let quote = quotes.randomElement(using: &random) {
                bytes.insert(contentsOf: Array(String(repeating: "x", count: Int.random(in: 1_000...20_000, using: &random)).utf8), at: quote + 1)
            }
        case 7:
            let at = position()
            let depth = Int.random(in: 100...5_000, using: &random)
            bytes.insert(contentsOf: Array(String(repeating: "[", count: depth).utf8), at: at)
        default:
            // A piece of the file repeated elsewhere (duplicate keys, nodes, connections).
            guard bytes.count > 2 else { break }
            let start = position()
            let piece = Array(bytes[start..<min(bytes.count, start + Int.random(in: 1...200, using: &random))])
            bytes.insert(contentsOf: piece, at: position())
        }
        return bytes
    }

    @Test func everyMutantLoadsOrIsAPresetError() throws {
        let environment = ProcessInfo.processInfo.environment
        let iterations = environment["AUHOST_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 600
        var random = SeededGenerator(state: environment["AUHOST_FUZZ_SEED"].flatMap(UInt64.init) ?? 14)
        let corpus = try Self.shippedPresets() + Self.loadable
        try #require(!corpus.isEmpty)
        let loader = PresetLoader(registry: makeRegistry())
        for preset in Self.loadable { try loader.load(data: Data(preset.bytes), file: preset.name).dispose() }
        var outcomes: [String: Int] = [:]
        for _ in 0..<iterations {
            let original = corpus.randomElement(using: &random)!
            var bytes = original.bytes
            for _ in 0..<Int.random(in: 1...3, using: &random) { bytes = Self.mutate(bytes, using: &random) }
            do {
                try loader.load(data: Data(bytes), file: original.name).dispose()
                outcomes["loaded", default: 0] += 1
            } catch {
                outcomes[error.problems[0].kind.rawValue, default: 0] += 1
            }
        }
        #expect(outcomes.values.reduce(0, +) == iterations)
        if environment["AUHOST_FUZZ_ITERATIONS"] != nil {
            print("preset fuzz: \(iterations) variants:", outcomes.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
    }
}
