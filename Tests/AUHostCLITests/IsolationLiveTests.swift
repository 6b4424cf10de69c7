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

    /// The reference chain's five plugins in one child with `--pipeline`, so that the chain
    /// renders one period behind (docs/ISOLATION.md, "One slice behind"); the child is killed
    /// while a period is posted and not yet collected: every node is named and silenced, the
    /// host runs on, and the reloaded nodes render again.
    @Test func aChildKilledWhileAPeriodIsBehindIsSilencedAndReloaded() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let preset = try String(contentsOf: repository.appendingPathComponent("Presets/reference.json"), encoding: .utf8)
        let rig = try ControlRig(preset: preset, extraArguments: ["--isolation", "together", "--pipeline"])
        defer { rig.tearDown() }
        let nodes = ["eq", "comp", "delay", "ambience", "limiter"]
        let rendering = try Self.waitForStatus(rig) { $0.contains("isolated.limiter=running,") && !$0.contains("in_run=0 ") }
        #expect(rendering.contains("latency=128 "), "one period behind at 64 frames: \(rendering)")
        let children = try childProcesses(of: rig.process.processIdentifier, named: "auhost-unit-hos")
        try #require(children.count == 1, "one unit-host child: \(children)")
        kill(children[0], SIGKILL)
        #expect(rig.waitForStandardError("silenced; 'reload limiter' brings it back"), "\(rig.standardError)")
        let faulted = try Self.waitForStatus(rig) { status in nodes.allSatisfy { status.contains("isolated.\($0)=") && !status.contains("isolated.\($0)=running") } }
        for node in nodes { #expect(faulted.contains("isolated.\(node)=") && !faulted.contains("isolated.\(node)=running"), "\(node): \(faulted)") }
        for node in nodes { #expect(try rig.send("reload \(node)").hasPrefix("ok reloaded \(node)")) }
        let running = try Self.waitForStatus(rig) { status in nodes.allSatisfy { status.contains("isolated.\($0)=running,faults=1,") } && !status.contains("mean_us=0.0,") }
        for node in nodes { #expect(running.contains("isolated.\(node)=running,faults=1,"), "\(node): \(running)") }
        #expect(!running.contains("mean_us=0.0,"), "no cycle went through a new child: \(running)")
        #expect(try rig.send("quit") == "ok bye")
        #expect(rig.waitForExit(timeout: 30) == 0, "\(rig.standardError)")
    }

    /// The processes whose parent is `parent` and whose name (at most 15 characters) is `name`.
    func childProcesses(of parent: pid_t, named name: String) throws -> [pid_t] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return stat[stat.index(after: open)..<close] == name && fields.count > 1 && pid_t(fields[1]) == parent ? pid : nil
        }
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
