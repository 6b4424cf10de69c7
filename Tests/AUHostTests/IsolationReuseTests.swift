import AUCore
import AUHost
import AUTestSupport
import Foundation
import Testing
@testable import AUBridge

/// What keeps isolation cheap (docs/ISOLATION.md, "Cost"): a node's later instances join
/// its running child instead of starting one each, and a child's render thread, which
/// spins for its next request, sleeps once the spin is over.
@Suite struct IsolationReuseTests {
    static let frames = 256

    /// A chain of `count` swh amps, each isolated `isolation`, its children spinning
    /// `childSpin` seconds for a request.
    static func load(isolation: String, childSpin: Double = 0, count: Int = 1) throws -> (LoadedPreset, ComponentRegistry) {
        let ids = (1...count).map { "amp\($0)" }
        let nodes = ids.map { #"{"id": "\#($0)", "unit": "lv2:http://plugin.org.uk/swh-plugins/amp", "isolation": "\#(isolation)"}"# }
        let json = #"{"auhost": 1, "name": "amps", "nodes": [\#(nodes.joined(separator: ", "))], "chain": ["\#(ids.joined(separator: "\", \""))"]}"#
        let registry = ComponentRegistry(providers: [BuiltinUnits(), LV2Provider(probeCacheFile: nil)])
        var loader = PresetLoader(registry: registry)
        loader.isolator = BridgeIsolator(timeout: 5, childSpin: childSpin) { _ in }
        return (try loader.load(data: Data(json.utf8), file: "amps.json"), registry)
    }

    /// A started single-threaded graph of `loaded`.
    static func startedChain(_ loaded: LoadedPreset, _ registry: ComponentRegistry) throws -> ChainGraph {
        let chain = try ChainGraph(loaded, registry: registry, sampleRate: 48_000, maximumFrames: frames, parallelism: .singleThreaded)
        try chain.graph.start()
        return chain
    }

    /// Renders `chain`'s cycle number `cycle` over silence; its status.
    static func render(_ chain: ChainGraph, cycle: Int) -> AudioUnitStatus {
        let input = OwnedAudioBuffers(channels: 1, capacity: frames)
        let output = OwnedAudioBuffers(channels: 1, capacity: frames)
        return chain.graph.render(
            frameCount: frames, timestamp: RenderTimestamp(sampleTime: Double(cycle * frames)), input: input.buffers(), output: output.buffers())
    }

    /// Seconds until the child's render thread sleeps (at most 5).
    static func secondsUntilAsleep(_ doorbell: BridgeDoorbell) -> Double {
        let start = Date()
        while !doorbell.childSleeps, Date().timeIntervalSince(start) < 5 { Thread.sleep(forTimeInterval: 0.001) }
        return Date().timeIntervalSince(start)
    }

    /// What a batch's files cost a child: a file's graph initializes the node's fresh unit and
    /// frees it. The plugin's library stays loaded once the unit is gone (``PluginLibraryPins``:
    /// lilv closed it with its instance, and the next file loaded it and its dependencies
    /// again), and the render thread that rendered the first file renders the next (it
    /// pauses while the units change instead of being replaced).
    @Test func aChildKeepsItsPluginLibraryAndItsRenderThreadFromFileToFile() throws {
        let (loaded, registry) = try Self.load(isolation: "together")
        defer { loaded.dispose() }
        let pid = try #require(loaded.nodes[0].unit as? BridgedUnit).host.pid
        func mappedPlugins() -> Set<String> {
            // Read to its end: a /proc file says it is empty, which a read by size believes.
            let maps = String(decoding: FileHandle(forReadingAtPath: "/proc/\(pid)/maps")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
            return Set(maps.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }.filter { $0.hasPrefix("/usr/lib/lv2/") })
        }
        func threads() -> Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []) }
        let idle = threads()
        var rendering: [Set<String>] = []
        var plugins: Set<String> = []
        for cycle in 0..<2 {
            let file = try ChainGraph(loaded, units: try loaded.makeUnits(), registry: registry, sampleRate: 48_000, maximumFrames: Self.frames, parallelism: .singleThreaded)
            try file.graph.start()
            #expect(Self.render(file, cycle: cycle) == 0)
            rendering.append(threads().subtracting(idle))
            plugins.formUnion(mappedPlugins())
            file.dispose()
        }
        #expect(!plugins.isEmpty, "the plugin's library was never mapped in the child")
        #expect(mappedPlugins() == plugins, "the plugin's library left the child with its unit")
        #expect(rendering[0].count == 1 && rendering[0] == rendering[1], "the threads the two files added: \(rendering)")
    }

    /// An isolated unit starts from the host's parameter values, so that its tail (or
    /// latency) is the preset's before its first cycle, as the offline renderer asks for it
    /// then; a change reaches the child with the next cycle (the native delay's tail follows
    /// its time and feedback).
    @Test func anIsolatedUnitsTailFollowsItsParameters() throws {
        let registry = HostRegistry.make()
        let json = #"{"auhost": 1, "name": "echo", "nodes": [{"id": "echo", "unit": "aufx:dely:AUHs", "isolation": "together", "parameters": {"time": 100, "feedback": 0}}], "chain": ["echo"]}"#
        var loader = PresetLoader(registry: registry)
        loader.isolator = BridgeIsolator(timeout: 5) { _ in }
        let loaded = try loader.load(data: Data(json.utf8), file: "echo.json")
        defer { loaded.dispose() }
        let chain = try Self.startedChain(loaded, registry)
        defer { chain.dispose() }
        let echo = try #require(chain.nodes[0].unit as? BridgedUnit)
        #expect(abs(echo.tailTime - 0.1) < 1e-6, "100 ms of delay, no feedback (the defaults give 1.75 s): \(echo.tailTime)")
        for (identifier, value, tail) in [("feedback", Float(50), 1.1), ("time", 200, 2.2)] {
            let info = try #require(echo.parameters.info(forIdentifier: identifier))
            try echo.setParameter(info.address.id, value: value)
            let input = OwnedAudioBuffers(channels: chain.inputChannels, capacity: Self.frames)
            let output = OwnedAudioBuffers(channels: chain.outputChannels, capacity: Self.frames)
            #expect(chain.graph.render(frameCount: Self.frames, timestamp: RenderTimestamp(sampleTime: 0), input: input.buffers(), output: output.buffers()) == 0)
            #expect(abs(echo.tailTime - tail) < 1e-6, "\(identifier) \(value): \(echo.tailTime)")
        }
    }

    /// A batch's second job (``IsolationLane`` 1) makes its units in children of its own, so
    /// that two jobs' units do not queue on one render thread; each job's later units join
    /// its children, and the first job's join the preset's.
    @Test func eachJobOfABatchHasChildrenOfItsOwn() throws {
        let (loaded, _) = try Self.load(isolation: "together")
        defer { loaded.dispose() }
        func child(_ units: [AudioUnit]) throws -> pid_t { try #require(units.first as? BridgedUnit).host.pid }
        let preset = try child(loaded.nodes.map(\.unit))
        let first = try loaded.makeUnits()
        defer { first.forEach { $0.dispose() } }
        let second = try IsolationLane.$current.withValue(1) { try loaded.makeUnits() }
        defer { second.forEach { $0.dispose() } }
        let secondAgain = try IsolationLane.$current.withValue(1) { try loaded.makeUnits() }
        defer { secondAgain.forEach { $0.dispose() } }
        #expect(try child(first) == preset, "the first job's units join the preset's child")
        #expect(try child(second) != preset, "the second job's units share the first job's child")
        #expect(try child(secondAgain) == child(second), "the second job's later units start another child")
    }

    /// A batch's fresh instance of a node (``LoadedPreset/makeUnits()``) joins the child of
    /// the preset's; once that child is gone, the next instance gets a new one.
    @Test func aNodesNextInstanceJoinsItsRunningChild() throws {
        let (loaded, _) = try Self.load(isolation: "per-unit")
        defer { loaded.dispose() }
        let first = try #require(loaded.nodes[0].unit as? BridgedUnit)
        let fresh = try loaded.makeUnits()
        defer { fresh.forEach { $0.dispose() } }
        let second = try #require(fresh.first as? BridgedUnit)
        #expect(second.host.pid == first.host.pid, "the fresh instance started a child of its own")
        kill(first.host.pid, SIGKILL)
        let deadline = Date().addingTimeInterval(20)
        while first.faultCount == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        try #require(first.faultCount == 1)
        let again = try loaded.makeUnits()
        defer { again.forEach { $0.dispose() } }
        let third = try #require(again.first as? BridgedUnit)
        #expect(third.host.pid != first.host.pid, "an instance joined a killed child")
        #expect(third.fault == nil)
    }

    /// A child that left a cycle unanswered (a plugin sleeping 20 ms in `run`, a 2 ms
    /// deadline) may still be in that cycle: the node's next instance gets a new child.
    @Test func aChildThatLeftACycleUnansweredTakesNoNewUnit() throws {
        let fixtures = try IsolationLibraryTests.Fixtures()
        defer { fixtures.remove() }
        let registry = ComponentRegistry(providers: [BuiltinUnits(), LV2Provider(lv2Path: fixtures.lv2Path, probeCacheFile: nil)])
        var loader = PresetLoader(registry: registry)
        loader.isolator = BridgeIsolator(timeout: 5, environment: ["LV2_PATH": fixtures.lv2Path]) { _ in }
        let json = #"{"auhost": 1, "name": "slow", "nodes": [{"id": "slow", "unit": "lv2:urn:auhost:fixture:sleep-long", "isolation": "per-unit"}], "chain": ["slow"]}"#
        let loaded = try loader.load(data: Data(json.utf8), file: "slow.json")
        defer { loaded.dispose() }
        let chain = try Self.startedChain(loaded, registry)
        defer { chain.dispose() }
        let slow = try #require(chain.isolatedNodes.first?.unit)
        slow.cycleDeadline = 0.002
        _ = Self.render(chain, cycle: 0)
        try #require(slow.renderStatistics.lateCycles == 1, "the cycle was answered within 2 ms")
        let fresh = try loaded.makeUnits()
        defer { fresh.forEach { $0.dispose() } }
        let next = try #require(fresh.first as? BridgedUnit)
        #expect(next.host.pid != slow.host.pid, "the fresh instance joined a child that may be stuck in a cycle")
        #expect(slow.fault == nil, "a late cycle is no fault")
    }

    /// A child told to spin for its next request after each reply (for 2 ms) then sleeps:
    /// after a few cycles and no more, its render thread is found asleep.
    @Test func aChildSleepsOnceItsSpinIsOver() throws {
        let (loaded, registry) = try Self.load(isolation: "together", childSpin: 0.002)
        let chain = try Self.startedChain(loaded, registry)
        defer { chain.dispose() }
        let amp = try #require(chain.isolatedNodes.first?.unit)
        for cycle in 0..<8 { #expect(Self.render(chain, cycle: cycle) == 0) }
        #expect(amp.renderStatistics.cycles == 8)
        #expect(abs(amp.host.doorbell.spin - 0.002) < 1e-9, "the child was not told to spin")
        _ = Self.secondsUntilAsleep(amp.host.doorbell)
        #expect(amp.host.doorbell.childSleeps, "the child's render thread still spins (or renders) with no request coming")
    }

    /// A `together` child spins for its next request only after a unit whose next request
    /// came within the spin the last time: between the nodes of a cycle it stays awake (one
    /// ring of its doorbell per cycle, not one per node), and after a cycle's last node,
    /// whose next request is a cycle away, it sleeps at once instead of spinning.
    @Test func aTogetherChildSpinsBetweenItsNodesAndSleepsAfterACycle() throws {
        let spin = 1.0
        let (loaded, registry) = try Self.load(isolation: "together", childSpin: spin, count: 3)
        let chain = try Self.startedChain(loaded, registry)
        defer { chain.dispose() }
        let units = chain.isolatedNodes.map(\.unit)
        try #require(units.count == 3 && Set(units.map(\.host.pid)).count == 1, "three nodes in one child")
        let doorbell = units[0].host.doorbell
        var rings: [UInt32] = []
        var asleepAfter: [Double] = []
        for cycle in 0..<4 {
            // The next cycle comes later than the spin: the last node's reply is not followed in time.
            if cycle > 0 { Thread.sleep(forTimeInterval: spin * 1.5) }
            let before = doorbell.rings
            try #require(Self.render(chain, cycle: cycle) == 0)
            rings.append(doorbell.rings &- before)
            asleepAfter.append(Self.secondsUntilAsleep(doorbell))
        }
        #expect(units.allSatisfy { $0.renderStatistics.cycles == 4 })
        // The first cycle learns which replies are followed: each of its nodes may wake the child.
        #expect(rings.dropFirst().allSatisfy { $0 <= 1 }, "the child slept between the nodes of a cycle: rings per cycle \(rings)")
        #expect(asleepAfter.dropFirst().allSatisfy { $0 < spin / 2 }, "the child spun after a cycle's last node: asleep after \(asleepAfter) s")
    }

    /// A child of one unit (`per-unit`) never spins for its next request, which is a graph
    /// cycle away: five such children spinning on two cores would take them from the host.
    /// Even with a long spin and cycles one right after another, it is asleep after them.
    @Test func aChildOfOneUnitSleepsAfterEveryCycle() throws {
        let spin = 5.0
        let (loaded, registry) = try Self.load(isolation: "per-unit", childSpin: spin)
        let chain = try Self.startedChain(loaded, registry)
        defer { chain.dispose() }
        let amp = try #require(chain.isolatedNodes.first?.unit)
        for cycle in 0..<8 { try #require(Self.render(chain, cycle: cycle) == 0) }
        let asleepAfter = Self.secondsUntilAsleep(amp.host.doorbell)
        #expect(asleepAfter < spin / 2, "the child of one unit spun after its cycles: asleep after \(asleepAfter) s")
    }

    /// A preset's isolated nodes have their children started before the first unit is made
    /// (``ComponentIsolator/prepare(_:node:reference:mode:)``): a unit host that waits for a go-ahead
    /// before it runs sees both children start while the preset loads, where one after the
    /// other the second would start only once the first had made its unit.
    @Test func aPresetsChildrenStartBeforeItsFirstUnitIsMade() throws {
        let folder = try TemporaryFolder(prefix: "auhost-prestart")
        defer { folder.remove() }
        let log = folder.file("started")
        let go = folder.file("go")
        let wrapper = folder.file("unit-host")
        let script = "#!/bin/sh\necho started >> '\(log)'\nwhile [ ! -e '\(go)' ]; do sleep 0.01; done\nexec '\(BridgeIsolator.standardExecutable())' \"$@\"\n"
        try script.write(toFile: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper, 0o755)
        let nodes = ["amp1", "amp2"].map { #"{"id": "\#($0)", "unit": "lv2:http://plugin.org.uk/swh-plugins/amp", "isolation": "per-unit"}"# }
        let json = #"{"auhost": 1, "name": "amps", "nodes": [\#(nodes.joined(separator: ", "))], "chain": ["amp1", "amp2"]}"#
        let outcome = LoadOutcome()
        let loading = Thread {
            let registry = ComponentRegistry(providers: [BuiltinUnits(), LV2Provider(probeCacheFile: nil)])
            var loader = PresetLoader(registry: registry)
            loader.isolator = BridgeIsolator(executable: wrapper, timeout: 5) { _ in }
            outcome.set(Result { try loader.load(data: Data(json.utf8), file: "amps.json") })
        }
        loading.start()
        func started() -> Int { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").count }
        let deadline = Date().addingTimeInterval(20)
        while started() < 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let startedBeforeGo = started()
        _ = FileManager.default.createFile(atPath: go, contents: nil)
        let loadDeadline = Date().addingTimeInterval(60)
        while outcome.get() == nil, Date() < loadDeadline { Thread.sleep(forTimeInterval: 0.01) }
        let loaded = try #require(try outcome.get()?.get())
        defer { loaded.dispose() }
        #expect(startedBeforeGo == 2, "the second child started only after the first made its unit")
        let pids = try loaded.nodes.map { try #require($0.unit as? BridgedUnit).host.pid }
        #expect(Set(pids).count == 2)
    }

    /// A child started ahead of its units that gets none ends once its hold is over; one
    /// whose unit was made lives on.
    @Test func aHeldChildEndsWithoutAUnitAndLivesWithOne() throws {
        let idle = try UnitHostProcess(executable: BridgeIsolator.standardExecutable(), timeout: 5, heldFor: 0.2)
        let deadline = Date().addingTimeInterval(20)
        while !idle.hasEnded, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(idle.hasEnded, "a held child without a unit outlived its hold")

        let registry = ComponentRegistry(providers: [BuiltinUnits(), LV2Provider(probeCacheFile: nil)])
        let component = try registry.resolve("lv2:http://plugin.org.uk/swh-plugins/amp")
        let used = try UnitHostProcess(executable: BridgeIsolator.standardExecutable(), timeout: 5, heldFor: 0.2)
        let unit = try BridgedUnit.make(
            component, node: "amp", reference: "lv2:http://plugin.org.uk/swh-plugins/amp", host: used,
            hostMaker: { () throws(AudioUnitError) in throw AudioUnitError(.failedInitialization, "no reload here") }, onFault: { _ in })
        defer { unit.dispose() }
        Thread.sleep(forTimeInterval: 0.5)
        #expect(!used.hasEnded, "a held child ended while its unit lived")
    }

    /// A child told which registry its first unit needs (`--registry`) builds it on a thread
    /// of its own as it starts, before the first instantiate asks for it.
    @Test func aPreparedRegistryIsBuiltBeforeItIsAskedFor() throws {
        let built = DispatchSemaphore(value: 0)
        let asking = pthread_self()
        let prepared = PreparedRegistry(kind: "lv2") { kind in
            #expect(kind == "lv2")
            #expect(pthread_equal(pthread_self(), asking) == 0, "built on the asking thread")
            built.signal()
            return ComponentRegistry(providers: [BuiltinUnits()])
        }
        try #require(built.wait(timeout: .now() + 20) == .success, "the registry was not built until asked for")
        #expect(!prepared.registry.components.isEmpty, "not the registry built")
    }
}

/// A preset load's outcome, handed from the thread that loads it.
private final class LoadOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<LoadedPreset, any Error>?

    func set(_ outcome: Result<LoadedPreset, any Error>) { lock.withLock { result = outcome } }
    func get() -> Result<LoadedPreset, any Error>? { lock.withLock { result } }
}
