import CLilv

/// What the world's data says about one patch property a plugin declares
/// (`patch:writable` / `patch:readable`, LV2's parameters beyond control ports).
/// - Thread: [any] (a plain value).
struct LV2PropertyDescription: Sendable, Equatable {
    var uri: String
    /// `rdfs:label`.
    var label: String?
    /// `rdfs:range`: the value's atom type (`atom:Path`, `atom:Float`…).
    var range: String?
    /// `patch:writable` (the host may set it); else only `patch:readable`.
    var isWritable: Bool
    /// `lv2:default`, as the literal's text.
    var defaultValue: String?
}

extension LilvPluginHandle {
    /// The plugin's `patch:writable` properties, then its `patch:readable` ones that are not
    /// writable, in lilv's order, each with what the world's data says about it.
    var patchProperties: [LV2PropertyDescription] {
        world.locked {
            let nodes = world.nodes
            var found: [LV2PropertyDescription] = []
            for (predicate, isWritable) in [(nodes.patchWritable, true), (nodes.patchReadable, false)] {
                let values = lilv_plugin_get_value(raw, predicate.raw)
                defer { lilv_nodes_free(values) }
                LilvNodeHandle.forEach(values) { node in
                    guard lilv_node_is_uri(node), let uri = LilvNodeHandle.string(node), !found.contains(where: { $0.uri == uri }) else { return }
                    found.append(LV2PropertyDescription(
                        uri: uri, label: text(node, nodes.rdfsLabel), range: text(node, nodes.rdfsRange), isWritable: isWritable,
                        defaultValue: text(node, nodes.defaultValue)))
                }
            }
            return found
        }
    }

    /// The text of the first value of `predicate` on `subject` in the world's data. Call
    /// inside the world's lock.
    private func text(_ subject: OpaquePointer, _ predicate: LilvURINode) -> String? {
        let value = lilv_world_get(world.raw, subject, predicate.raw, nil)
        defer { lilv_node_free(value) }
        return LilvNodeHandle.string(value)
    }
}
