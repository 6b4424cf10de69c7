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
}
