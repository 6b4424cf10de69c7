import AUTestSupport
import Foundation
import Testing

@testable import AUHostCLI

/// What `auhost render`'s bar says, from given numbers (the bar itself draws only on a terminal).
@Suite struct RenderProgressTests {
    @Test func aBatchShowsTheCurrentFileTheFilesDoneAndTheTimeLeft() {
        let text = RenderProgress.text(current: "b.wav", filesDone: 2, files: 5, secondsDone: 30, secondsTotal: 90, elapsedSeconds: 10)
        #expect(text.label == "b.wav  2/5 files")
        #expect(text.status == "ETA 0:20")
    }

    @Test func oneFileShowsItsNameAlone() {
        let text = RenderProgress.text(current: "take.flac", filesDone: 0, files: 1, secondsDone: 6, secondsTotal: 60, elapsedSeconds: 2)
        #expect(text.label == "take.flac")
        #expect(text.status == "ETA 0:18")
    }

    @Test func noEstimateBeforeAFewPercent() {
        let text = RenderProgress.text(current: "a.wav", filesDone: 0, files: 3, secondsDone: 1, secondsTotal: 100, elapsedSeconds: 4)
        #expect(text.label == "a.wav  0/3 files")
        #expect(text.status == "")
    }

    @Test func aLongNameIsCut() {
        let name = String(repeating: "n", count: 60) + ".wav"
        let label = RenderProgress.text(current: name, filesDone: 1, files: 2, secondsDone: 0, secondsTotal: 1, elapsedSeconds: 0).label
        #expect(label == String(repeating: "n", count: RenderProgress.longestName - 1) + "…  1/2 files")
    }

    /// The bar itself, on a terminal: `auhost render` of three files under script(1)'s pty.
    @Test("on a terminal the bar shows the current file, files done of total and an ETA", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func theBarOnATerminal() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inputs = try ["first.wav", "second.wav", "third.wav"].map { name in
            try writeAudio(folder.file(name), sampleRate: 48_000, channels: 1, frames: 96_000) { _, frame in Float(frame % 100) / 400 }
            return folder.file(name)
        }
        let preset = try folder.preset("g.json", #"{"auhost": 1, "name": "G", "nodes": [{"id": "g", "unit": "aufx:gain:AUHs"}], "chain": ["g"]}"#)
        let command = [try auhostExecutable().path, "render", preset] + inputs + ["--output-dir", folder.file("out"), "--tail", "0", "--jobs", "1"]
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/script"), ["-qefc", command.joined(separator: " "), "/dev/null"])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        #expect(result.output.contains("third.wav  2/3 files ["), "\(result.output)")
        #expect(result.output.range(of: #"ETA \d+:\d\d"#, options: .regularExpression) != nil, "\(result.output)")
    }
}
