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

    /// swh amp, isolated `isolation`, its child spinning `childSpin` seconds for a request.
    static func load(isolation: String, childSpin: Double = 0) throws -> (LoadedPreset, ComponentRegistry) {
        let json = #"{"auhost": 1, "name": "amp", "nodes": [{"id": "amp", "unit": "lv2:http://plugin.org.uk/swh-plugins/amp", "isolation": "ISOLATION"}], "chain": ["amp"]}"#
        let registry = ComponentRegistry(providers: [BuiltinUnits(), LV2Provider(probeCacheFile: nil)])
        var loader = PresetLoader(registry: registry)
        loader.isolator = BridgeIsolator(timeout: 5, childSpin: childSpin) { _ in }
        return (try loader.load(data: Data(json.replacingOccurrences(of: "ISOLATION", with: isolation).utf8), file: "amp.json"), registry)
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
        let chain = try ChainGraph(loaded, registry: registry, sampleRate: 48_000, maximumFrames: Self.frames, parallelism: .singleThreaded)
        defer { chain.dispose() }
        try chain.graph.start()
        let slow = try #require(chain.isolatedNodes.first?.unit)
        slow.cycleDeadline = 0.002
        let input = OwnedAudioBuffers(channels: 1, capacity: Self.frames)
        let output = OwnedAudioBuffers(channels: 1, capacity: Self.frames)
        _ = chain.graph.render(frameCount: Self.frames, timestamp: RenderTimestamp(sampleTime: 0), input: input.buffers(), output: output.buffers())
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
        let chain = try ChainGraph(loaded, registry: registry, sampleRate: 48_000, maximumFrames: Self.frames, parallelism: .singleThreaded)
        defer { chain.dispose() }
        try chain.graph.start()
        let amp = try #require(chain.isolatedNodes.first?.unit)
        let input = OwnedAudioBuffers(channels: 1, capacity: Self.frames)
        let output = OwnedAudioBuffers(channels: 1, capacity: Self.frames)
        for cycle in 0..<8 {
            let status = chain.graph.render(
                frameCount: Self.frames, timestamp: RenderTimestamp(sampleTime: Double(cycle * Self.frames)), input: input.buffers(), output: output.buffers())
            #expect(status == 0)
        }
        #expect(amp.renderStatistics.cycles == 8)
        #expect(abs(amp.host.doorbell.spin - 0.002) < 1e-9, "the child was not told to spin")
        let deadline = Date().addingTimeInterval(20)
        while !amp.host.doorbell.childSleeps, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(amp.host.doorbell.childSleeps, "the child's render thread still spins (or renders) with no request coming")
    }
}
