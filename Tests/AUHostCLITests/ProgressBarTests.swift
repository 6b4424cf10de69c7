@testable import AUHostCLI
import Foundation
import Testing

@Suite struct ProgressBarTests {
    @Test func lineText() {
        #expect(ProgressBar.line(label: "a.wav", completed: 45, total: 100, width: 10) == "a.wav [####......]  45%")
        #expect(ProgressBar.line(label: "a.wav", completed: 0, total: 0, width: 4) == "a.wav [....]   0%")
        #expect(ProgressBar.line(label: "x", completed: 500, total: 100, width: 4) == "x [####] 100%")
    }

    @Test func theStatusFollowsThePercentage() {
        #expect(ProgressBar.line(label: "a.wav  2/5 files", completed: 45, total: 100, width: 4, status: "ETA 0:42")
            == "a.wav  2/5 files [#...]  45%  ETA 0:42")
        #expect(ProgressBar.line(label: "a", completed: 1, total: 2, width: 2, status: "") == "a [#.]  50%")
    }

    /// The time left at the speed so far, from the work done and the time it took.
    @Test func theEstimateIsTheTimeLeftAtTheSpeedSoFar() {
        // 10 of 100 seconds of audio in 5 s: 90 more take 45 s.
        #expect(ProgressBar.remaining(done: 10, total: 100, elapsedSeconds: 5) == "ETA 0:45")
        #expect(ProgressBar.remaining(done: 50, total: 100, elapsedSeconds: 61) == "ETA 1:01")
        #expect(ProgressBar.remaining(done: 1, total: 100, elapsedSeconds: 0) == nil)
        #expect(ProgressBar.remaining(done: 3, total: 60, elapsedSeconds: 200) == "ETA 1:03:20")
        #expect(ProgressBar.remaining(done: 100, total: 100, elapsedSeconds: 9) == "ETA 0:00")
        // Before a few percent the first speed says little: no estimate.
        #expect(ProgressBar.remaining(done: 2.9, total: 100, elapsedSeconds: 1) == nil)
        #expect(ProgressBar.remaining(done: 3, total: 100, elapsedSeconds: 1) == "ETA 0:33")
        #expect(ProgressBar.remaining(done: 0, total: 0, elapsedSeconds: 1) == nil)
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
