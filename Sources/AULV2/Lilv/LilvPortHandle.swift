import CLilv

/// A `LilvPort*` of a plugin: its classes, properties and values, copied out under the
/// world's lock. It lives as long as its plugin's world.
/// - Thread: [control]
struct LilvPortHandle: @unchecked Sendable {
    let plugin: LilvPluginHandle
    /// The `LilvPort*`; used only in this folder.
    let raw: OpaquePointer

    private var world: LV2World { plugin.world }

    /// Whether the port is of class `type` (`lv2:AudioPort`, `lv2:InputPort`…).
    func isA(_ type: LilvURINode) -> Bool { world.locked { lilv_port_is_a(plugin.raw, raw, type.raw) } }

    /// Whether the port has `lv2:portProperty` `property`.
    func has(_ property: LilvURINode) -> Bool { world.locked { lilv_port_has_property(plugin.raw, raw, property.raw) } }

    /// Whether the (atom) port supports events of type `type`.
    func supportsEvent(_ type: LilvURINode) -> Bool { world.locked { lilv_port_supports_event(plugin.raw, raw, type.raw) } }

    /// `lv2:symbol`.
    var symbol: String? { world.locked { LilvNodeHandle.string(lilv_port_get_symbol(plugin.raw, raw)) } }

    /// `lv2:name`.
    var name: String? { world.locked { LilvNodeHandle(owning: lilv_port_get_name(plugin.raw, raw), world: world) }?.string }

    /// Every class the port has, as URIs.
    var classes: [String] { world.locked { LilvNodeHandle.strings(lilv_port_get_classes(plugin.raw, raw)) } }

    /// The first value of `predicate` on the port (`units:unit`, `pg:group`…).
    func value(_ predicate: LilvURINode) -> LilvNodeHandle? {
        world.locked { LilvNodeHandle(owning: lilv_port_get(plugin.raw, raw, predicate.raw), world: world) }
    }

    /// The port's scale points (`lv2:scalePoint`), in lilv's order.
    var scalePoints: [(value: Float, label: String)] {
        world.locked {
            guard let points = lilv_port_get_scale_points(plugin.raw, raw) else { return [] }
            defer { lilv_scale_points_free(points) }
            var result: [(value: Float, label: String)] = []
            var iterator = lilv_scale_points_begin(points)
            while !lilv_scale_points_is_end(points, iterator) {
                if let point = lilv_scale_points_get(points, iterator),
                   let value = lilv_scale_point_get_value(point), let label = LilvNodeHandle.string(lilv_scale_point_get_label(point)) {
                    result.append((lilv_node_as_float(value), label))
                }
                iterator = lilv_scale_points_next(points, iterator)
            }
            return result
        }
    }
}
