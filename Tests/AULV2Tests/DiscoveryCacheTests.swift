import AUCore
import AUTestSupport
import Foundation
import Testing
@testable import AULV2

/// The discovery cache gives what a full read gives, is used while nothing changed, and is
/// read again when a bundle changes.
@Suite struct DiscoveryCacheTests {
    /// What a component looks like to a user of the registry.
    private static func summary(_ components: [Component]) -> [String] {
        components.map {
            [$0.identifier, $0.name, $0.description.description, $0.manufacturerName, $0.version, $0.category,
             $0.requiredFeatures.joined(separator: " "), $0.brokenReason ?? ""].joined(separator: " | ")
        }.sorted()
    }

    @Test func cachedDiscoveryEqualsAFullRead() throws {
        let folder = try TemporaryFolder(prefix: "auhost-discovery-cache")
        defer { folder.remove() }
        let full = LV2Provider(probeCacheFile: nil).discoverComponents()
        let cached = LV2Provider(probeCacheFile: nil, discoveryCacheFolder: folder.url)
        let first = cached.discoverComponents()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 1, "the first discovery writes the cache")
        let second = cached.discoverComponents()
        #expect(full.components.count > 100)
        for (label, found) in [("first", first), ("second", second)] {
            let got = Self.summary(found.components), expected = Self.summary(full.components)
            #expect(got.count == expected.count)
            let differences = zip(got, expected).filter { $0 != $1 }
            #expect(differences.isEmpty, "\(label) discovery: \(differences.prefix(3).map { "\($0.0) instead of \($0.1)" })")
        }
        #expect(second.problems.map(\.description) == full.problems.map(\.description))
        // The units still instantiate and initialize from a cached discovery.
        let unit = try #require(second.components.first { $0.identifier == "http://plugin.org.uk/swh-plugins/amp" }).instantiate()
        try unit.initialize()
        unit.dispose()
    }

    /// Also: a cache file that does not decode is read past and rewritten.
    @Test func aChangedBundleIsReadAgainAndAnUnchangedOneIsNot() throws {
        let fixtures = try FixtureBundles()
        defer { fixtures.remove() }
        let folder = try TemporaryFolder(prefix: "auhost-discovery-cache")
        defer { folder.remove() }
        let provider = LV2Provider(lv2Path: fixtures.root.path, probeCacheFile: nil, discoveryCacheFolder: folder.url)
        func name(_ uri: String) -> String? { provider.discoverComponents().components.first { $0.identifier == uri }?.name }
        let uri = "urn:auhost:fixture:passthrough"
        #expect(name(uri) == "Fixture Passthrough")
        let problems = provider.discoverComponents().problems.count
        #expect(problems > 0, "the bad-Turtle fixture is a problem")

        // Nothing changed: the cache is what is read (marked here to tell it from the Turtle).
        let file = try #require(FileManager.default.contentsOfDirectory(at: folder.url, includingPropertiesForKeys: nil).first)
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(of: "\tFixture Passthrough\t", with: "\tFixture Passthrough (cached)\t")
            .write(to: file, atomically: true, encoding: .utf8)
        #expect(name(uri) == "Fixture Passthrough (cached)")
        #expect(provider.discoverComponents().problems.count == problems)

        // The plugin's Turtle changes: discovery reads it again.
        let data = fixtures.root.appendingPathComponent("passthrough.lv2/plugin.ttl")
        try String(contentsOf: data, encoding: .utf8).replacingOccurrences(of: "Fixture Passthrough", with: "Fixture Renamed")
            .write(to: data, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: data.path)
        #expect(name(uri) == "Fixture Renamed")

        // A cache file that does not decode is read past, then rewritten.
        try Data("{ not json".utf8).write(to: file)
        #expect(name(uri) == "Fixture Renamed")
        #expect(try String(contentsOf: file, encoding: .utf8).contains("Fixture Renamed"))

        // A bundle disappears: so does its plugin.
        try FileManager.default.removeItem(at: fixtures.root.appendingPathComponent("null-instance.lv2"))
        #expect(name("urn:auhost:fixture:null-instance") == nil)
        #expect(name(uri) == "Fixture Renamed")
    }

    /// A start that finds the cache valid loads no bundle until a unit is made, then only
    /// that unit's (issue 32: lilv parsed every installed bundle's manifest at every start).
    @Test func aValidCacheLoadsOnlyTheBundlesOfTheUnitsMade() throws {
        let fixtures = try FixtureBundles()
        defer { fixtures.remove() }
        let folder = try TemporaryFolder(prefix: "auhost-discovery-cache")
        defer { folder.remove() }
        let provider = LV2Provider(lv2Path: fixtures.root.path, probeCacheFile: nil, discoveryCacheFolder: folder.url)
        let (filling, read, _) = provider.discover()
        #expect(filling.plugins.count > 2, "a stale cache loads every bundle")
        let (world, cached, _) = provider.discover()
        #expect(cached.map(\.info.uri).sorted() == read.map(\.info.uri).sorted())
        #expect(world.plugins.isEmpty, "no bundle is loaded before a unit is made")
        let uri = "urn:auhost:fixture:passthrough"
        let info = try #require(cached.first { $0.info.uri == uri }?.info)
        #expect(world.plugin(uri: uri, bundle: info.bundlePath) != nil)
        #expect(world.plugins.map(\.uri) == [uri], "only the passthrough's bundle is loaded")
        let unit = try #require(provider.discoverComponents().components.first { $0.identifier == uri }).instantiate()
        try unit.initialize()
        unit.dispose()
    }

    /// Loading every bundle (what a unit's presets need) after some were loaded one at a
    /// time loads only the others: lilv would reload the loaded ones, and reloading a plugin
    /// frees the ports its units still use.
    @Test func loadingEveryBundleLaterReloadsNoneLoadedBefore() throws {
        let fixtures = try FixtureBundles()
        defer { fixtures.remove() }
        let folder = try TemporaryFolder(prefix: "auhost-discovery-cache")
        defer { folder.remove() }
        let provider = LV2Provider(lv2Path: fixtures.root.path, probeCacheFile: nil, discoveryCacheFolder: folder.url)
        let everything = provider.discover().0.plugins.count
        let (world, cached, _) = provider.discover()
        let uri = "urn:auhost:fixture:passthrough"
        let info = try #require(cached.first { $0.info.uri == uri }?.info)
        _ = try #require(world.plugin(uri: uri, bundle: info.bundlePath))
        world.loadAllBundles()
        #expect(world.plugins.count == everything)
        let reloads = world.manifestProblems.otherLines.filter { $0.contains("Reloading") || $0.contains("Duplicate") }
        #expect(reloads.isEmpty, "\(reloads)")
    }
}
