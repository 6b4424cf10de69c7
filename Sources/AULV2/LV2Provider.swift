import AUCore
import Foundation

/// Every LV2 plugin on the LV2 path as a component (docs/LV2.md): type from its class and
/// ports, manufacturer and subtype codes derived from its maker and URI, marked broken when
/// a cached probe verdict says so. Ports are read only when the first unit of a plugin is made.
/// - Thread: [control]
public struct LV2Provider: ComponentProvider {
    /// A colon-separated LV2 path; nil uses `LV2_PATH` or lilv's default.
    public let lv2Path: String?
    /// Where probe verdicts are read from; nil reads none.
    public let probeCacheFile: URL?
    /// The folder of the discovery cache (`LV2DiscoveryCache`); nil reads every plugin's
    /// Turtle at every discovery.
    public let discoveryCacheFolder: URL?

    /// - Thread: [control]
    public init(lv2Path: String? = nil, probeCacheFile: URL? = LV2ProbeCache.standardFile, discoveryCacheFolder: URL? = nil) {
        self.lv2Path = lv2Path
        self.probeCacheFile = probeCacheFile
        self.discoveryCacheFolder = discoveryCacheFolder
    }

    /// The folder the command-line tool keeps its discovery cache in (beside the probe cache).
    /// - Thread: [control]
    public static var standardCacheFolder: URL { LV2ProbeCache.standardFile.deletingLastPathComponent() }

    /// - Thread: [control]
    public var format: ComponentFormat { .lv2 }

    /// Each plugin's shared library path by URI (what probe verdicts are keyed by), as
    /// discovery finds them: from the discovery cache when it is fresh (no bundle is loaded).
    /// A plugin whose Turtle does not parse is skipped (discovery reports it).
    /// - Thread: [control]
    public func binaryPaths() -> [String: String] {
        var paths: [String: String] = [:]
        for plugin in discover().1 {
            if let path = plugin.info.binaryPath { paths[plugin.info.uri] = path }
        }
        return paths
    }

    /// - Thread: [control]
    public func discoverComponents() -> (components: [Component], problems: [DiscoveryProblem]) {
        let (world, infos, problems) = discover()
        let components = infos.map { entry -> Component in
            let info = entry.info
            let code = entry.codes
            var flags: ComponentFlags = []
            if info.isHardRealTimeCapable { flags.insert(.isRealTimeSafe) }
            let broken = entry.brokenReason
            if broken != nil { flags.insert(.isKnownBroken) }
            let description = ComponentDescription(type: info.type, subtype: code.subtype, manufacturer: code.manufacturer, componentFlags: flags)
            let readOnce = LV2PluginReading.Once()
            return Component(
                description: description, name: info.name, manufacturerName: info.maker, version: info.version, format: .lv2,
                identifier: info.uri, category: info.classLabel, requiredFeatures: info.requiredFeatures, brokenReason: broken,
                factory: { () throws(AudioUnitError) -> AudioUnit in
                    let reading = try readOnce.get { () throws(AudioUnitError) -> LV2PluginReading in
                        // A world made from the discovery cache loads the plugin's bundle now.
                        guard let plugin = world.plugin(uri: info.uri, bundle: info.bundlePath) else {
                            throw AudioUnitError(.failedInitialization, "\(info.uri): lilv no longer finds the plugin in \(info.bundlePath ?? "its bundle")")
                        }
                        return LV2PluginReading(plugin: plugin, world: world)
                    }
                    return try LV2Unit(world: world, reading: reading, info: info, description: description)
                })
        }
        return (components, problems)
    }

    /// The world units are made in, every plugin's description, component codes and why a
    /// cached probe found it broken, and the problems found (bundles whose manifest does not parse, plugins that
    /// could not be read). From the discovery cache when nothing it was made from changed
    /// (the probe cache included): the world then starts empty and loads a plugin's bundle
    /// when a unit of it is made. Else every bundle is loaded and every plugin read from its
    /// Turtle and the probe cache (and the discovery cache rewritten).
    /// - Thread: [control]
    func discover() -> (LV2World, [DiscoveredPlugin], [DiscoveryProblem]) {
        let alsoStamped = probeCacheFile.map { [$0.path] } ?? []
        let cache = discoveryCacheFolder.map { LV2DiscoveryCache(file: LV2DiscoveryCache.file(in: $0, lv2Path: lv2Path)) }
        if let cache, let entry = cache.entry(),
           entry.fingerprint == LV2DiscoveryCache.fingerprint(of: LV2DiscoveryCache.stamps(of: entry.folders, also: alsoStamped)) {
            return (LV2World(lv2Path: lv2Path, loadingAllBundles: false),
                    entry.plugins.map { DiscoveredPlugin(info: $0.info, codes: ($0.manufacturer, $0.subtype), brokenReason: $0.brokenReason) },
                    entry.problems.map { DiscoveryProblem(format: .lv2, location: $0.location, message: $0.message) })
        }
        let world = LV2World(lv2Path: lv2Path)
        let probes = probeCacheFile.map { LV2ProbeCache(file: $0) }
        var found: [(info: LV2PluginInfo, brokenReason: String?)] = []
        var problems = world.manifestProblems.problems.map {
            DiscoveryProblem(format: .lv2, location: $0.bundle, message: "\($0.text); its plugins are skipped")
        }
        for plugin in world.plugins {
            switch LV2PluginInfo.read(plugin, world: world) {
            case .success(let info):
                let broken = probes?.verdict(uri: info.uri, binaryPath: info.binaryPath)?.brokenReason
                found.append((info, broken))
            case .failure(let error):
                let location = plugin.bundlePath.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? plugin.uri ?? "?"
                problems.append(DiscoveryProblem(format: .lv2, location: location, message: error.message))
            }
        }
        let codes = LV2ComponentCodes.assign(found.map { LV2ComponentCodes.Entry(uri: $0.info.uri, maker: $0.info.maker) })
        let plugins = found.map { DiscoveredPlugin(info: $0.info, codes: codes[$0.info.uri]!, brokenReason: $0.brokenReason) }
        if let cache {
            let folders = LV2DiscoveryCache.folders(of: world, lv2Path: lv2Path)
            cache.store(LV2DiscoveryCache.Entry(
                version: LV2DiscoveryCache.version, fingerprint: LV2DiscoveryCache.fingerprint(of: LV2DiscoveryCache.stamps(of: folders, also: alsoStamped)),
                folders: folders,
                plugins: plugins.map {
                    LV2DiscoveryCache.Plugin(info: $0.info, manufacturer: $0.codes.manufacturer, subtype: $0.codes.subtype, brokenReason: $0.brokenReason)
                },
                problems: problems.map { LV2DiscoveryCache.Problem(location: $0.location, message: $0.message) }))
        }
        return (world, plugins, problems)
    }

    /// One plugin discovery found.
    struct DiscoveredPlugin {
        var info: LV2PluginInfo
        /// Its component codes (``LV2ComponentCodes``: assigned over every plugin at once).
        var codes: (manufacturer: FourCharCode, subtype: FourCharCode)
        var brokenReason: String?
    }
}
