import CLilv

/// A `LilvPlugin*`: one plugin the world loaded. Every answer is copied out under the
/// world's lock; the plugin lives as long as its world, which the handle keeps alive.
/// - Thread: [control]
struct LilvPluginHandle: @unchecked Sendable {
    let world: LV2World
    /// The `LilvPlugin*`; used only in this folder.
    let raw: OpaquePointer

    /// The plugin's URI.
    var uri: String? { world.locked { LilvNodeHandle.string(lilv_plugin_get_uri(raw)) } }

    /// Whether its data parses and has a name, a type and ports. This is the call that reads
    /// the plugin's own Turtle: what lilv and serd print about it is taken, not printed, and
    /// returned as the bundle's problem (nil when they printed nothing about it).
    func verify() -> (isValid: Bool, problem: LV2TurtleProblems.Problem?) {
        world.locked {
            let verifying = StandardErrorCapture.capturing { lilv_plugin_verify(raw) }
            let problems = LV2TurtleProblems(captured: verifying.text)
            problems.passOnOtherLines()
            return (verifying.result, problems.problems.first)
        }
    }

    /// `doap:name`.
    var name: String? { world.locked { LilvNodeHandle(owning: lilv_plugin_get_name(raw), world: world) }?.string }

    /// The maintainer's `foaf:name`.
    var authorName: String? { world.locked { LilvNodeHandle(owning: lilv_plugin_get_author_name(raw), world: world) }?.string }

    /// The `lv2:project` node.
    var project: LilvNodeHandle? { world.locked { LilvNodeHandle(owning: lilv_plugin_get_project(raw), world: world) } }

    /// The first value of `predicate` when it is an integer (`lv2:minorVersion`).
    func firstInteger(_ predicate: LilvURINode) -> Int? {
        world.locked {
            let values = lilv_plugin_get_value(raw, predicate.raw)
            defer { lilv_nodes_free(values) }
            guard let values, let first = lilv_nodes_get_first(values), lilv_node_is_int(first) else { return nil }
            return Int(lilv_node_as_int(first))
        }
    }

    /// Whether the world says `<plugin> predicate object`.
    func asks(_ predicate: LilvURINode, _ object: LilvURINode) -> Bool {
        world.locked { lilv_world_ask(world.raw, lilv_plugin_get_uri(raw), predicate.raw, object.raw) }
    }

    /// The plugin's class: its URI and label (nil when lilv has none).
    var pluginClass: (uri: String?, label: String?) {
        world.locked {
            let pluginClass = lilv_plugin_get_class(raw)
            return (LilvNodeHandle.string(lilv_plugin_class_get_uri(pluginClass)), LilvNodeHandle.string(lilv_plugin_class_get_label(pluginClass)))
        }
    }

    /// The plugin's class and its ancestors, most specific first (at most 16, no repeats).
    var classChain: [String] {
        world.locked {
            var chain: [String] = []
            let classes = lilv_world_get_plugin_classes(world.raw)
            var current = lilv_plugin_get_class(raw)
            while let node = current, let uri = LilvNodeHandle.string(lilv_plugin_class_get_uri(node)), !chain.contains(uri), chain.count < 16 {
                chain.append(uri)
                guard let parent = lilv_plugin_class_get_parent_uri(node) else { break }
                current = lilv_plugin_classes_get_by_uri(classes, parent)
            }
            return chain
        }
    }

    /// The URIs of the features the plugin requires, in lilv's order.
    var requiredFeatures: [String] { features(lilv_plugin_get_required_features) }

    /// The URIs of the features the plugin can use, in lilv's order.
    var optionalFeatures: [String] { features(lilv_plugin_get_optional_features) }

    private func features(_ read: (OpaquePointer?) -> UnsafeMutableRawPointer?) -> [String] {
        world.locked {
            let nodes = read(raw)
            defer { lilv_nodes_free(nodes) }
            return LilvNodeHandle.strings(nodes)
        }
    }

    /// The plugin's shared library on disk (this makes lilv read the plugin's data).
    var libraryPath: String? { world.locked { LilvNodeHandle.filePath(lilv_plugin_get_library_uri(raw)) } }

    /// The plugin's bundle folder on disk (the manifest gave it).
    var bundlePath: String? { world.locked { LilvNodeHandle.filePath(lilv_plugin_get_bundle_uri(raw)) } }

    /// How many ports the plugin has (this loads its ports).
    var portCount: Int { world.locked { Int(lilv_plugin_get_num_ports(raw)) } }

    /// Every port's minimum, maximum and default (NaN where the plugin gives none).
    var portRanges: (minimums: [Float], maximums: [Float], defaults: [Float]) {
        world.locked {
            let count = Int(lilv_plugin_get_num_ports(raw))
            var minimums = [Float](repeating: .nan, count: count)
            var maximums = [Float](repeating: .nan, count: count)
            var defaults = [Float](repeating: .nan, count: count)
            lilv_plugin_get_port_ranges_float(raw, &minimums, &maximums, &defaults)
            return (minimums, maximums, defaults)
        }
    }

    /// Port `index`, or nil.
    func port(at index: Int) -> LilvPortHandle? {
        world.locked { lilv_plugin_get_port_by_index(raw, UInt32(index)).map { LilvPortHandle(plugin: self, raw: $0) } }
    }

    /// The resources of type `type` that name this plugin (its presets, for `pset:Preset`).
    /// Every bundle is loaded first: presets may live in bundles of their own.
    func related(_ type: LilvURINode) -> [LilvNodeHandle] {
        world.loadAllBundles()
        return world.locked {
            let related = lilv_plugin_get_related(raw, type.raw)
            defer { lilv_nodes_free(related) }
            var nodes: [LilvNodeHandle] = []
            LilvNodeHandle.forEach(related) { if let node = LilvNodeHandle(copying: $0, world: world) { nodes.append(node) } }
            return nodes
        }
    }
}
