import AUCore
import Foundation

/// Every LV2 plugin on the LV2 path as a component (docs/LV2.md): type from its class and
/// ports, manufacturer and subtype codes derived from its maker and URI, marked broken when
/// a cached probe verdict says so. Ports are read only when a unit is instantiated.
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

    /// Each plugin's shared library path by URI (what probe verdicts are keyed by).
    /// - Thread: [control]
    public func binaryPaths() -> [String: String] {
        let world = LV2World(lv2Path: lv2Path)
        var paths: [String: String] = [:]
        // A plugin whose Turtle does not parse is skipped (discovery reports it).
        for plugin in world.plugins where plugin.verify().isValid {
            if let uri = plugin.uri, let path = plugin.libraryPath { paths[uri] = path }
        }
        return paths
    }

    /// - Thread: [control]
    public func discoverComponents() -> (components: [Component], problems: [DiscoveryProblem]) {
        let world = LV2World(lv2Path: lv2Path)
        let (infos, pluginProblems) = readPlugins(world)
        let problems = world.manifestProblems.problems.map {
            DiscoveryProblem(format: .lv2, location: $0.bundle, message: "\($0.text); its plugins are skipped")
        } + pluginProblems
        let codes = LV2ComponentCodes.assign(infos.map { LV2ComponentCodes.Entry(uri: $0.info.uri, maker: $0.info.maker) })
        let components = infos.map { entry -> Component in
            let info = entry.info
            let plugin = entry.plugin
            let code = codes[info.uri]!
            var flags: ComponentFlags = []
            if info.isHardRealTimeCapable { flags.insert(.isRealTimeSafe) }
            let broken = entry.brokenReason
            if broken != nil { flags.insert(.isKnownBroken) }
            let description = ComponentDescription(type: info.type, subtype: code.subtype, manufacturer: code.manufacturer, componentFlags: flags)
            return Component(
                description: description, name: info.name, manufacturerName: info.maker, version: info.version, format: .lv2,
                identifier: info.uri, category: info.classLabel, requiredFeatures: info.requiredFeatures, brokenReason: broken,
                factory: { () throws(AudioUnitError) -> AudioUnit in
                    try LV2Unit(world: world, plugin: plugin, info: info, description: description)
                })
        }
        return (components, problems)
    }

    /// Every plugin's description with its lilv plugin and why a cached probe found it
    /// broken, and the plugins that could not be read: from the discovery cache when nothing
    /// it was made from changed (the probe cache included), else read from the Turtle and
    /// the probe cache (and the discovery cache rewritten).
    /// - Thread: [control]
    private func readPlugins(_ world: LV2World) -> ([DiscoveredPlugin], [DiscoveryProblem]) {
        let plugins = world.plugins
        var pointers: [String: LilvPluginHandle] = [:]
        for plugin in plugins {
            if let uri = plugin.uri { pointers[uri] = plugin }
        }
        let cache = discoveryCacheFolder.map { LV2DiscoveryCache(file: LV2DiscoveryCache.file(in: $0, lv2Path: lv2Path)) }
        let fingerprint = cache.map { _ in LV2DiscoveryCache.fingerprint(of: LV2DiscoveryCache.stamps(of: world, also: probeCacheFile.map { [$0.path] } ?? [])) }
        if let cache, let fingerprint, let entry = cache.entry(matching: fingerprint),
           entry.plugins.allSatisfy({ pointers[$0.info.uri] != nil }) {
            return (entry.plugins.map { DiscoveredPlugin(plugin: pointers[$0.info.uri]!, info: $0.info, brokenReason: $0.brokenReason) },
                    entry.problems.map { DiscoveryProblem(format: .lv2, location: $0.location, message: $0.message) })
        }
        let probes = probeCacheFile.map { LV2ProbeCache(file: $0) }
        var found: [DiscoveredPlugin] = []
        var problems: [DiscoveryProblem] = []
        for plugin in plugins {
            switch LV2PluginInfo.read(plugin, world: world) {
            case .success(let info):
                let broken = probes?.verdict(uri: info.uri, binaryPath: info.binaryPath)?.brokenReason
                found.append(DiscoveredPlugin(plugin: plugin, info: info, brokenReason: broken))
            case .failure(let error):
                let location = plugin.bundlePath.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? plugin.uri ?? "?"
                problems.append(DiscoveryProblem(format: .lv2, location: location, message: error.message))
            }
        }
        if let cache, let fingerprint {
            cache.store(LV2DiscoveryCache.Entry(
                version: LV2DiscoveryCache.version, fingerprint: fingerprint,
                plugins: found.map { LV2DiscoveryCache.Plugin(info: $0.info, brokenReason: $0.brokenReason) },
                problems: problems.map { LV2DiscoveryCache.Problem(location: $0.location, message: $0.message) }))
        }
        return (found, problems)
    }

    /// One plugin discovery found.
    struct DiscoveredPlugin {
        var plugin: LilvPluginHandle
        var info: LV2PluginInfo
        var brokenReason: String?
    }
}
