import AUCore
import Foundation
import Testing
@testable import AULV2

@Suite struct HostFeatureTests {
    static let convolver = "http://gareus.org/oss/lv2/convoLV2#Mono"

    /// x42 convoLV2 requires buf-size:boundedBlockLength, urid:map, options and
    /// work:schedule; it instantiates, runs in both worker modes, and its output is finite.
    @Test(arguments: [LV2RenderMode.offline, .live])
    func pluginNeedingMapOptionsAndWorkerRuns(mode: LV2RenderMode) throws {
        let unit = try LV2TestSupport.unit(Self.convolver)
        let required = Set(unit.info.requiredFeatures)
        #expect(required.isSuperset(of: [LV2URI.uridMap, LV2URI.optionsOptions, LV2URI.workerSchedule, LV2URI.bufSizeBoundedBlockLength]))
        unit.renderMode = mode
        try unit.setValue(1024, for: .maximumFramesPerSlice)
        try unit.initialize()
        var renderer = OfflineUnitRenderer(unit: unit, blockSize: 1024)
        let output = try renderer.render(frameCount: 16_384) { _, _, frame in LV2TestSupport.sine(frame) }
        #expect(output[0][0].count == 16_384)
        #expect(output.allSatisfy { $0.allSatisfy { $0.allSatisfy(\.isFinite) } })
        // Its state (through state:interface, with mapPath) saves and restores.
        let saved = try unit.value(of: .classInfo)
        try unit.setValue(saved, for: .classInfo)
        unit.dispose()
    }

    /// The URID map agrees with itself across threads and unmaps what it mapped.
    @Test func uridMapRoundTrips() async {
        let map = URIDMap()
        let uris = (0..<500).map { "urn:auhost:test#\($0)" }
        let ids = await withTaskGroup(of: [UInt32].self) { group in
            for _ in 0..<4 { group.addTask { uris.map { map.map($0) } } }
            var all: [[UInt32]] = []
            for await ids in group { all.append(ids) }
            return all
        }
        #expect(Set(ids.map { $0 }).count == 1)
        #expect(Set(ids[0]).count == 500)
        #expect(!ids[0].contains(0))
        #expect(map.uri(of: ids[0][42]) == uris[42])
    }

    /// A plugin whose required feature AUHost lacks fails with an error that names it.
    @Test func missingFeatureIsNamed() {
        let missing = LV2HostFeatures.missing(["http://lv2plug.in/ns/ext/instance-access", LV2URI.uridMap, LV2URI.coreIsLive])
        #expect(missing == ["http://lv2plug.in/ns/ext/instance-access"])
    }

    /// Parameters follow the ports: range, default, units, toggled / enumeration.
    @Test func portsBecomeParametersAndBuses() throws {
        let amp = try LV2TestSupport.unit("http://plugin.org.uk/swh-plugins/amp")
        let gain = try #require(amp.parameters.infos.first)
        #expect(gain.identifier == "gain" && gain.minValue == -70 && gain.maxValue == 70 && gain.defaultValue == 0)
        #expect(gain.id == 0)
        // x42 fil4: stereo in/out, dB and Hz units, toggled enables.
        let eq = try LV2TestSupport.unit("http://gareus.org/oss/lv2/fil4#stereo")
        #expect(eq.formats(.input).map(\.channelsPerFrame) == [2])
        #expect(eq.formats(.output).map(\.channelsPerFrame) == [2])
        let infos = eq.parameters.infos
        #expect(infos.contains { $0.unit == .decibels })
        #expect(infos.contains { $0.unit == .hertz })
        #expect(infos.contains { $0.unit == .boolean })
        #expect(infos.contains { $0.isOutput })
    }
}
