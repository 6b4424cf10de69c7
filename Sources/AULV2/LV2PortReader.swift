import AUCore

/// Reads a plugin's ports from lilv, once per component, when its first unit is created
/// (never at discovery; ``LV2PluginReading``).
/// - Thread: [control]
enum LV2PortReader {
    static func ports(of plugin: LilvPluginHandle, world: LV2World) -> [LV2Port] {
        let nodes = world.nodes
        let ranges = plugin.portRanges
        var ports: [LV2Port] = []
        for index in 0..<ranges.defaults.count {
            guard let port = plugin.port(at: index) else { continue }
            let symbol = port.symbol ?? "port\(index)"
            let name = port.name ?? symbol
            let kind: LV2Port.Kind
            if port.isA(nodes.audioPort) {
                kind = .audio
            } else if port.isA(nodes.controlPort) {
                kind = .control
            } else if port.isA(nodes.cvPort) {
                kind = .cv
            } else if port.isA(nodes.atomPort) {
                kind = .atom
            } else {
                kind = .unsupported(port.classes.joined(separator: ", "))
            }
            var info = LV2Port(
                index: UInt32(index), symbol: symbol, name: name, kind: kind, isInput: port.isA(nodes.inputPort),
                isOptional: port.has(nodes.connectionOptional))
            switch kind {
            case .control:
                info.minimum = ranges.minimums[index]
                info.maximum = ranges.maximums[index]
                info.defaultValue = ranges.defaults[index]
                info.isInteger = port.has(nodes.integer)
                info.isToggled = port.has(nodes.toggled)
                info.isEnumeration = port.has(nodes.enumeration)
                info.isLogarithmic = port.has(nodes.logarithmic)
                info.isSampleRateRelative = port.has(nodes.sampleRate)
                info.reportsLatency = port.has(nodes.reportsLatency)
                info.isNotOnGUI = port.has(nodes.notOnGUI)
                info.designationURI = port.value(nodes.designation)?.string
                info.unitURI = port.value(nodes.unit)?.string
                info.scalePoints = port.scalePoints.sorted { $0.value < $1.value }
            case .audio, .cv:
                let group = port.value(nodes.group)
                info.groupURI = group?.string
                if let group {
                    info.groupLabel = world.value(of: group, nodes.rdfsLabel)?.string ?? world.value(of: group, nodes.lv2Name)?.string
                }
                info.isSideChain = port.has(nodes.isSideChain)
            case .atom:
                info.supportsMIDI = port.supportsEvent(nodes.midiEvent)
                info.supportsTimePosition = port.supportsEvent(nodes.timePosition)
                info.supportsPatch = port.supportsEvent(nodes.patchMessage)
                info.isControlDesignated = port.value(nodes.designation)?.string == LV2URI.coreControl
                if let size = port.value(nodes.minimumSize)?.integer { info.minimumSize = size }
            case .unsupported:
                break
            }
            ports.append(info)
        }
        return ports
    }
}
