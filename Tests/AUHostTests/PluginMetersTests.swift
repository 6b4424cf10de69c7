import AUCore
import AUHost
import AUTestSupport
import Foundation
import Testing

/// Which plugin outputs `meters` lists (``PluginMeters``), against the plugins installed
/// here: a level the plugin marks for the host (x42 dpl's `level`, in dB) is a meter;
/// Guitarix's `SCHEDULE` (`pprops:notOnGUI`) and dpl's `latency` (`lv2:reportsLatency`)
/// are not; and the same dpl whose data marks `level` `pprops:notOnGUI` has no meter.
@Suite struct PluginMetersTests {
    static let dpl = "http://gareus.org/oss/lv2/dpl#mono"
    static let guitarixAmp = "http://guitarix.sourceforge.net/plugins/gx_amp#GUITARIX"
    static var installed: Bool {
        FileManager.default.fileExists(atPath: "/usr/lib/lv2/dpl.lv2/dpl.ttl") && FileManager.default.fileExists(atPath: "/usr/lib/lv2/gx_amp.lv2/gx_amp.ttl")
    }

    /// The named output parameters of `unit` that are meters.
    static func meters(_ unit: AudioUnit) -> [String] {
        PluginMeters.meterParameters(of: unit).map { unit.parameters.infos[$0].identifier }
    }

    /// The identifiers of `unit`'s output parameters.
    static func outputs(_ unit: AudioUnit) -> [String] {
        unit.parameters.infos.filter(\.isOutput).map(\.identifier)
    }

    @Test(.enabled(if: installed, "needs x42-plugins (dpl.lv2) and guitarix-lv2 (gx_amp.lv2) installed"))
    func aLevelTheHostIsMeantToReadIsAMeterAndThePluginsOwnPortsAreNot() throws {
        let registry = ComponentRegistry(providers: [LV2Provider(lv2Path: "/usr/lib/lv2", probeCacheFile: nil)])
        let limiter = try registry.instantiate("lv2:\(Self.dpl)")
        defer { limiter.dispose() }
        #expect(Self.outputs(limiter).contains("latency") && Self.outputs(limiter).contains("level"), "\(Self.outputs(limiter))")
        #expect(Self.meters(limiter) == ["level"])
        let amp = try registry.instantiate("lv2:\(Self.guitarixAmp)")
        defer { amp.dispose() }
        #expect(Self.outputs(amp).contains("SCHEDULE"), "\(Self.outputs(amp))")
        #expect(Self.meters(amp).isEmpty, "\(Self.meters(amp))")
    }

    /// The plugin's own data decides: dpl's bundle copied with its `level` output marked
    /// `pprops:notOnGUI` (the same binary, the same dB unit) gives no meter.
    @Test(.enabled(if: installed, "needs x42-plugins (dpl.lv2) installed"))
    func anOutputThePluginMarksAsItsOwnIsNoMeterWhateverItsUnit() throws {
        let folder = try TemporaryFolder(prefix: "auhost-meters")
        defer { folder.remove() }
        let bundle = folder.url.appendingPathComponent("dpl.lv2")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        for file in ["manifest.ttl", "dpl.so"] {
            try FileManager.default.copyItem(atPath: "/usr/lib/lv2/dpl.lv2/\(file)", toPath: bundle.appendingPathComponent(file).path)
        }
        let ttl = try String(contentsOfFile: "/usr/lib/lv2/dpl.lv2/dpl.ttl", encoding: .utf8)
        let marked = ttl.replacingOccurrences(
            of: "lv2:symbol \"level\" ;", with: "lv2:symbol \"level\" ; lv2:portProperty <http://lv2plug.in/ns/ext/port-props#notOnGUI> ;")
        try #require(marked != ttl, "dpl.ttl has no level port to mark")
        try marked.write(to: bundle.appendingPathComponent("dpl.ttl"), atomically: true, encoding: .utf8)
        let registry = ComponentRegistry(providers: [LV2Provider(lv2Path: folder.path, probeCacheFile: nil)])
        let limiter = try registry.instantiate("lv2:\(Self.dpl)")
        defer { limiter.dispose() }
        let level = try #require(limiter.parameters.infos.first { $0.identifier == "level" })
        #expect(level.isOutput && level.unit == .decibels, "still a dB output")
        #expect(Self.meters(limiter).isEmpty, "\(Self.meters(limiter))")
    }
}
