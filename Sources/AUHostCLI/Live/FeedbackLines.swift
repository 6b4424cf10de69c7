import AUHost
import Foundation

/// The JSON lines `subscribe` pushes: one object per line, `topic` first, `t` the seconds
/// since the run started.
/// - Thread: [control]
enum FeedbackLines {
    /// `{"topic":"meters","t":1.25,"in":[{"peak":-6.0,"rms":-9.1}],"out":[…],"clips_in":0,"clips_out":0,"nodes":{"amp":{"peak":…,"rms":…}}}`
    static func meters(_ levels: LiveLevels, t: Double) -> String {
        func channels(_ meter: SignalLevelMeter) -> String {
            "[" + meter.levels().map { "{\"peak\":\(number($0.peak)),\"rms\":\(number($0.rms))}" }.joined(separator: ",") + "]"
        }
        let nodes = levels.nodes.map { node in
            let channelLevels = node.meter.levels()
            return "\(string(node.id)):{\"peak\":\(number(channelLevels.map(\.peak).max() ?? -.infinity)),\"rms\":\(number(channelLevels.map(\.rms).max() ?? -.infinity))}"
        }
        return "{\"topic\":\"meters\",\"t\":\(time(t)),\"in\":\(channels(levels.input)),\"out\":\(channels(levels.output)),\"clips_in\":\(levels.input.clips),\"clips_out\":\(levels.output.clips),\"nodes\":{\(nodes.joined(separator: ","))}}"
    }

    /// `{"topic":"status","t":…,"status":"rate=48000 latency=0 …"}`: the `status` reply's words.
    static func status(_ words: String, t: Double) -> String {
        "{\"topic\":\"status\",\"t\":\(time(t)),\"status\":\(string(words))}"
    }

    /// `{"topic":"params","t":…,"changes":{"gain.gain":-20}}`.
    static func params(_ changes: [(String, Float)], t: Double) -> String {
        "{\"topic\":\"params\",\"t\":\(time(t)),\"changes\":{" + changes.map { "\(string($0.0)):\(number(Double($0.1)))" }.joined(separator: ",") + "}}"
    }

    /// `{"topic":"notices","t":…,"notice":"…"}`: an xrun, a node fault, a learnt mapping.
    static func notice(_ text: String, t: Double) -> String {
        "{\"topic\":\"notices\",\"t\":\(time(t)),\"notice\":\(string(text))}"
    }

    /// A JSON number; silence (-infinity dB) is `null`.
    private static func number(_ value: Double) -> String { value.isFinite ? formatNumber(value) : "null" }
    private static func time(_ t: Double) -> String { String(format: "%.3f", t) }

    /// A JSON string.
    private static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// The parameter values of a chain's nodes as last pushed, for the `params` topic: what
/// changed since, from any source (`set`, MIDI, a snapshot, the plugin itself).
/// - Thread: [control]
final class ParameterWatch {
    private var last: [String: Float] = [:]

    /// The writable parameters whose values changed since the last call (all of them the first time).
    func changes(in chain: ChainGraph) -> [(String, Float)] {
        var changes: [(String, Float)] = []
        for (id, _, unit) in chain.nodes {
            for (index, info) in unit.parameters.infos.enumerated() where info.isWritable {
                let key = "\(id).\(info.identifier)", value = unit.parameters.value(at: index)
                if last[key] != value {
                    last[key] = value
                    changes.append((key, value))
                }
            }
        }
        return changes
    }
}
