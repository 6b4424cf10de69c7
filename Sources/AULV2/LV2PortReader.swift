import AUCore
import CLilv

/// Reads a plugin's ports from lilv, once, when a unit is created (never at discovery).
/// - Thread: control, inside the world's lock.
enum LV2PortReader {
    static func ports(of plugin: OpaquePointer, world: LV2World) -> [LV2Port] {
        let nodes = world.nodes
        let count = Int(lilv_plugin_get_num_ports(plugin))
        var minimums = [Float](repeating: .nan, count: count)
        var maximums = [Float](repeating: .nan, count: count)
        var defaults = [Float](repeating: .nan, count: count)
        lilv_plugin_get_port_ranges_float(plugin, &minimums, &maximums, &defaults)

        var ports: [LV2Port] = []
        for index in 0..<count {
            guard let port = lilv_plugin_get_port_by_index(plugin, UInt32(index)) else { continue }
            func isA(_ node: OpaquePointer?) -> Bool { lilv_port_is_a(plugin, port, node) }
            func has(_ node: OpaquePointer?) -> Bool { lilv_port_has_property(plugin, port, node) }
            let symbol = LV2Node.string(lilv_port_get_symbol(plugin, port)) ?? "port\(index)"
            let name = LV2Node(owning: lilv_port_get_name(plugin, port)).string ?? symbol
            let kind: LV2Port.Kind
            if isA(nodes.audioPort) {
                kind = .audio
            } else if isA(nodes.controlPort) {
                kind = .control
            } else if isA(nodes.cvPort) {
                kind = .cv
            } else if isA(nodes.atomPort) {
                kind = .atom
            } else {
                var classes: [String] = []
                forEachNode(lilv_port_get_classes(plugin, port)) { if let text = LV2Node.string($0) { classes.append(text) } }
                kind = .unsupported(classes.joined(separator: ", "))
            }
            var info = LV2Port(
                index: UInt32(index), symbol: symbol, name: name, kind: kind, isInput: isA(nodes.inputPort),
                isOptional: has(nodes.connectionOptional))
            switch kind {
            case .control:
                info.minimum = minimums[index]
                info.maximum = maximums[index]
                info.defaultValue = defaults[index]
                info.isInteger = has(nodes.integer)
                info.isToggled = has(nodes.toggled)
                info.isEnumeration = has(nodes.enumeration)
                info.isLogarithmic = has(nodes.logarithmic)
                info.isSampleRateRelative = has(nodes.sampleRate)
                info.reportsLatency = has(nodes.reportsLatency)
                info.unitURI = LV2Node(owning: lilv_port_get(plugin, port, nodes.unit)).string
                info.scalePoints = scalePoints(plugin, port)
            case .audio, .cv:
                let group = LV2Node(owning: lilv_port_get(plugin, port, nodes.group))
                info.groupURI = group.string
                if let groupNode = group.raw {
                    info.groupLabel = LV2Node(owning: lilv_world_get(world.raw, groupNode, nodes.rdfsLabel, nil)).string
                        ?? LV2Node(owning: lilv_world_get(world.raw, groupNode, nodes.lv2Name, nil)).string
                }
                info.isSideChain = has(nodes.isSideChain)
            case .atom:
                info.supportsMIDI = lilv_port_supports_event(plugin, port, nodes.midiEvent)
                info.supportsTimePosition = lilv_port_supports_event(plugin, port, nodes.timePosition)
                let size = LV2Node(owning: lilv_port_get(plugin, port, nodes.minimumSize))
                if let raw = size.raw, lilv_node_is_int(raw) { info.minimumSize = Int(lilv_node_as_int(raw)) }
            case .unsupported:
                break
            }
            ports.append(info)
        }
        return ports
    }

    private static func scalePoints(_ plugin: OpaquePointer, _ port: OpaquePointer) -> [(value: Float, label: String)] {
        guard let points = lilv_port_get_scale_points(plugin, port) else { return [] }
        defer { lilv_scale_points_free(points) }
        var result: [(value: Float, label: String)] = []
        var iterator = lilv_scale_points_begin(points)
        while !lilv_scale_points_is_end(points, iterator) {
            if let point = lilv_scale_points_get(points, iterator),
               let value = lilv_scale_point_get_value(point), let label = LV2Node.string(lilv_scale_point_get_label(point)) {
                result.append((lilv_node_as_float(value), label))
            }
            iterator = lilv_scale_points_next(points, iterator)
        }
        return result.sorted { $0.value < $1.value }
    }
}
