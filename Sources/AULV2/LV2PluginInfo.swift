import AUCore
import CLilv

/// What discovery knows about one LV2 plugin, read from its Turtle without touching its
/// ports when the class alone decides the type.
/// - Thread: any (a plain value); made on the control thread.
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
    /// - Thread: control, inside the world's lock.
    static func read(_ plugin: OpaquePointer, world: LV2World) -> Result<LV2PluginInfo, AudioUnitError> {
        let nodes = world.nodes
        let uri = LV2Node.string(lilv_plugin_get_uri(plugin)) ?? "?"
        guard lilv_plugin_verify(plugin) else {
            return .failure(AudioUnitError(
                .invalidFile,
                "\(uri): its Turtle data does not parse or lacks a name, type or ports (lilv_plugin_verify failed; lilv printed the details)"))
        }
        let name = LV2Node(owning: lilv_plugin_get_name(plugin)).string ?? uri
        var maker = LV2Node(owning: lilv_plugin_get_author_name(plugin)).string
        if maker == nil || maker!.isEmpty {
            let project = LV2Node(owning: lilv_plugin_get_project(plugin))
            if let projectNode = project.raw {
                maker = LV2Node(owning: lilv_world_get(world.raw, projectNode, nodes.doapName, nil)).string
            }
        }
        if maker == nil || maker!.isEmpty { maker = host(of: uri) }

        let minor = firstInt(lilv_plugin_get_value(plugin, nodes.minorVersion))
        let micro = firstInt(lilv_plugin_get_value(plugin, nodes.microVersion))
        let version = minor == nil && micro == nil ? "" : "\(minor ?? 0).\(micro ?? 0)"

        let pluginClass = lilv_plugin_get_class(plugin)
        let classURI = LV2Node.string(lilv_plugin_class_get_uri(pluginClass)) ?? LV2URI.corePlugin
        let classLabel = LV2Node.string(lilv_plugin_class_get_label(pluginClass)) ?? "Plugin"
        let chain = classChain(from: pluginClass, world: world)
        let type = LV2ComponentType.type(forClassChain: chain) ?? LV2ComponentType.type(for: portSummary(plugin, nodes: nodes))

        // Sorted: lilv gives them in an order that differs from one world to the next.
        let required = takeStrings(lilv_plugin_get_required_features(plugin)).sorted()
        let optional = takeStrings(lilv_plugin_get_optional_features(plugin)).sorted()
        let oldProperty = lilv_world_ask(world.raw, lilv_plugin_get_uri(plugin), nodes.pluginProperty, nodes.hardRtCapableOld)
        let hardRT = required.contains(LV2URI.coreHardRTCapable) || optional.contains(LV2URI.coreHardRTCapable) || oldProperty

        return .success(LV2PluginInfo(
            uri: uri, name: name, maker: maker!, version: version, classURI: classURI, classLabel: classLabel, type: type,
            requiredFeatures: required, optionalFeatures: optional,
            binaryPath: filePath(lilv_plugin_get_library_uri(plugin)), bundlePath: filePath(lilv_plugin_get_bundle_uri(plugin)),
            isHardRealTimeCapable: hardRT))
    }

    /// The plugin's class and its ancestors, most specific first.
    private static func classChain(from pluginClass: OpaquePointer?, world: LV2World) -> [String] {
        var chain: [String] = []
        let classes = lilv_world_get_plugin_classes(world.raw)
        var current = pluginClass
        while let node = current, let uri = LV2Node.string(lilv_plugin_class_get_uri(node)), !chain.contains(uri), chain.count < 16 {
            chain.append(uri)
            guard let parent = lilv_plugin_class_get_parent_uri(node) else { break }
            current = lilv_plugin_classes_get_by_uri(classes, parent)
        }
        return chain
    }

    /// Counts audio and MIDI ports (this loads the plugin's ports).
    static func portSummary(_ plugin: OpaquePointer, nodes: LV2Nodes) -> LV2ComponentType.PortSummary {
        var summary = LV2ComponentType.PortSummary()
        for index in 0..<lilv_plugin_get_num_ports(plugin) {
            guard let port = lilv_plugin_get_port_by_index(plugin, index) else { continue }
            let isInput = lilv_port_is_a(plugin, port, nodes.inputPort)
            if lilv_port_is_a(plugin, port, nodes.audioPort) {
                if isInput { summary.audioInputs += 1 } else { summary.audioOutputs += 1 }
            } else if lilv_port_is_a(plugin, port, nodes.atomPort), lilv_port_supports_event(plugin, port, nodes.midiEvent) {
                if isInput { summary.midiInputs += 1 } else { summary.midiOutputs += 1 }
            }
        }
        return summary
    }

    private static func firstInt(_ nodes: UnsafeMutableRawPointer?) -> Int? {
        defer { lilv_nodes_free(nodes) }
        guard let nodes, let first = lilv_nodes_get_first(nodes), lilv_node_is_int(first) else { return nil }
        return Int(lilv_node_as_int(first))
    }

    /// The local path of a `file:` URI node lilv owns.
    static func filePath(_ node: OpaquePointer?) -> String? {
        guard let node, let uri = lilv_node_as_uri(node), let path = lilv_file_uri_parse(uri, nil) else { return nil }
        defer { lilv_free(path) }
        return String(cString: path)
    }

    private static func host(of uri: String) -> String {
        guard let range = uri.range(of: "://") else { return uri.split(separator: ":").dropFirst().first.map(String.init) ?? uri }
        let rest = uri[range.upperBound...]
        return String(rest.prefix { $0 != "/" })
    }
}
