import AUTestSupport
import Foundation
import Testing

/// `auhost midi info` against issue 35's files: meta events by the ten thousand (each
/// used to rebuild the time-signature map: quadratic), a tempo of 0 microseconds per
/// quarter note ("inf BPM", and an EncodingError with --json), invalid meters (0/0) and track
/// names that carry terminal escape sequences.
@Suite struct MIDIInfoHostileTests {
    /// A format-1 file: the tempo track `tempo` (its events with deltas, End of Track
    /// added), then one track named `name` with one note.
    static func file(tempo: [UInt8], name: [UInt8] = Array("Lead".utf8)) -> [UInt8] {
        func track(_ body: [UInt8]) -> [UInt8] {
            let all = body + [0x00, 0xFF, 0x2F, 0x00]
            return Array("MTrk".utf8) + withUnsafeBytes(of: UInt32(all.count).bigEndian, Array.init) + all
        }
        let named: [UInt8] = [0x00, 0xFF, 0x03, UInt8(name.count)] + name + [0x00, 0x90, 60, 100, 0x60, 0x80, 60, 0]
        return Array("MThd".utf8) + [0, 0, 0, 6, 0, 1, 0, 2, 0, 96] + track(tempo) + track(named)
    }

    func info(_ bytes: [UInt8], json: Bool = false) throws -> (status: Int32, output: String, errors: String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-info-\(UUID().uuidString).mid").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return json ? runCLI("midi", "info", path, "--json") : runCLI("midi", "info", path)
    }

    @Test("40,000 time signatures and 40,000 tempos are listed in time proportional to them")
    func manyMetaEvents() throws {
        var tempo: [UInt8] = []
        for index in 0..<40_000 {
            tempo += [0x01, 0xFF, 0x58, 0x04, UInt8(2 + index % 5), 0x02, 0x18, 0x08]
            tempo += [0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, UInt8(index % 200)]
        }
        let started = ContinuousClock.now
        let result = try info(Self.file(tempo: tempo))
        let elapsed = ContinuousClock.now - started
        #expect(result.status == 0, "\(result.errors)")
        #expect(elapsed < .seconds(20), "\(elapsed) for 80,000 meta events")
    }

    @Test("a tempo of 0 microseconds per quarter note and a meter of 0/0 are ignored as the song ignores them; --json works")
    func zeroTempoAndBadMeters() throws {
        let bytes = Self.file(tempo: [0x00, 0xFF, 0x51, 0x03, 0, 0, 0, 0x00, 0xFF, 0x58, 0x04, 0, 0, 0x18, 0x08, 0x00, 0xFF, 0x58, 0x04, 0xFF, 0xFF, 0x18, 0x08])
        let text = try info(bytes)
        #expect(text.status == 0, "\(text.errors)")
        #expect(!text.output.contains("inf BPM"), "\(text.output)")
        #expect(text.output.contains("  tempo:   120 BPM at 1:1:0 (0.000 s); 1 tempo event of 0 microseconds per quarter note ignored\n"), "\(text.output)")
        #expect(text.output.contains("  meter:   4/4 from bar 1; 2 invalid time signatures (numerator 0, or finer than 1/64) ignored\n"), "\(text.output)")
        let json = try info(bytes, json: true)
        #expect(json.status == 0 && json.errors.isEmpty, "\(json.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect((object["tempos"] as? [[String: Any]])?.map { $0["bpm"] as? Double } == [120])
    }

    @Test("a track name's escape sequences and newlines are printed escaped, never raw")
    func trackNamesAreEscaped() throws {
        let name: [UInt8] = [0x1B, 0x5B, 0x32, 0x4A, 0x1B, 0x5D, 0x30, 0x3B, 0x78, 0x07, 0x0A, 0x6F, 0x6B, 0x5C, 0xC2, 0x9B]
        let result = try info(Self.file(tempo: [], name: name))
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains(#"    1: '\e[2J\e]0;x\x07\nok\\\u{9b}', channel 1"#), "\(result.output)")
        #expect(!result.output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B }, "\(result.output)")
    }
}
