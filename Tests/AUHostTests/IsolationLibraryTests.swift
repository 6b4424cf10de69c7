import AUCore
import AUHost
import AUTestSupport
import Foundation
import Synchronization
import Testing

/// Hostile plugins isolated through the library (docs/ISOLATION.md): a chain built with a
/// ``BridgeIsolator`` renders on through each fault, the faulted node silent and named,
/// every other node's output unchanged sample for sample.
@Suite struct IsolationLibraryTests {
    static let frames = 256
    static let cycles = 40

    /// A bundle folder of the fixtures these tests use, and the LV2_PATH over it.
    struct Fixtures {
        let folder: TemporaryFolder
        var lv2Path: String { folder.path + ":/usr/lib/lv2" }

        init() throws {
            folder = try TemporaryFolder(prefix: "auhost-isolation")
            for fixture in ["passthrough", "crash-in-run", "exit-in-run", "write-past-end", "run-forever", "sleep-long", "stdout-spam"] {
                try writeFixtureBundle(fixture, name: "Fixture \(fixture)", into: folder.url)
            }
        }

        func remove() { folder.remove() }
    }

    /// Input through swh amp (-6 dB) and through `fixture` side by side into the mixer; its
    /// input 1 (the fixture's) muted when `muted`.
    static func preset(_ fixture: String, isolation: String, muted: Bool) -> String {
        """
        {"auhost": 1, "name": "two", "sampleRate": 48000, "nodes": [
          {"id": "amp", "unit": "lv2:http://plugin.org.uk/swh-plugins/amp", "parameters": {"gain": -6}},
          {"id": "bad", "unit": "lv2:urn:auhost:fixture:\(fixture)", "isolation": "\(isolation)"},
          {"id": "mix", "unit": "aumx:mcmx:AUHs", "parameters": {"mute1": \(muted ? 1 : 0)}}],
         "connections": [["input:0", "amp:0"], ["input:0", "bad:0"], ["amp:0", "mix:0"], ["bad:0", "mix:1"], ["mix:0", "output:0"]]}
        """
    }

    /// The chain's output over ``cycles`` cycles of a sine, and the faults its isolator heard of.
    static func render(_ json: String, fixtures: Fixtures) throws -> (output: [[Float]], faults: [IsolationFault]) {
        let registry = ComponentRegistry(providers: [BuiltinUnits(), LV2Provider(lv2Path: fixtures.lv2Path, probeCacheFile: nil)])
        let heard = Mutex<[IsolationFault]>([])
        var loader = PresetLoader(registry: registry)
        loader.isolator = BridgeIsolator(timeout: 1, environment: ["LV2_PATH": fixtures.lv2Path]) { fault in heard.withLock { $0.append(fault) } }
        let loaded = try loader.load(data: Data(json.utf8), file: "two.json")
        let chain = try ChainGraph(loaded, registry: registry, sampleRate: 48_000, maximumFrames: frames, parallelism: .singleThreaded)
        defer { chain.dispose() }
        try chain.graph.start()
        let input = OwnedAudioBuffers(channels: chain.inputChannels, capacity: frames)
        let output = OwnedAudioBuffers(channels: chain.outputChannels, capacity: frames)
        var rendered = Array(repeating: [Float](), count: chain.outputChannels)
        for cycle in 0..<cycles {
            for channel in 0..<chain.inputChannels {
                for frame in 0..<frames { input.buffers()[channel][frame] = 0.5 * sin(Float(cycle * frames + frame) * 0.03) }
            }
            let status = chain.graph.render(
                frameCount: frames, timestamp: RenderTimestamp(sampleTime: Double(cycle * frames)), input: input.buffers(), output: output.buffers())
            #expect(status == 0)
            for channel in 0..<chain.outputChannels { rendered[channel] += Array(output.buffers()[channel]) }
        }
        // A hung child is killed once its cycle has gone unanswered for the timeout: wait for that.
        let deadline = Date().addingTimeInterval(20)
        while chain.isolatedNodes.contains(where: { $0.unit.renderStatistics.lateCycles > 0 && $0.unit.faultCount == 0 }), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        return (rendered, heard.withLock { $0 })
    }

    /// A crash, an exit, a write past the buffer's end or a hang in `run()`: the chain goes
    /// on with the node silent (equal, sample for sample, to the chain with the node's
    /// mixer input muted), and the isolator hears one fault naming the node and the unit.
    @Test(arguments: [
        ("crash-in-run", "crashed in render (SIGSEGV)"), ("exit-in-run", "exited with status 0 in render"),
        ("write-past-end", ""), // a segfault, or memory it corrupted that ends the child later ("run-forever", "hung in render"),
    ])
    func aFaultSilencesOnlyItsNode(fixture: String, what: String) throws {
        let fixtures = try Fixtures()
        defer { fixtures.remove() }
        let reference = try Self.render(Self.preset("passthrough", isolation: "none", muted: true), fixtures: fixtures)
        let isolated = try Self.render(Self.preset(fixture, isolation: "per-unit", muted: false), fixtures: fixtures)
        try #require(reference.output.count == isolated.output.count)
        #expect(differingSamples(isolated.output, reference.output) == 0, "the other node's output changed")
        #expect(reference.output.joined().contains { abs($0) > 0.1 }, "the reference is silent")
        try #require(isolated.faults.count == 1, "\(isolated.faults)")
        #expect(isolated.faults[0].node == "bad" && isolated.faults[0].unitName == "Fixture \(fixture)")
        #expect(isolated.faults[0].what.hasPrefix(what), "\(isolated.faults[0].what)")
    }

    /// A plugin that prints on every run or sleeps longer than a live period renders the
    /// same samples isolated as in process (offline a slow cycle is waited for).
    @Test(arguments: ["stdout-spam", "sleep-long"])
    func aNoisyOrSlowPluginRendersTheSameIsolated(fixture: String) throws {
        let fixtures = try Fixtures()
        defer { fixtures.remove() }
        let inProcess = try Self.render(Self.preset("passthrough", isolation: "none", muted: false), fixtures: fixtures)
        let isolated = try Self.render(Self.preset(fixture, isolation: "per-unit", muted: false), fixtures: fixtures)
        #expect(differingSamples(isolated.output, inProcess.output) == 0)
        #expect(isolated.faults.isEmpty, "\(isolated.faults)")
    }

    /// `reload()` after the child is killed: the node's output after the reload equals its
    /// output before the crash (the parameter set live and the preset's state restored).
    @Test func reloadRestoresTheNodesParameters() throws {
        let fixtures = try Fixtures()
        defer { fixtures.remove() }
        let registry = ComponentRegistry(providers: [BuiltinUnits(), LV2Provider(lv2Path: fixtures.lv2Path, probeCacheFile: nil)])
        var loader = PresetLoader(registry: registry)
        loader.isolator = BridgeIsolator(timeout: 5, environment: ["LV2_PATH": fixtures.lv2Path]) { _ in }
        let json = #"{"auhost": 1, "name": "amp", "nodes": [{"id": "amp", "unit": "lv2:http://plugin.org.uk/swh-plugins/amp", "isolation": "per-unit"}], "chain": ["amp"]}"#
        let chain = try ChainGraph(try loader.load(data: Data(json.utf8), file: "amp.json"), registry: registry, sampleRate: 48_000, maximumFrames: Self.frames, parallelism: .singleThreaded)
        defer { chain.dispose() }
        try chain.graph.start()
        let amp = try #require(chain.isolatedNodes.first?.unit)
        let gain = try #require(amp.parameters.info(forKey: "gain"))
        try amp.setParameter(gain.id, value: -12)
        let input = OwnedAudioBuffers(channels: 1, capacity: Self.frames)
        let output = OwnedAudioBuffers(channels: 1, capacity: Self.frames)
        for frame in 0..<Self.frames { input.buffers()[0][frame] = 0.5 * sin(Float(frame) * 0.05) }
        func cycle() -> [Float] {
            #expect(chain.graph.render(frameCount: Self.frames, timestamp: RenderTimestamp(sampleTime: 0), input: input.buffers(), output: output.buffers()) == 0)
            return Array(output.buffers()[0])
        }
        _ = cycle()
        let before = cycle()
        let peak = before.map(abs).max() ?? 0, expectedPeak: Float = 0.5 * pow(10, -12.0 / 20)
        #expect(abs(peak - expectedPeak) < 0.01, "the gain set live did not reach the child")
        kill(amp.host.pid, SIGKILL)
        let deadline = Date().addingTimeInterval(20)
        while amp.faultCount == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        try #require(amp.faultCount == 1)
        #expect(cycle().allSatisfy { $0 == 0 }, "a crashed node is silent")
        try amp.reload()
        #expect(amp.fault == nil)
        _ = cycle()
        #expect(cycle() == before)
    }

    /// A unit that sends MIDI (x42 MIDI transpose) needs what the bridge does not carry yet:
    /// isolated, it is made in the host's process.
    @Test func aUnitTheBridgeCannotCarryStaysInProcess() throws {
        let registry = ComponentRegistry(providers: [BuiltinUnits(), LV2Provider(probeCacheFile: nil)])
        var loader = PresetLoader(registry: registry)
        loader.isolator = BridgeIsolator { _ in }
        loader.isolation = .perUnit
        let json = #"{"auhost": 1, "name": "x", "nodes": [{"id": "transpose", "unit": "lv2:http://gareus.org/oss/lv2/midifilter#miditranspose"}, {"id": "comp", "unit": "lv2:http://plugin.org.uk/swh-plugins/sc4"}], "chain": ["comp"], "midi": [["input", "transpose"], ["transpose", "output"]]}"#
        let loaded = try loader.load(data: Data(json.utf8), file: "x.json")
        defer { loaded.dispose() }
        #expect(!(loaded.nodes[0].unit is BridgedUnit), "the transpose sends MIDI: in process")
        #expect(loaded.nodes[1].unit is BridgedUnit, "sc4 is isolated")
    }

    /// An isolated node's factory presets are its plugin's (asked of its child when first
    /// needed, not at its start-up), and the preset key loads one in the child: mda Piano's
    /// "Plain Piano" sets its muffling filter to 0.751, as in process.
    @Test func anIsolatedNodesFactoryPresetsAreItsPlugins() throws {
        let registry = ComponentRegistry(providers: [BuiltinUnits(), LV2Provider(probeCacheFile: nil)])
        let inProcess = try registry.resolve("lv2:http://drobilla.net/plugins/mda/Piano").instantiate()
        defer { inProcess.dispose() }
        var loader = PresetLoader(registry: registry)
        loader.isolator = BridgeIsolator(timeout: 5) { _ in }
        let json = #"{"auhost": 1, "name": "piano", "nodes": [{"id": "piano", "unit": "lv2:http://drobilla.net/plugins/mda/Piano", "isolation": "per-unit", "preset": "Plain Piano"}], "chain": ["piano"]}"#
        let loaded = try loader.load(data: Data(json.utf8), file: "piano.json")
        defer { loaded.dispose() }
        let piano = try #require(loaded.nodes[0].unit as? BridgedUnit)
        #expect(piano.factoryPresets.map(\.name) == inProcess.factoryPresets.map(\.name))
        #expect(piano.factoryPresets.count > 1)
        let muffle = try #require(piano.parameters.infos.first { $0.identifier == "muffling_filter" })
        #expect(try piano.parameterValue(muffle.id) == 0.751)
    }
}
