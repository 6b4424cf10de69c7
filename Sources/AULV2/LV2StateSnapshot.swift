import AUCore
import CLilv

/// An owned `LilvState*`: a plugin state or preset, from the world, a string or an instance.
/// - Thread: control.
final class LV2StateSnapshot: @unchecked Sendable {
    let raw: OpaquePointer

    init(owning raw: OpaquePointer) { self.raw = raw }
    deinit { lilv_state_free(raw) }

    /// A state described in the world's data (a preset), or nil.
    convenience init?(resource uri: String, world: LV2World) {
        let made: OpaquePointer? = world.withLock {
            let node = lilv_new_uri(world.raw, uri)
            defer { lilv_node_free(node) }
            lilv_world_load_resource(world.raw, node)
            return lilv_state_new_from_world(world.raw, world.urids.mapFeatureData, node)
        }
        guard let made else { return nil }
        self.init(owning: made)
    }

    /// The plugin's default state (`state:state` in its description), when it has one.
    convenience init?(defaultStateOf pluginURI: String, world: LV2World) {
        self.init(resource: pluginURI, world: world)
    }

    /// A state from Turtle made by ``turtle(world:)``.
    convenience init?(turtle: String, world: LV2World) {
        let made: OpaquePointer? = world.withLock { lilv_state_new_from_string(world.raw, world.urids.mapFeatureData, turtle) }
        guard let made else { return nil }
        self.init(owning: made)
    }

    /// The URI of the plugin the state belongs to.
    var pluginURI: String? { LV2Node.string(lilv_state_get_plugin_uri(raw)) }

    /// How many plugin properties (beyond port values) the state holds.
    var propertyCount: Int { Int(lilv_state_get_num_properties(raw)) }

    /// The state as Turtle (the `ClassInfo` custom data).
    func turtle(world: LV2World) -> String? {
        world.withLock {
            guard let text = lilv_state_to_string(world.raw, world.urids.mapFeatureData, world.urids.unmapFeatureData, raw, "urn:auhost:state", nil) else {
                return nil
            }
            defer { lilv_free(text) }
            return String(cString: text)
        }
    }
}
