import AUCore

/// What discovery knows about one LV2 plugin, read from its Turtle without touching its
/// ports when the class alone decides the type.
/// - Thread: [any] (a plain value); made on the control thread.
struct LV2PluginInfo: Sendable {
    var uri: String
    var name: String
    /// The author (`doap:maintainer`), else the project's name, else the URI's host.
    var maker: String
    var version: String
    var classURI: String
    var classLabel: String
    var type: FourCharCode
    var requiredFeatures: [String]
    var optionalFeatures: [String]
    /// The plugin's shared library, when lilv names one on disk.
    var binaryPath: String?
    var bundlePath: String?
    /// `lv2:hardRTCapable` (or the older `lv2:pluginProperty lv2:hardRtCapable`).
    var isHardRealTimeCapable: Bool

    /// Reads a plugin's description; nil when lilv finds its data broken (unparsable
    /// Turtle, no name, no type), with the reason.
    /// - Thread: [control]
    static func read(_ plugin: LilvPluginHandle, world: LV2World) -> Result<LV2PluginInfo, AudioUnitError> {
        let nodes = world.nodes
        let uri = plugin.uri ?? "?"
        let verified = plugin.verify()
        guard verified.isValid else {
            let reason = verified.problem.map { "its Turtle does not parse: \($0.text)" } ?? "its Turtle data lacks a name, type or ports"
            return .failure(AudioUnitError(.invalidFile, "\(uri): \(reason); the plugin is skipped"))
        }
        let name = plugin.name ?? uri
        var maker = plugin.authorName
        if maker == nil || maker!.isEmpty, let project = plugin.project {
            maker = world.value(of: project, nodes.doapName)?.string
        }
        if maker == nil || maker!.isEmpty { maker = host(of: uri) }

        let minor = plugin.firstInteger(nodes.minorVersion)
        let micro = plugin.firstInteger(nodes.microVersion)
        let version = minor == nil && micro == nil ? "" : "\(minor ?? 0).\(micro ?? 0)"

        let pluginClass = plugin.pluginClass
        let classURI = pluginClass.uri ?? LV2URI.corePlugin
        let classLabel = pluginClass.label ?? "Plugin"
        let type = LV2ComponentType.type(forClassChain: plugin.classChain) ?? LV2ComponentType.type(for: portSummary(plugin, nodes: nodes))

        // Sorted: lilv gives them in an order that differs from one world to the next.
        let required = plugin.requiredFeatures.sorted()
        let optional = plugin.optionalFeatures.sorted()
        let oldProperty = plugin.asks(nodes.pluginProperty, nodes.hardRtCapableOld)
        let hardRT = required.contains(LV2URI.coreHardRTCapable) || optional.contains(LV2URI.coreHardRTCapable) || oldProperty

        return .success(LV2PluginInfo(
            uri: uri, name: name, maker: maker!, version: version, classURI: classURI, classLabel: classLabel, type: type,
            requiredFeatures: required, optionalFeatures: optional,
            binaryPath: plugin.libraryPath, bundlePath: plugin.bundlePath,
            isHardRealTimeCapable: hardRT))
    }

    /// Counts audio and MIDI ports (this loads the plugin's ports).
    static func portSummary(_ plugin: LilvPluginHandle, nodes: LV2Nodes) -> LV2ComponentType.PortSummary {
        var summary = LV2ComponentType.PortSummary()
        for index in 0..<plugin.portCount {
            guard let port = plugin.port(at: index) else { continue }
            let isInput = port.isA(nodes.inputPort)
            if port.isA(nodes.audioPort) {
                if isInput { summary.audioInputs += 1 } else { summary.audioOutputs += 1 }
            } else if port.isA(nodes.atomPort), port.supportsEvent(nodes.midiEvent) {
                if isInput { summary.midiInputs += 1 } else { summary.midiOutputs += 1 }
            }
        }
        return summary
    }

    private static func host(of uri: String) -> String {
        guard let range = uri.range(of: "://") else { return uri.split(separator: ":").dropFirst().first.map(String.init) ?? uri }
        let rest = uri[range.upperBound...]
        return String(rest.prefix { $0 != "/" })
    }
}
