import Foundation
import AUTestSupport
import Synchronization
import Testing
@testable import AULV2

/// How lilv's and serd's messages are taken off standard error while a world loads.
@Suite struct StandardErrorCaptureTests {
    /// The device and inode descriptor 2 refers to.
    private static func standardErrorIdentity() -> (UInt, UInt) {
        var status = stat()
        fstat(2, &status)
        return (UInt(status.st_dev), UInt(status.st_ino))
    }

    private static func write(_ text: String) {
        text.withCString { _ = Glibc.write(2, $0, strlen($0)) }
    }

    // Descriptor 2 is the process's: the other suites, running in parallel in this process,
    // discover LV2 plugins (capturing it themselves) and print to it. Each test therefore runs
    // in a process of its own (an exit test), where nothing else touches descriptor 2; it
    // exits 0 only when every check holds.

    /// Far more than a pipe holds (64 KiB) is taken whole without blocking the writer, and
    /// descriptor 2 is the real standard error again afterwards.
    @Test(.exitTestHangGuard) func aLargeOutputIsTakenWholeAndDescriptor2IsRestored() async {
        await #expect(processExitsWith: .success) {
            let before = StandardErrorCaptureTests.standardErrorIdentity()
            let line = String(repeating: "x", count: 99) + "\n"
            let captured = StandardErrorCapture.capturing {
                for _ in 0..<10_000 { StandardErrorCaptureTests.write(line) }
                return 7
            }
            let restored = StandardErrorCaptureTests.standardErrorIdentity() == before
            exit(captured.result == 7 && captured.text.utf8.count == 1_000_000 && restored ? 0 : 1)
        }
    }

    /// Two threads capturing at once take turns: each gets exactly what its own body wrote.
    @Test(.exitTestHangGuard) func concurrentCapturesDoNotMix() async {
        await #expect(processExitsWith: .success) {
            let before = StandardErrorCaptureTests.standardErrorIdentity()
            let texts = Mutex<[Int: String]>([:])
            let threads = (0..<8).map { index in
                Thread {
                    let captured = StandardErrorCapture.capturing {
                        for _ in 0..<50 { StandardErrorCaptureTests.write("capture \(index)\n") }
                    }
                    texts.withLock { $0[index] = captured.text }
                }
            }
            threads.forEach { $0.start() }
            for _ in 0..<3000 where texts.withLock({ $0.count }) < 8 { usleep(10_000) }
            let unmixed = texts.withLock { found in
                (0..<8).allSatisfy { found[$0] == String(repeating: "capture \($0)\n", count: 50) }
            }
            exit(unmixed && StandardErrorCaptureTests.standardErrorIdentity() == before ? 0 : 1)
        }
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
