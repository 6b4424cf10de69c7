import AUCore
import Foundation
import Testing
import AUTestSupport
@testable import AULV2

@Suite struct DiscoveryTests {
    /// Every plugin lilv lists (lv2ls) is a component, with a unique type:subtype:manufacturer.
    @Test func findsEveryInstalledPluginWithUniqueCodes() throws {
        let found = LV2TestSupport.provider().discoverComponents()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/lv2ls")
        let pipe = Pipe()
        process.standardOutput = pipe
        try ChildProcess.launch(process)
        let listed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").map(String.init)
        process.waitUntilExit()
        #expect(listed.count > 100)
        let uris = Set(found.components.map(\.identifier))
        #expect(uris == Set(listed), "missing: \(Set(listed).subtracting(uris).sorted()), extra: \(uris.subtracting(listed).sorted())")
        let codes = found.components.map(\.description.description)
        #expect(Set(codes).count == codes.count)
        #expect(found.problems.isEmpty, "\(found.problems)")
    }

    /// Two worlds give every plugin the same codes (stable across runs).
    @Test func codesAreStable() {
        let first = LV2TestSupport.provider().discoverComponents().components
        let second = LV2TestSupport.provider().discoverComponents().components
        let a = Dictionary(uniqueKeysWithValues: first.map { ($0.identifier, $0.description.description) })
        let b = Dictionary(uniqueKeysWithValues: second.map { ($0.identifier, $0.description.description) })
        #expect(a == b)
        #expect(a["http://plugin.org.uk/swh-plugins/amp"] == "aufx:amp :StHa")
        #expect(a["http://drobilla.net/plugins/mda/Piano"]?.hasPrefix("aumu:pian:") == true)
    }

    /// The derivation rule (docs/LV2.md) and its collision resolution.
    @Test func codeRule() {
        #expect(LV2ComponentCodes.manufacturerBase("Steve Harris") == "StHa")
        #expect(LV2ComponentCodes.manufacturerBase("gareus") == "Gare")
        #expect(LV2ComponentCodes.subtypeBase(uri: "http://plugin.org.uk/swh-plugins/fastLookaheadLimiter") == "fstl")
        #expect(LV2ComponentCodes.subtypeBase(uri: "http://gareus.org/oss/lv2/meters#VUmono") == "mvmn")
        let codes = LV2ComponentCodes.assign([
            .init(uri: "urn:a:delay", maker: "Steve Harris"), .init(uri: "urn:b:delay", maker: "Steve Harris"),
            .init(uri: "urn:c:delay", maker: "Steven Hawking"),
        ])
        #expect(codes["urn:a:delay"]!.manufacturer.description == "StHa")
        #expect(codes["urn:c:delay"]!.manufacturer.description == "StH1")
        #expect(codes["urn:a:delay"]!.subtype.description == "dela")
        #expect(codes["urn:b:delay"]!.subtype.description == "del1")
        #expect(codes["urn:c:delay"]!.subtype.description == "dela")
    }

    /// The class table: instruments are music devices, MIDI-only plugins MIDI processors,
    /// effects effects, generators generators.
    @Test func typesFollowTheClassTable() {
        let components = LV2TestSupport.provider().discoverComponents().components
        func type(_ uri: String) -> String? { components.first { $0.identifier == uri }?.description.type.description }
        #expect(type("http://drobilla.net/plugins/mda/JX10") == "aumu")
        #expect(type("http://plugin.org.uk/swh-plugins/amp") == "aufx")
        #expect(type("http://gareus.org/oss/lv2/midifilter#channelmap") == "aumi")
        #expect(type("http://plugin.org.uk/swh-plugins/analogueOsc") == "augn")
        let amp = components.first { $0.identifier == "http://plugin.org.uk/swh-plugins/amp" }
        #expect(amp?.description.componentFlags.contains(.isRealTimeSafe) == true)
        #expect(amp?.manufacturerName == "Steve Harris")
        #expect(amp?.category == "Amplifier Plugin")
    }
}
