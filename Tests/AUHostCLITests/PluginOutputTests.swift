import AUTestSupport
import Foundation
import Testing

/// Standard output belongs to the command: what a plugin prints there (the chatty fixture
/// prints from instantiate() through stdio and from run() through write(2)) goes to
/// standard error, so `auhost graph P --dot | dot` and render's result lines stay clean;
/// with `--plugin-log FILE` it goes to FILE.
@Suite struct PluginOutputTests {
    /// A folder with the chatty fixture's bundle, a one-node chain of it and a mono input.
    struct ChattyChain {
        let folder: TemporaryFolder
        var chain: String { folder.file("chatty.json") }
        var input: String { folder.file("in.wav") }
        var environment: [String: String] { ["LV2_PATH": folder.path, "XDG_CACHE_HOME": folder.file("cache")] }

        init() throws {
            folder = try TemporaryFolder(prefix: "auhost-chatty")
            try writeFixtureBundle("chatty", name: "Fixture Chatty", into: folder.url)
            try #"{"auhost": 1, "name": "Chatty", "nodes": [{"id": "chatty", "unit": "lv2:urn:auhost:fixture:chatty"}], "chain": ["chatty"]}"#
                .write(toFile: chain, atomically: true, encoding: .utf8)
            try writeAudio(input, sampleRate: 48_000, channels: 1, frames: 4800) { _, frame in Float(frame % 50) / 100 }
        }

        func file(_ name: String) -> String { folder.file(name) }

        func remove() { folder.remove() }
    }

    @Test func whatAPluginPrintsNeverReachesStandardOutput() throws {
        let chatty = try ChattyChain()
        defer { chatty.remove() }
        let dot = try runExecutable(["graph", chatty.chain, "--dot"], environment: chatty.environment)
        #expect(dot.status == 0, "\(dot.errors)")
        #expect(dot.output.hasPrefix("digraph AudioGraph {") && dot.output.hasSuffix("}\n"), "\(dot.output)")
        #expect(!dot.output.contains("chatty fixture"), "\(dot.output)")
        #expect(dot.errors.contains("chatty fixture: instantiated"), "the plugin's line goes to standard error: \(dot.errors)")

        let output = chatty.file("out.wav")
        let render = try runExecutable(["render", chatty.chain, chatty.input, "-o", output, "--tail", "0"], environment: chatty.environment)
        #expect(render.status == 0, "\(render.errors)")
        #expect(!render.output.contains("chatty fixture"), "\(render.output)")
        #expect(render.output.split(separator: "\n").count == 1 && render.output.hasPrefix("\(chatty.input) -> \(output): "), "\(render.output)")
        #expect(render.errors.contains("chatty fixture: running"), "\(render.errors)")
    }

    @Test("--plugin-log FILE: what a plugin prints is appended to FILE, on neither standard output nor standard error")
    func pluginLogTakesWhatAPluginPrints() throws {
        let chatty = try ChattyChain()
        defer { chatty.remove() }
        let log = chatty.file("plugins.log")
        try "an earlier run\n".write(toFile: log, atomically: true, encoding: .utf8)
        let output = chatty.file("out.wav")
        let render = try runExecutable(
            ["render", chatty.chain, chatty.input, "-o", output, "--tail", "0", "--plugin-log", log], environment: chatty.environment)
        #expect(render.status == 0, "\(render.errors)")
        let logged = try String(contentsOfFile: log, encoding: .utf8)
        #expect(logged.hasPrefix("an earlier run\n"), "the log was not appended to: \(logged)")
        #expect(logged.contains("chatty fixture: instantiated") && logged.contains("chatty fixture: running"), "\(logged)")
        #expect(!render.output.contains("chatty fixture") && !render.errors.contains("chatty fixture"), "\(render.output)\n\(render.errors)")
        #expect(render.output.hasPrefix("\(chatty.input) -> \(output): "), "\(render.output)")

        let nowhere = chatty.file("no-such-folder/plugins.log")
        let refused = try runExecutable(["graph", chatty.chain, "--plugin-log", nowhere], environment: chatty.environment)
        #expect(refused.status == 1)
        #expect(refused.errors == "auhost: --plugin-log: cannot open '\(nowhere)' for appending: No such file or directory\n", "\(refused.errors)")
    }

    @Test("a plugin that logged an error and rendered silence is named in the silent-output warning, with what it said")
    func silenceAfterAPluginErrorNamesThePlugin() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let plugins = URL(fileURLWithPath: folder.file("lv2"))
        try writeFixtureBundle("failed-start", name: "Fixture Failed Start", into: plugins)
        let chain = try folder.preset("c.json", #"{"auhost": 1, "name": "C", "nodes": [{"id": "conv", "unit": "lv2:urn:auhost:fixture:failed-start"}], "chain": ["conv"]}"#)
        try writeAudio(folder.file("in.wav"), sampleRate: 48_000, channels: 1, frames: 4_800) { _, frame in Float(frame % 100) / 200 }
        let result = try runProcess(
            try auhostExecutable(), ["render", chain, folder.file("in.wav"), "-o", folder.file("out.wav"), "--tail", "0"],
            environment: ["LV2_PATH": plugins.path, "XDG_CACHE_HOME": folder.file("cache")])
        #expect(result.status == 0, "\(result.errors)")
        let warning = result.errors.split(separator: "\n").first { $0.contains("silent (peak below") } ?? ""
        #expect(warning.contains("'conv' (Fixture Failed Start) logged \"cannot start the convolution thread: Operation not permitted\""), "\(result.errors)")
    }
}
