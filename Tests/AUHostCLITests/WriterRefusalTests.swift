import AUCore
import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Testing

/// `graph --svg`, `save` and `render -o` never write over a FIFO nor over their own input,
/// and a preset path that is no regular file says what it is.
@Suite struct WriterRefusalTests {
    private static let preset = #"{"auhost": 1, "name": "Split", "nodes": [{"id": "s", "unit": "aufx:splt:AUHs"}], "chain": ["s"]}"#

    /// A folder with the preset and a FIFO, deleted afterwards.
    private func inFolder(_ body: (_ folder: String, _ preset: String, _ fifo: String) throws -> Void) throws {
        let folder = try TemporaryFolder(prefix: "auhost-refusal")
        defer { folder.remove() }
        let preset = try folder.write("chain.json", Self.preset)
        let fifo = folder.file("pipe")
        try #require(mkfifo(fifo, 0o600) == 0)
        try body(folder.path, preset, fifo)
    }

    private func isFIFO(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
    }

    @Test func graphSVGNeverReplacesItsPresetNorAFIFO() throws {
        try inFolder { _, preset, fifo in
            let own = runCLI("graph", preset, "--svg", preset)
            #expect(own.status == 1)
            #expect(own.errors.contains("\(preset): is the input '\(preset)'"), "\(own.errors)")
            #expect(FileManager.default.contents(atPath: preset) == Data(Self.preset.utf8))
            let pipe = runCLI("graph", preset, "--svg", fifo)
            #expect(pipe.status == 1)
            #expect(pipe.errors.contains("\(fifo): is a FIFO, not a file"), "\(pipe.errors)")
            #expect(isFIFO(fifo))
        }
    }

    @Test func saveNeverReplacesItsPresetNorAFIFO() throws {
        try inFolder { _, preset, fifo in
            let own = runCLI("save", preset, preset, "--force")
            #expect(own.status == 1)
            #expect(own.errors.contains("is the preset being saved"), "\(own.errors)")
            #expect(FileManager.default.contents(atPath: preset) == Data(Self.preset.utf8))
            let pipe = runCLI("save", preset, fifo, "--force")
            #expect(pipe.status == 1)
            #expect(pipe.errors.contains("is a FIFO, not a file"), "\(pipe.errors)")
            #expect(isFIFO(fifo))
        }
    }

    @Test func renderNeverReplacesAFIFONorItsPreset() throws {
        try inFolder { folder, preset, fifo in
            let input = folder + "/in.wav"
            let writer = try AudioFileWriter(path: input, encoding: try AudioFileEncoding(format: .wav, bitDepth: .int16), sampleRate: 48_000, channels: 1)
            let silence = OwnedAudioBuffers(channels: 1, capacity: 480)
            try writer.write(silence.buffers(frameCount: 480))
            try writer.finish()
            let pipe = runCLI("render", preset, input, "-o", fifo, "--force")
            #expect(pipe.status == 1)
            #expect(pipe.errors.contains("is a FIFO, not a file"), "\(pipe.errors)")
            #expect(isFIFO(fifo))
            // The preset under a second name with an audio extension (a hard link: the same
            // file), since -o chain.json is refused for its extension before any file is opened.
            let alias = folder + "/chain-link.wav"
            try FileManager.default.linkItem(atPath: preset, toPath: alias)
            let own = runCLI("render", preset, input, "-o", alias, "--force")
            #expect(own.status == 1)
            #expect(own.errors.contains("is the input '\(preset)'"), "\(own.errors)")
            #expect(FileManager.default.contents(atPath: preset) == Data(Self.preset.utf8))
        }
    }

    @Test(arguments: [("/dev/zero", "is a character device, not a preset file"), ("FIFO", "is a FIFO, not a preset file")])
    func aPresetPathThatIsNoFileSaysWhatItIs(path: String, message: String) throws {
        try inFolder { _, _, fifo in
            let named = path == "FIFO" ? fifo : path
            let result = runCLI("graph", named)
            #expect(result.status == 1)
            #expect(result.errors.contains("\(named): \(message)"), "\(result.errors)")
        }
    }

    /// A splitter wired to thousands of outputs: the problems are many, the lines are not.
    @Test func thousandsOfBadConnectionsPrintFiftyLinesAndACount() throws {
        try inFolder { folder, _, _ in
            let connections = (0..<3000).map { #"["s:\#($0)", "output:0"]"# }.joined(separator: ", ")
            let preset = folder + "/wide.json"
            try Data(#"{"auhost": 1, "name": "Wide", "nodes": [{"id": "s", "unit": "aufx:splt:AUHs"}], "connections": [["input:0", "s:0"], \#(connections)]}"#.utf8)
                .write(to: URL(fileURLWithPath: preset))
            let result = runCLI("graph", preset)
            #expect(result.status == 1)
            let lines = result.errors.split(separator: "\n")
            #expect(lines.count == 51, "\(lines.count) lines")
            #expect(lines.last?.contains("\(preset): 2949 more problems not shown") == true, "\(lines.last ?? "")")
        }
    }
}
