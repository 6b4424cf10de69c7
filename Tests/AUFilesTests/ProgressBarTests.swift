import AUFiles
import Foundation
import Testing

@Suite struct ProgressBarTests {
    @Test func lineText() {
        #expect(ProgressBar.line(label: "a.wav", completed: 45, total: 100, width: 10) == "a.wav [####......]  45%")
        #expect(ProgressBar.line(label: "a.wav", completed: 0, total: 0, width: 4) == "a.wav [....]   0%")
        #expect(ProgressBar.line(label: "x", completed: 500, total: 100, width: 4) == "x [####] 100%")
    }

    /// Reads what the bar wrote into a pipe.
    private func output(isEnabled: Bool?, updates: Int) throws -> String {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let bar = ProgressBar(label: "take", total: updates, width: 20, descriptor: ends[1], isEnabled: isEnabled)
        for done in 0...updates { bar.update(completed: done) }
        bar.finish()
        close(ends[1])
        let data = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true).readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func nothingWhenNotATerminal() throws {
        #expect(try output(isEnabled: nil, updates: 1000) == "", "a pipe is not a terminal")
        #expect(try output(isEnabled: false, updates: 1000) == "")
    }

    @Test func drawsOnlyChangesAndEndsTheLine() throws {
        let text = try output(isEnabled: true, updates: 100_000)
        let redraws = text.filter { $0 == "\r" }.count
        #expect(redraws == 101, "one redraw per percent, not per update")
        #expect(text.hasSuffix("take [####################] 100%\n"))
    }
}
