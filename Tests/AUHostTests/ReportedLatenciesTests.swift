import AUBridge
import AUCore
import AULV2
import AUTestSupport
import Foundation
import Testing

@testable import AUHost

/// A chain is primed once, not once per render (``ReportedLatencies``): later graphs are
/// built with the latency their units reported, and a unit that reports another one makes
/// the render start over primed, its output aligned as a primed render's.
@Suite struct ReportedLatenciesTests {
    /// The fixture's latency output (`urn:auhost:fixture:file-latency`: its input delayed by
    /// the frames its bundle's file `latency` held when it was instantiated).
    static let latencyPort = """
        [ a lv2:OutputPort , lv2:ControlPort ; lv2:index 2 ; lv2:symbol "latency" ; lv2:name "Latency" ; \
        lv2:portProperty lv2:reportsLatency , lv2:integer ; lv2:designation lv2:latency ]
        """
    static let preset = """
        {"auhost": 1, "name": "late", "sampleRate": 48000, "nodes": [{"id": "late", "unit": "lv2:urn:auhost:fixture:file-latency"}], "chain": ["late"]}
        """

    /// A bundle folder holding the fixture, its latency file set to `frames`.
    struct Fixture {
        let folder: TemporaryFolder
        var bundle: URL { folder.url.appendingPathComponent("file-latency.lv2") }

        init(frames: Int) throws {
            folder = try TemporaryFolder(prefix: "auhost-latencies")
            try writeFixtureBundle("file-latency", name: "Fixture file-latency", into: folder.url, extraPorts: [ReportedLatenciesTests.latencyPort])
            try setLatency(frames)
        }

        func setLatency(_ frames: Int) throws {
            try "\(frames)\n".write(to: bundle.appendingPathComponent("latency"), atomically: true, encoding: .utf8)
        }

        /// The chain, its node in this process or in a unit-host child (`isolation`).
        func processor(isolation: UnitIsolation = .none) throws -> ChainProcessor {
            let registry = ComponentRegistry(providers: [BuiltinUnits(), LV2Provider(lv2Path: folder.path, probeCacheFile: nil)])
            var settings = RenderSettings()
            settings.blockSize = 256
            settings.tail = .seconds(0)
            settings.parallelism = .singleThreaded
            let isolator = isolation == .none ? nil : BridgeIsolator(timeout: 5, environment: ["LV2_PATH": folder.path]) { _ in }
            return try ChainProcessor(
                .json(ReportedLatenciesTests.preset, file: folder.file("late.json")), registry: registry, settings: settings,
                isolation: isolation, isolator: isolator)
        }

        func remove() { folder.remove() }
    }

    /// An impulse at frame 100 of 2,000 frames, mono.
    static func impulse() -> [Float] {
        var samples = [Float](repeating: 0, count: 2000)
        samples[100] = 1
        return samples
    }

    static func render(_ processor: ChainProcessor) throws -> [Float] {
        var samples = impulse()
        let output = try samples.withUnsafeMutableBufferPointer { samples in
            let pointers = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>.allocate(capacity: 1)
            defer { pointers.deallocate() }
            pointers[0] = samples.baseAddress!
            return try processor.render(AudioBuffers(channelPointers: pointers, frameCount: samples.count), sampleRate: 48_000)
        }
        return try #require(output?.first)
    }

    /// In this process, and isolated (the proxy's latency output seeded; the child's unit
    /// writes it back with its first cycle), so that a batch of isolated plugins is primed once.
    @Test(arguments: [UnitIsolation.none, .together])
    func laterRendersAreBuiltWithTheReportedLatencyAndStayAligned(isolation: UnitIsolation) throws {
        let fixture = try Fixture(frames: 40)
        defer { fixture.remove() }
        let processor = try fixture.processor(isolation: isolation)
        let builder = BatchRenderer(loaded: processor.loaded, registry: processor.registry, settings: processor.settings, jobs: [])
        let first = try builder.startedChain(at: 48_000)
        #expect(first.nodes.allSatisfy { ($0.unit is BridgedUnit) == (isolation != .none) }, "isolated as asked")
        #expect(!first.latenciesSeeded && first.latencyFrames == 40, "the first graph is primed")
        first.dispose()
        let second = try builder.startedChain(at: 48_000)
        #expect(second.latenciesSeeded && second.latencyFrames == 40, "the next one is built with what the first reported")
        second.dispose()
        for _ in 0..<3 {
            #expect(try Self.render(processor) == Self.impulse(), "the delay compensated: the impulse where it was")
        }
    }

    @Test(arguments: [UnitIsolation.none, .together])
    func aUnitThatReportsAnotherLatencyIsPrimedAgain(isolation: UnitIsolation) throws {
        let fixture = try Fixture(frames: 40)
        defer { fixture.remove() }
        let processor = try fixture.processor(isolation: isolation)
        #expect(try Self.render(processor) == Self.impulse())
        // A fresh instance now delays by 90 frames: the graph built with 40 would put the
        // impulse 50 frames late; the render notices and starts over, primed.
        try fixture.setLatency(90)
        #expect(try Self.render(processor) == Self.impulse())
        #expect(try Self.render(processor) == Self.impulse())
        #expect(processor.lastReport?.latencyFrames == 90)
    }
}
