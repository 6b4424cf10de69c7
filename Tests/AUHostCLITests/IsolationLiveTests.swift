import AUTestSupport
import Foundation
import Testing

/// `auhost run --isolation` under a `jackd -d dummy` of its own (docs/ISOLATION.md): a node
/// whose child dies goes silent with one line, `status` counts it, `reload` brings it back;
/// a node slower than the period is late (silent) for those cycles, not a fault.
@Suite(.serialized) struct IsolationLiveTests {
    /// swh amp, then `fixture`; `isolation` the fixture node's key (nil: none).
    static func preset(_ fixture: String, isolation: String? = nil) -> String {
        let key = isolation.map { #", "isolation": "\#($0)""# } ?? ""
        return """
            {"auhost": 1, "name": "isolated", "nodes": [
              {"id": "amp", "unit": "lv2:http://plugin.org.uk/swh-plugins/amp", "parameters": {"gain": -6}},
              {"id": "bad", "unit": "lv2:urn:auhost:fixture:\(fixture)"\(key)}], "chain": ["amp", "bad"]}
            """
    }

    /// Waits (up to 20 s) until `status` says what `accepts` wants; the last reply.
    static func waitForStatus(_ rig: ControlRig, _ accepts: (String) -> Bool) throws -> String {
        var status = ""
        for _ in 0..<200 {
            status = try rig.send("status")
            if accepts(status) { return status }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return status
    }

    /// exit(0) in the first run of the first child: one line naming the node, `status`
    /// shows it exited; `reload bad` starts a child that runs (the fixture exits only once).
    @Test func aNodeWhoseChildExitsIsSilencedAndReloaded() throws {
        let folder = try TemporaryFolder(prefix: "auhost-isolation-live")
        defer { folder.remove() }
        try writeFixtureBundle("exit-in-run", name: "Fixture Exit In Run", into: folder.url)
        let rig = try ControlRig(
            preset: Self.preset("exit-in-run"), extraArguments: ["--isolation", "per-unit"],
            environment: [
                "LV2_PATH": folder.path + ":/usr/lib/lv2", "XDG_CACHE_HOME": folder.file("cache"),
                "AUHOST_FIXTURE_EXIT_ONCE": folder.file("exited"),
            ])
        defer { rig.tearDown() }
        #expect(
            rig.waitForStandardError("'bad' (Fixture Exit In Run) exited with status 0 in render; silenced; 'reload bad' brings it back"),
            "\(rig.standardError)")
        let faulted = try Self.waitForStatus(rig) { $0.contains("isolated.bad=exited,faults=1") }
        #expect(faulted.contains("isolated.bad=exited,faults=1"), "\(faulted)")
        #expect(faulted.contains("isolated.amp=running,faults=0"), "\(faulted)")
        #expect(try rig.send("reload amp").hasPrefix("ok reloaded amp"))
        #expect(try rig.send("reload bad") == "ok reloaded bad")
        let running = try Self.waitForStatus(rig) { $0.contains("isolated.bad=running,faults=1,") && !$0.contains("isolated.bad=running,faults=1,late=0,mean_us=0.0") }
        #expect(running.contains("isolated.bad=running,faults=1,"), "\(running)")
        #expect(!running.contains("isolated.bad=running,faults=1,late=0,mean_us=0.0"), "no cycle went through the new child: \(running)")
        #expect(try rig.send("reload nobody").hasPrefix("error: "))
        #expect(try rig.send("quit") == "ok bye")
        #expect(rig.waitForExit(timeout: 30) == 0, "\(rig.standardError)")
    }

    /// A plugin (isolated by its node's key) that sleeps 40 ms in every run at a 64-frame
    /// period: its cycles are late (silent), counted in `status`, and the node is not
    /// faulted; `--node-budget 10` warns of it; `save` keeps the node's key.
    @Test func aSlowNodeIsLateNotFaulted() throws {
        let folder = try TemporaryFolder(prefix: "auhost-isolation-live")
        defer { folder.remove() }
        try writeFixtureBundle("sleep-long", name: "Fixture Sleep Long", into: folder.url)
        let rig = try ControlRig(
            preset: Self.preset("sleep-long", isolation: "per-unit"), extraArguments: ["--node-budget", "10"],
            environment: [
                "LV2_PATH": folder.path + ":/usr/lib/lv2", "XDG_CACHE_HOME": folder.file("cache"), "AUHOST_FIXTURE_SLEEP_MS": "40",
            ])
        defer { rig.tearDown() }
        let status = try Self.waitForStatus(rig) { status in
            guard let word = status.split(separator: " ").first(where: { $0.hasPrefix("isolated.bad=") }) else { return false }
            return !word.contains("late=0,")
        }
        #expect(status.contains("isolated.bad=running,faults=0,"), "\(status)")
        #expect(!status.contains("isolated.bad=running,faults=0,late=0,"), "\(status)")
        #expect(!status.contains("isolated.amp="), "amp is not isolated: \(status)")
        #expect(rig.waitForStandardError("auhost: warning: 'bad' (Fixture Sleep Long) took "), "\(rig.standardError)")
        #expect(rig.standardError.contains("over the 10 % --node-budget)"), "\(rig.standardError)")
        #expect(try rig.send("save take.json") == "ok saved take.json")
        let saved = try String(contentsOf: rig.folder.appendingPathComponent("take.json"), encoding: .utf8)
        #expect(saved.contains(#""isolation": "per-unit""#) && saved.components(separatedBy: "isolation").count == 2, "\(saved)")
        #expect(try rig.send("quit") == "ok bye")
        #expect(rig.waitForExit(timeout: 30) == 0, "\(rig.standardError)")
    }
}
