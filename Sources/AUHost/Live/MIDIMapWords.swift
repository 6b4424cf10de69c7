import AUCore
import AUPresets

/// A MIDI mapping as one word of a control reply: `amp.drive=cc7/ch1/linear/0...1`
/// (`any` channel, `pb` for pitch bend, `note60`).
/// - Thread: [control]
enum MIDIMapWords {
    static func word(_ loaded: LoadedMIDIMapping) -> String {
        let mapping = loaded.mapping
        let source: String
        switch mapping.source {
        case .controlChange(let number): source = "cc\(number)"
        case .pitchBend: source = "pb"
        case .note(let number): source = "note\(number)"
        }
        let channel = mapping.channel.map { "ch\($0)" } ?? "any"
        let smoothing = mapping.smoothing.map { $0 > 0 ? "/\(formatNumber($0))ms" : "" } ?? ""
        return "\(mapping.parameter)=\(source)/\(channel)/\(mapping.curve.rawValue)/\(formatNumber(loaded.minimum))...\(formatNumber(loaded.maximum))\(smoothing)"
    }
}
