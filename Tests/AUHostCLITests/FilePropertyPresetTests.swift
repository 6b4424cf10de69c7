import AUCore
import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Testing

/// An LV2 plugin's file property from a preset: x42 convoLV2's impulse response named in
/// `parameters`, relative to the preset's folder, convolves a click into that response;
/// `save` writes it back as written; a missing file is one error at its JSON path.
@Suite struct FilePropertyPresetTests {
    static let convolver = "lv2:http://gareus.org/oss/lv2/convoLV2#Mono"
    static var installed: Bool { FileManager.default.fileExists(atPath: "/usr/lib/lv2/convo.lv2") }

    /// A decaying noise burst of 2400 frames, fixed seed.
    static func impulseResponse() -> [Float] {
        var random = Fuzz.SeededGenerator(state: 17)
        return (0..<2_400).map { frame in Float(Double(random.next() >> 11) / Double(1 << 53) - 0.5) * Float(exp(-Double(frame) / 400)) }
    }

    @Test("a preset's \"parameters\": {\"impulse\": \"irs/room.wav\"} makes a click into that response; save keeps the path as written",
          .enabled(if: installed, "x42-plugins (convoLV2) is not installed"))
    func impulseResponseFromAPreset() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("irs"), withIntermediateDirectories: true)
        let response = Self.impulseResponse()
        try writeAudio(folder.file("irs/room.wav"), sampleRate: 48_000, channels: 1, frames: response.count) { _, frame in response[frame] }
        try writeAudio(folder.file("click.wav"), sampleRate: 48_000, channels: 1, frames: 9_600) { _, frame in frame == 0 ? 1 : 0 }
        let preset = try folder.preset("convolve.json", #"{"auhost": 1, "name": "Room", "nodes": [{"id": "ir", "unit": "\#(Self.convolver)", "parameters": {"impulse": "irs/room.wav"}}], "chain": ["ir"]}"#)
        let result = render([preset, folder.file("click.wav"), "-o", folder.file("out.wav"), "--tail", "0", "--bit-depth", "32f"])
        #expect(result.status == 0, "\(result.errors)")
        let output = try readAudio(folder.file("out.wav")).samples[0]
        let correlation = Self.correlation(Array(output.prefix(response.count)), response)
        #expect(correlation > 0.99, "correlation \(correlation)")
        let saved = try runExecutable(["save", preset, folder.file("saved.json")])
        #expect(saved.status == 0, "\(saved.errors)")
        #expect(try String(contentsOfFile: folder.file("saved.json"), encoding: .utf8).contains(#""impulse": "irs/room.wav""#))
        let missing = try folder.preset("missing.json", #"{"auhost": 1, "name": "Room", "nodes": [{"id": "ir", "unit": "\#(Self.convolver)", "parameters": {"impulse": "nowhere.wav"}}], "chain": ["ir"]}"#)
        let refused = render([missing, folder.file("click.wav"), "-o", folder.file("x.wav")])
        #expect(refused.status != 0 && refused.errors.contains("nodes[0].parameters.impulse") && refused.errors.contains("nowhere.wav"), "\(refused.errors)")
    }
    @Test("render --set ir.impulse=other.wav takes the file from the current directory and convolves the click into it, not into the preset's",
          .enabled(if: installed, "x42-plugins (convoLV2) is not installed"))
    func impulseResponseFromSet() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("here"), withIntermediateDirectories: true)
        let room = Self.impulseResponse()
        // Another response: the room's reversed in time, so the two are far apart.
        let other = Array(room.reversed())
        try writeAudio(folder.file("room.wav"), sampleRate: 48_000, channels: 1, frames: room.count) { _, frame in room[frame] }
        try writeAudio(folder.file("here/other.wav"), sampleRate: 48_000, channels: 1, frames: other.count) { _, frame in other[frame] }
        try writeAudio(folder.file("click.wav"), sampleRate: 48_000, channels: 1, frames: 9_600) { _, frame in frame == 0 ? 1 : 0 }
        let preset = try folder.preset("convolve.json", #"{"auhost": 1, "name": "Room", "nodes": [{"id": "ir", "unit": "\#(Self.convolver)", "parameters": {"impulse": "room.wav"}}], "chain": ["ir"]}"#)
        let result = try runProcess(
            try auhostExecutable(), ["render", preset, folder.file("click.wav"), "-o", folder.file("out.wav"), "--tail", "0", "--bit-depth", "32f", "--set", "ir.impulse=other.wav"],
            directory: URL(fileURLWithPath: folder.file("here")))
        #expect(result.status == 0, "\(result.errors)")
        let output = Array(try readAudio(folder.file("out.wav")).samples[0].prefix(other.count))
        #expect(Self.correlation(output, other) > 0.99, "correlation with other.wav \(Self.correlation(output, other))")
        #expect(Self.correlation(output, room) < 0.5, "correlation with the preset's room.wav \(Self.correlation(output, room))")
    }

    /// The correlation coefficient of `a` and `b` about zero.
    static func correlation(_ a: [Float], _ b: [Float]) -> Double {
        let dot = zip(a, b).reduce(0) { $0 + Double($1.0) * Double($1.1) }
        let norm = (a.reduce(0) { $0 + Double($1) * Double($1) } * b.reduce(0) { $0 + Double($1) * Double($1) }).squareRoot()
        return norm > 0 ? dot / norm : 0
    }
}
