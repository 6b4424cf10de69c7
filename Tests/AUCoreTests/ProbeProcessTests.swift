import AUTestSupport
import Foundation
import Testing
@testable import AUCore

/// The probe's parent side, over children that are shell scripts speaking its channel.
@Suite("ProbeProcess")
struct ProbeProcessTests {
    /// A probe whose child is `sh -c script`, the items after it.
    static func probe(_ script: String) -> ProbeProcess {
        ProbeProcess(executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script, "probe"], timeout: 20)
    }

    @Test("a child whose own child keeps the channel open: the verdicts are read when the child exits, and what it started ends with it")
    func aGrandchildHoldingTheChannelEndsWithTheChild() throws {
        let folder = try TemporaryFolder(prefix: "probe-grandchild")
        defer { folder.remove() }
        // The grandchild inherits the channel (standard output) and would outlive the child
        // by 30 s, then leave a mark.
        let outcomes = Self.probe("""
            echo "auhost-probe begin 0"
            (sleep 30; echo finished > '\(folder.file("mark"))') & echo $! > '\(folder.file("pid"))'
            echo "auhost-probe verdict 0 works"
            """).run(["item"])
        let pid = try #require(Int32(String(contentsOfFile: folder.file("pid"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // Gone, or a zombie no one has reaped yet: not sleeping. A killed process ends when it
        // next runs, which on a loaded machine is not at once: up to 10 s.
        func currentState() -> Substring? {
            (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)).flatMap { $0.split(separator: ")").last?.split(separator: " ").first }
        }
        var state = currentState()
        for _ in 0..<200 where state != nil && state != "Z" {
            usleep(50_000)
            state = currentState()
        }
        if state != nil, state != "Z" { kill(pid, SIGKILL) }
        #expect(outcomes == ["item": .reported("works")])
        #expect(state == nil || state == "Z", "the grandchild is still running (state \(state ?? ""))")
        #expect(!FileManager.default.fileExists(atPath: folder.file("mark")), "the parent waited for the grandchild to end")
    }

    @Test("verdicts written in pieces of a few bytes, 200 items a child, ten children: each read whole, in order")
    func everyVerdictIsReadWhole() {
        // Each child writes its lines a few bytes at a time, so reads split them anywhere.
        let script = """
            for index in $(seq 0 $(($# - 1))); do
              for piece in "auhost-p" "robe beg" "in $index" "
            "  "auhost-probe ver" "dict $index works fine" "
            "; do printf '%s' "$piece"; done
            done
            """
        let items = (0..<200).map { "item\($0)" }
        for _ in 0..<10 {
            let outcomes = Self.probe(script).run(items)
            #expect(outcomes.count == items.count && outcomes.values.allSatisfy { $0 == .reported("works fine") }, "\(outcomes.filter { $0.value != .reported("works fine") })")
        }
    }

    @Test("a child that dies on an item: that item is recorded as crashed with the signal, and a new child carries on with the rest")
    func aCrashRecordsTheItemAndGoesOn() {
        let outcomes = Self.probe("""
            for item in "$@"; do
              index=$(( $(printf '%s\\n' "$@" | grep -n -x "$item" | cut -d: -f1) - 1 ))
              echo "auhost-probe begin $index"
              [ "$item" = bad ] && kill -SEGV $$
              echo "auhost-probe verdict $index works"
            done
            """).run(["one", "bad", "two"])
        #expect(outcomes == ["one": .reported("works"), "bad": .crashed("died of signal 11 (SIGSEGV)"), "two": .reported("works")])
    }
}
