import Foundation
import Testing
@testable import AULV2

/// How lilv's and serd's messages are taken off standard error while a world loads.
@Suite struct StandardErrorCaptureTests {
    /// The device and inode descriptor 2 refers to.
    private func standardErrorIdentity() -> (UInt, UInt) {
        var status = stat()
        fstat(2, &status)
        return (UInt(status.st_dev), UInt(status.st_ino))
    }

    private func write(_ text: String) {
        text.withCString { _ = Glibc.write(2, $0, strlen($0)) }
    }

    /// Far more than a pipe holds (64 KiB) is taken whole without blocking the writer, and
    /// descriptor 2 is the real standard error again afterwards.
    @Test(.timeLimit(.minutes(1))) func aLargeOutputIsTakenWholeAndDescriptor2IsRestored() {
        let before = standardErrorIdentity()
        let line = String(repeating: "x", count: 99) + "\n"
        let captured = StandardErrorCapture.capturing {
            for _ in 0..<10_000 { write(line) }
            return 7
        }
        #expect(captured.result == 7)
        #expect(captured.text.utf8.count == 1_000_000)
        #expect(standardErrorIdentity() == before)
    }

    /// Two threads capturing at once take turns: each gets exactly what its own body wrote.
    @Test(.timeLimit(.minutes(1))) func concurrentCapturesDoNotMix() async {
        let before = standardErrorIdentity()
        let texts = await withTaskGroup(of: (Int, String).self) { group in
            for index in 0..<8 {
                group.addTask {
                    let captured = StandardErrorCapture.capturing {
                        for _ in 0..<50 { write("capture \(index)\n") }
                    }
                    return (index, captured.text)
                }
            }
            return await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        for index in 0..<8 {
            #expect(texts[index] == String(repeating: "capture \(index)\n", count: 50))
        }
        #expect(standardErrorIdentity() == before)
    }

    /// serd's and lilv's lines become one problem per bundle, with the file, line and column.
    @Test func serdAndLilvLinesBecomeOneProblemPerBundle() {
        let captured = """
            error: /lv2/a.lv2/manifest.ttl:3:5: bad verb
            lilv_world_load_file(): error: Error loading file `file:///lv2/a.lv2/manifest.ttl'
            lilv_world_load_bundle(): error: Error reading file:///lv2/a.lv2/manifest.ttl
            error: failed to open file /lv2/b/manifest.ttl (No such file or directory)
            something else entirely

            """
        let problems = LV2TurtleProblems(captured: captured)
        #expect(problems.problems == [
            .init(bundle: "/lv2/a.lv2", text: "manifest.ttl:3:5: bad Turtle (bad verb)"),
            .init(bundle: "/lv2/b", text: "manifest.ttl: failed to open file (No such file or directory)"),
        ])
        #expect(problems.otherLines == ["something else entirely"])
    }
}
