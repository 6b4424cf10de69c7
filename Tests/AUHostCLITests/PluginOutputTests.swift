import Foundation
import Testing

/// Standard output belongs to the command: what a plugin prints there (the chatty fixture
/// prints from instantiate() through stdio and from run() through write(2)) goes to
/// standard error, so `auhost graph P --dot | dot` and render's result lines stay clean.
@Suite struct PluginOutputTests {
    @Test func whatAPluginPrintsNeverReachesStandardOutput() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-chatty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeFixtureBundle("chatty", name: "Fixture Chatty", into: folder)
        let chain = folder.appendingPathComponent("chatty.json").path
        try #"{"auhost": 1, "name": "Chatty", "nodes": [{"id": "chatty", "unit": "lv2:urn:auhost:fixture:chatty"}], "chain": ["chatty"]}"#
            .write(toFile: chain, atomically: true, encoding: .utf8)
        let input = folder.appendingPathComponent("in.wav").path
        try writeAudio(input, sampleRate: 48_000, channels: 1, frames: 4800) { _, frame in Float(frame % 50) / 100 }
        let environment = ["LV2_PATH": folder.path, "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path]

        let dot = try runExecutable(["graph", chain, "--dot"], environment: environment)
        #expect(dot.status == 0, "\(dot.errors)")
        #expect(dot.output.hasPrefix("digraph AudioGraph {") && dot.output.hasSuffix("}\n"), "\(dot.output)")
        #expect(!dot.output.contains("chatty fixture"), "\(dot.output)")
        #expect(dot.errors.contains("chatty fixture: instantiated"), "the plugin's line goes to standard error: \(dot.errors)")

        let output = folder.appendingPathComponent("out.wav").path
        let render = try runExecutable(["render", chain, input, "-o", output, "--tail", "0"], environment: environment)
        #expect(render.status == 0, "\(render.errors)")
        #expect(!render.output.contains("chatty fixture"), "\(render.output)")
        #expect(render.output.split(separator: "\n").count == 1 && render.output.hasPrefix("\(input) -> \(output): "), "\(render.output)")
        #expect(render.errors.contains("chatty fixture: running"), "\(render.errors)")
    }
}
