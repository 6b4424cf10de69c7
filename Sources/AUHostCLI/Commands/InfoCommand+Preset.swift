import AUHost
import Foundation

/// `auhost info PRESET.json`: a chain preset's nodes and its live MIDI control (the
/// `midiMap`, each mapping checked against the units as `auhost run` would).
/// - Thread: [control]
struct PresetDetails: Encodable {
    struct Node: Encodable {
        var id: String
        var unit: String
        var name: String
    }
    struct Mapping: Encodable {
        var source: String
        var channel: Int?
        var parameter: String
        var min: Float
        var max: Float
        var curve: String
        var smoothing: Double
    }

    var name: String
    var nodes: [Node]
    var midiMap: [Mapping]
    /// The snapshots' names, program change 0 first.
    var snapshots: [String]

    init(_ loaded: LoadedPreset) {
        name = loaded.preset.name
        snapshots = loaded.preset.snapshots.map(\.name)
        nodes = loaded.nodes.map { Node(id: $0.id, unit: $0.reference, name: $0.component.name) }
        midiMap = loaded.midiMap.map { entry in
            Mapping(
                source: entry.mapping.source.description, channel: entry.mapping.channel, parameter: entry.mapping.parameter, min: entry.minimum,
                max: entry.maximum, curve: entry.mapping.curve.rawValue, smoothing: entry.mapping.smoothing ?? 0)
        }
    }

    /// The text `auhost info` prints.
    var text: String {
        var lines = ["Preset: \(name)", "Nodes:"]
        lines += nodes.map { "  \($0.id)  \($0.unit)  (\($0.name))" }
        lines.append("MIDI map:" + (midiMap.isEmpty ? " none" : ""))
        lines += midiMap.map { mapping in
            let channel = mapping.channel.map { "channel \($0)" } ?? "any channel"
            let smoothing = mapping.smoothing > 0 ? ", \(formatNumber(mapping.smoothing)) ms smoothing" : ""
            return "  \(mapping.source) (\(channel)) → \(mapping.parameter)  \(formatNumber(mapping.min))...\(formatNumber(mapping.max)) \(mapping.curve)\(smoothing)"
        }
        lines.append("Snapshots:" + (snapshots.isEmpty ? " none" : ""))
        lines += snapshots.enumerated().map { "  program \($0.offset): \($0.element)" }
        return lines.joined(separator: "\n") + "\n"
    }
}
