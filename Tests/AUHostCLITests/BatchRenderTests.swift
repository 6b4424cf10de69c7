import AUHost
import AUTestSupport
import Foundation
import Synchronization
import Testing

/// Batches in daily use: `--output-dir` is made when missing, `--skip-existing` renders only
/// what a rerun still needs (and never touches what is there), and a batch ends with one
/// summary line.
@Suite struct BatchRenderTests {
    /// Three short inputs and the gain chain in a new folder.
    static func batch() throws -> (folder: TemporaryFolder, chain: String, inputs: [String]) {
        let folder = try TemporaryFolder()
        let inputs = try ["a", "b", "c"].map { name in
            let path = folder.file("\(name).wav")
            try writeAudio(path, sampleRate: 48_000, channels: 2, frames: 4800) { _, frame in Float(frame % 100) / 200 }
            return path
        }
        return (folder, try folder.preset("gain.json", preset(gainNode, chain: ["gain"])), inputs)
    }

    @Test func theOutputFolderIsMadeWhenMissingAndTheBatchIsSummed() throws {
        let (folder, chain, inputs) = try Self.batch()
        defer { folder.remove() }
        let result = try runExecutable(["render", chain] + inputs + ["--output-dir", folder.file("out/takes"), "--tail", "0"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(folder.contents("out/takes") == ["a.wav", "b.wav", "c.wav"])
        let last = result.output.split(separator: "\n").last.map(String.init) ?? ""
        // 3 × 0.1 s of audio.
        #expect(last.hasPrefix("batch: 3 of 3 files rendered, 0:00.3 of audio in "), "\(result.output)")
        #expect(last.hasSuffix("× real time"), "\(result.output)")
    }

    @Test func skipExistingRendersWhatARerunStillNeedsAndKeepsTheRest() throws {
        let (folder, chain, inputs) = try Self.batch()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: false)
        try Data("the user's own take".utf8).write(to: URL(fileURLWithPath: folder.file("out/b.wav")))
        let arguments = ["render", chain] + inputs + ["--output-dir", folder.file("out"), "--tail", "0", "--skip-existing"]
        let first = try runExecutable(arguments)
        #expect(first.status == 0, "\(first.errors)")
        #expect(folder.contents("out") == ["a.wav", "b.wav", "c.wav"])
        #expect(FileManager.default.contents(atPath: folder.file("out/b.wav")) == Data("the user's own take".utf8), "an existing output is never touched")
        #expect(try readAudio(folder.file("out/c.wav")).samples[0].count == 4800)
        #expect(first.output.split(separator: "\n").last?.hasPrefix("batch: 2 of 3 files rendered (1 skipped), 0:00.2 of audio in ") == true, "\(first.output)")
        // A second run has nothing left to do.
        let again = try runExecutable(arguments)
        #expect(again.status == 0, "\(again.errors)")
        #expect(again.output == "batch: 0 of 3 files rendered (3 skipped), 0:00.0 of audio in 0.0 s\n", "\(again.output)")
        // Without the flag, existing outputs are still refused, one line each.
        let refused = try runExecutable(["render", chain] + inputs + ["--output-dir", folder.file("out"), "--tail", "0"])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("already exists; pass --force to replace it"), "\(refused.errors)")
    }

    @Test func forceAndSkipExistingAreAUsageError() throws {
        let (folder, chain, inputs) = try Self.batch()
        defer { folder.remove() }
        let result = try runExecutable(["render", chain] + inputs + ["--output-dir", folder.file("out"), "--force", "--skip-existing"])
        #expect(result.status == 64)
        #expect(result.errors.contains("--force and --skip-existing cannot be used together"), "\(result.errors)")
    }

    @Test func theSummaryLineSaysWhatTheBatchDid() {
        var summary = BatchSummary(outcomes: [], skipped: 1, elapsedSeconds: 2)
        summary.rendered = 2
        summary.failed = 1
        summary.audioSeconds = 8.4
        #expect(summary.text == "batch: 2 of 4 files rendered (1 failed, 1 skipped), 0:08.4 of audio in 2.0 s, 4.2× real time")
        #expect(BatchSummary(outcomes: [], skipped: 0, elapsedSeconds: 0).text == "batch: 0 of 0 files rendered, 0:00.0 of audio in 0.0 s")
    }

    @Test("an interrupted batch prints one line for what was not rendered, not one per file")
    func anInterruptedBatchPrintsOneLine() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inputs = try (0..<300).map { index in
            let path = folder.file("in\(index).wav")
            try writeAudio(path, sampleRate: 48_000, channels: 1, frames: 12_000) { _, frame in Float(frame % 100) / 200 }
            return path
        }
        let chain = try folder.preset("gain.json", preset(gainNode, chain: ["gain"]))
        let process = Process()
        process.executableURL = try auhostExecutable()
        process.arguments = ["render", chain] + inputs + ["--output-dir", folder.file("out"), "--jobs", "1"]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let printed = Mutex(""), errorText = Mutex("")
        output.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            printed.withLock { $0 += text }
        }
        errors.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            errorText.withLock { $0 += text }
        }
        try ChildProcess.launch(process)
        // Interrupted once the first file is out.
        let deadline = Date().addingTimeInterval(60)
        while printed.withLock({ !$0.contains("\n") }), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        process.interrupt()
        #expect(ChildProcess.waitForExit(process, timeout: 30), "auhost did not stop after the interrupt")
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
        let rest = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = (errorText.withLock { $0 } + rest).split(separator: "\n").filter { !$0.contains("\r") && !$0.isEmpty }
        #expect(process.terminationStatus != 0)
        #expect(lines.count == 1 && lines.first?.contains("interrupted;") == true, "\(lines)")
    }
}
