import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Synchronization
import Testing

/// `auhost render --isolation` and the preset key `"isolation"` (docs/ISOLATION.md): the
/// same samples as in process, and a batch that survives hostile plugins.
@Suite struct IsolationRenderTests {
    /// A stereo input of a sine and noise (fixed seed), `seconds` long.
    static func writeInput(_ path: String, seconds: Double = 1) throws {
        var seed: UInt64 = 29
        try writeAudio(path, sampleRate: 48_000, channels: 2, frames: Int(48_000 * seconds)) { channel, frame in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let noise = Float(Int64(bitPattern: seed >> 11) % 1000) / 4000
            return channel == 0 ? 0.4 * sin(Float(frame) * 0.031) + noise : noise
        }
    }

    /// The shipped reference chain (five LV2 plugins) and the two-branch graph, each node in
    /// a child of its own and all in one child: the same samples as in process.
    @Test(arguments: ["reference.json", "two-branches.json"])
    func isolatedChainsRenderTheSameSamples(preset: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("in.wav")
        try Self.writeInput(input)
        let file = ShippedPresets.folder.appendingPathComponent(preset).path
        var outputs: [String: [[Float]]] = [:]
        for mode in ["none", "per-unit", "together"] {
            let output = folder.file("\(mode).wav")
            let run = render([file, input, "-o", output, "--bit-depth", "32f", "--isolation", mode])
            try #require(run.status == 0, "\(mode): \(run.errors)")
            outputs[mode] = try readAudio(output).samples
        }
        let inProcess = try #require(outputs["none"])
        #expect(inProcess.joined().contains { abs($0) > 0.01 })
        #expect(differingSamples(outputs["per-unit"] ?? [], inProcess) == 0, "per-unit differs from in process")
        #expect(differingSamples(outputs["together"] ?? [], inProcess) == 0, "together differs from in process")
    }

    /// `"isolation"` must be one of the three words: one line naming the file and the node.
    @Test func aBadIsolationValueIsOneLineNamingThePath() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("in.wav")
        try Self.writeInput(input, seconds: 0.1)
        let file = try folder.preset("bad.json", #"{"auhost": 1, "name": "x", "nodes": [{"id": "eq", "unit": "aufx:ipeq:AUHs", "isolation": "sideways"}], "chain": ["eq"]}"#)
        let run = render([file, input, "-o", folder.file("out.wav")])
        #expect(run.status == 1)
        #expect(run.errors.contains("bad.json: nodes[0].isolation: expected one of none|together|per-unit, found the string \"sideways\""), "\(run.errors)")
        let option = render([file, input, "-o", folder.file("out.wav"), "--isolation", "sideways"])
        #expect(option.status == 64, "\(option.errors)")
    }

    /// Runs `auhost render` in a child process over the fixture `fixture` (isolated by its
    /// node's key; `unset`: no key) after swh amp, for two input files.
    static func renderHostile(
        _ fixture: String, folder: TemporaryFolder, environment: [String: String] = [:], isolation: String = "per-unit"
    ) throws -> ChildProcess.Outcome {
        let bundles = URL(fileURLWithPath: folder.file("lv2"))
        if !FileManager.default.fileExists(atPath: bundles.appendingPathComponent("\(fixture).lv2").path) {
            try writeFixtureBundle(fixture, name: "Fixture \(fixture)", into: bundles)
        }
        let file = try folder.preset("\(fixture).json", """
            {"auhost": 1, "name": "hostile", "nodes": [
              {"id": "amp", "unit": "lv2:http://plugin.org.uk/swh-plugins/amp", "parameters": {"gain": -6}},
              {"id": "bad", "unit": "lv2:urn:auhost:fixture:\(fixture)"\(isolation == "unset" ? "" : #", "isolation": "\#(isolation)""#)}], "chain": ["amp", "bad"]}
            """)
        if !FileManager.default.fileExists(atPath: folder.file("one.wav")) {
            try writeAudio(folder.file("one.wav"), sampleRate: 48_000, channels: 1, frames: 24_000) { _, frame in 0.5 * sin(Float(frame) * 0.02) }
            try writeAudio(folder.file("two.wav"), sampleRate: 48_000, channels: 1, frames: 24_000) { _, frame in 0.3 * sin(Float(frame) * 0.05) }
        }
        let variables = ["LV2_PATH": bundles.path + ":/usr/lib/lv2", "XDG_CACHE_HOME": folder.file("cache"), "AUHOST_ISOLATION_TIMEOUT": "1"]
        return try ChildProcess.run(
            try auhostExecutable(), ["render", file, folder.file("one.wav"), folder.file("two.wav"), "--output-dir", folder.file("out"), "--bit-depth", "32f"],
            environment: variables.merging(environment) { $1 }, timeout: 120)
    }

    /// A plugin that crashes, exits, writes past its buffer or hangs in `run()`, isolated:
    /// the batch goes on, each file is tried twice, fails with one line naming the node, the
    /// unit and what happened, the summary lists both, and nothing is written.
    @Test(arguments: [
        ("crash-in-run", "crashed in render (SIGSEGV)"), ("exit-in-run", "exited with status 0 in render"),
        ("write-past-end", ""), // a segfault, or memory it corrupted that ends the child later ("run-forever", "hung in render (no answer in 1 s"),
        ("abort-in-instantiate", "crashed in initialize (SIGABRT)"),
    ])
    func aBatchSurvivesAFaultingPlugin(fixture: String, what: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try Self.renderHostile(fixture, folder: folder)
        #expect(run.status == 1, "\(run.errors)")
        #expect(!run.timedOut)
        #expect(run.errors.contains("'bad' (Fixture \(fixture))") && (what.isEmpty || run.errors.contains(what)), "\(run.errors)")
        #expect(run.errors.contains("(tried twice, each time in fresh processes)"), "\(run.errors)")
        #expect(run.output.contains("batch: 0 of 2 files rendered (2 failed)"), "\(run.output)")
        #expect(run.errors.components(separatedBy: "auhost: batch: failed: ").count == 3, "\(run.errors)")
        #expect(folder.contents("out").isEmpty)
    }

    /// A plugin that exits in its first run only once (a marker file): the first try fails,
    /// the second, in a fresh child, renders the file as the plugin in process would.
    @Test func aFileIsRetriedOnceInAFreshChild() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try Self.renderHostile("exit-in-run", folder: folder, environment: ["AUHOST_FIXTURE_EXIT_ONCE": folder.file("exited")])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("batch: 2 of 2 files rendered"), "\(run.output)")
        #expect(run.errors.contains("exited with status 0 in render") && run.errors.contains("the second try, in fresh processes, rendered it"), "\(run.errors)")
        let retried = try readAudio(folder.file("out/one.wav")).samples
        try FileManager.default.removeItem(atPath: folder.file("out"))
        let inProcess = try Self.renderHostile("passthrough", folder: folder, environment: ["XDG_CACHE_HOME": folder.file("cache2")], isolation: "none")
        try #require(inProcess.status == 0, "\(inProcess.errors)")
        let reference = try readAudio(folder.file("out/one.wav")).samples
        #expect(differingSamples(retried, reference) == 0)
    }

    /// Stdout spam stays out of both outputs, a fork in instantiate that sleeps for minutes
    /// does not hold the run up (the child's process group is killed with it), and a long
    /// sleep in run is waited for offline: each renders as in process.
    @Test(arguments: ["stdout-spam", "fork-in-instantiate", "sleep-long"])
    func aNoisyForkingOrSlowPluginRendersIsolated(fixture: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try Self.renderHostile(fixture, folder: folder, environment: ["AUHOST_FIXTURE_FORK_SECONDS": "300", "AUHOST_FIXTURE_SLEEP_MS": "5"])
        #expect(run.status == 0 && !run.timedOut, "\(run.errors)")
        #expect(!run.output.contains("fixture") && !run.errors.contains("fixture:"), "\(run.output)\(run.errors)")
        let isolated = try readAudio(folder.file("out/two.wav")).samples
        try FileManager.default.removeItem(atPath: folder.file("out"))
        let inProcess = try Self.renderHostile("passthrough", folder: folder, environment: ["XDG_CACHE_HOME": folder.file("cache2")], isolation: "none")
        try #require(inProcess.status == 0, "\(inProcess.errors)")
        #expect(differingSamples(isolated, try readAudio(folder.file("out/two.wav")).samples) == 0)
    }

    /// A batch without `--isolation` probes an LV2 plugin that no probe has passed (a fresh
    /// cache) before it starts, and isolates it when the probe finds it broken: a crash in
    /// `run` fails its files, not the batch (in process it would end the run).
    @Test func aBatchIsolatesUnprobedPluginsByDefault() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try Self.renderHostile("crash-in-run", folder: folder, isolation: "unset")
        #expect(run.status == 1 && !run.timedOut, "\(run.errors)")
        #expect(run.errors.contains("auhost: probed Fixture crash-in-run (lv2:urn:auhost:fixture:crash-in-run), which no probe had passed: crashed"), "\(run.errors)")
        #expect(run.errors.contains("it runs isolated (per-unit)"), "\(run.errors)")
        #expect(run.errors.contains("'bad' (Fixture crash-in-run) crashed in render (SIGSEGV)"), "\(run.errors)")
        #expect(run.output.contains("batch: 0 of 2 files rendered (2 failed)"), "\(run.output)")
    }

    /// An unprobed plugin that the batch's probe finds working runs in process, as after
    /// `auhost list --probe` (a batch of 400 one-second files through the reference chain
    /// took 30 s with its five plugins isolated, 4 s in process, docs/SCALE.md); the verdict is
    /// kept, so the next batch does not probe again. The output equals the in-process one.
    @Test func aBatchProbesUnprobedPluginsOnceAndRunsThoseThatWorkInProcess() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try Self.renderHostile("passthrough", folder: folder, isolation: "unset")
        try #require(first.status == 0, "\(first.errors)")
        #expect(first.errors.contains("auhost: probed Fixture passthrough (lv2:urn:auhost:fixture:passthrough), which no probe had passed: it works, and runs in this process"), "\(first.errors)")
        #expect(first.errors.contains("auhost: probed Simple amplifier (lv2:http://plugin.org.uk/swh-plugins/amp)"), "\(first.errors)")
        let probed = try readAudio(folder.file("out/one.wav")).samples
        try FileManager.default.removeItem(atPath: folder.file("out"))
        let second = try Self.renderHostile("passthrough", folder: folder, isolation: "unset")
        try #require(second.status == 0, "\(second.errors)")
        #expect(!second.errors.contains("probed"), "the verdicts were not kept: \(second.errors)")
        try FileManager.default.removeItem(atPath: folder.file("out"))
        let inProcess = try Self.renderHostile("passthrough", folder: folder, isolation: "none")
        try #require(inProcess.status == 0, "\(inProcess.errors)")
        #expect(differingSamples(probed, try readAudio(folder.file("out/one.wav")).samples) == 0)
    }

    /// The unit-host children of this process that run now.
    static func unitHostChildren() -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return stat.contains("(auhost-unit-ho") && fields.count > 1 && fields[0] != "Z" && Int32(fields[1]) == getpid()
        }
    }

    /// A provider that reports its first discovery before it discovers.
    struct ObservedProvider: ComponentProvider {
        let provider: any ComponentProvider
        let observe: @Sendable () -> Void
        var format: ComponentFormat { provider.format }
        func discoverComponents() -> (components: [Component], problems: [DiscoveryProblem]) {
            observe()
            return provider.discoverComponents()
        }
    }

    /// Discovering the host's units takes tens of milliseconds; the children of a preset's
    /// isolated LV2 nodes start before any of it, so their start-ups overlap.
    @Test("render --isolation together: the child of the chain's LV2 nodes runs before the host's registry discovers anything, and the samples are in-process's")
    func theChildStartsBeforeTheRegistryDiscovers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("in.wav")
        try Self.writeInput(input, seconds: 0.2)
        let file = ShippedPresets.folder.appendingPathComponent("reference.json").path
        var outputs: [String: [[Float]]] = [:]
        for mode in ["none", "together"] {
            let output = folder.file("\(mode).wav")
            let before = Set(Self.unitHostChildren())
            let childrenAtDiscovery = Mutex<Set<Int32>?>(nil)
            let observe: @Sendable () -> Void = {
                childrenAtDiscovery.withLock { seen in if seen == nil { seen = Set(Self.unitHostChildren()).subtracting(before) } }
            }
            let status = AUHostCLI.run(["render", file, input, "-o", output, "--bit-depth", "32f", "--isolation", mode], output: TextOutput(), errors: TextOutput()) {
                ComponentRegistry(providers: HostRegistry.providers().map { ObservedProvider(provider: $0, observe: observe) })
            }
            try #require(status == 0, "\(mode) failed")
            let seen = childrenAtDiscovery.withLock { $0 }
            #expect(seen != nil, "\(mode): nothing was discovered")
            // (Tests running beside this one may start children too: only "some" is checked.)
            if mode == "together" { #expect(seen?.isEmpty == false, "no unit-host child ran when the registry first discovered") }
            outputs[mode] = try readAudio(output).samples
        }
        #expect(differingSamples(outputs["together"] ?? [], outputs["none"] ?? []) == 0, "together differs from in process")
    }
}
