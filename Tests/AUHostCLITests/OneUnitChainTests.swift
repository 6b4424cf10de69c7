import AUTestSupport
import Foundation
import Testing

/// One plugin without a preset file: where a command takes PRESET.json, a unit reference
/// (`lv2:URI`, codes or a name) that is no file stands for a chain of that one unit, whose
/// parameters `--set PARAM=VALUE` sets (as lv2file and lv2apply do).
@Suite struct OneUnitChainTests {
    @Test func renderSaveAndGraphTakeAUnitInsteadOfAPreset() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("in.wav")
        try writeAudio(input, sampleRate: 48_000, channels: 2, frames: 4800) { _, _ in 0.5 }
        let render = try runExecutable(["render", "aufx:gain:AUHs", input, "-o", folder.file("out.wav"), "--set", "gain=-6.0206", "--set", "smoothing=0", "--tail", "0"])
        #expect(render.status == 0, "\(render.errors)")
        let samples = try readAudio(folder.file("out.wav")).samples
        #expect(samples[0].allSatisfy { abs($0 - 0.25) < 1e-3 }, "half of 0.5 everywhere")

        let save = try runExecutable(["save", "Gain", folder.file("gain.json"), "--set", "gain=-12"])
        #expect(save.status == 0, "\(save.errors)")
        let saved = try #require(FileManager.default.contents(atPath: folder.file("gain.json")).flatMap { String(data: $0, encoding: .utf8) })
        #expect(saved.contains(#""unit": "Gain""#) && saved.contains(#""gain": -12"#) && saved.contains(#""chain": ["gain"]"#), "\(saved)")
        // The saved preset renders like the unit given on the command line.
        #expect(try runExecutable(["render", folder.file("gain.json"), input, "-o", folder.file("again.wav"), "--tail", "0"]).status == 0)

        let graph = try runExecutable(["graph", "aufx:gain:AUHs"])
        #expect(graph.status == 0 && graph.output.contains("'gain' aufx:gain:AUHs"), "\(graph.output)")
    }

    @Test("render takes an LV2 plugin by lv2:URI and a unit by its name")
    func renderTakesAnLV2URIAndAName() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("in.wav")
        try writeAudio(input, sampleRate: 48_000, channels: 1, frames: 4800) { _, _ in 0.5 }
        for (unit, settings) in [("lv2:http://plugin.org.uk/swh-plugins/amp", ["gain=-6.0206"]), ("Gain", ["gain=-6.0206", "smoothing=0"])] {
            let render = try runExecutable(["render", unit, input, "-o", folder.file("out.wav"), "--tail", "0", "--force"] + settings.flatMap { ["--set", $0] })
            #expect(render.status == 0, "\(unit): \(render.errors)")
            let samples = try readAudio(folder.file("out.wav")).samples
            #expect(samples[0].count == 4800 && samples[0].allSatisfy { abs($0 - 0.25) < 1e-3 }, "\(unit): not half of 0.5 everywhere")
        }
    }

    @Test func neitherAFileNorAUnitIsOneErrorWithTheClosestUnits() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try runExecutable(["render", "Gian", folder.file("in.wav"), "-o", folder.file("out.wav")])
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("auhost: 'Gian' is neither a preset file nor a unit: no unit 'Gian'; closest matches:"), "\(result.errors)")
        // A .json name is always a preset file.
        let missing = try runExecutable(["render", folder.file("nope.json"), folder.file("in.wav"), "-o", folder.file("out.wav")])
        #expect(missing.errors.contains("nope.json: no such file; expected a chain preset (.json)"), "\(missing.errors)")
    }
}
