import AUCore
import AUFiles
import AULV2
import AUSampler

/// Why a render came out silent though its input was not: a sampler without a sound bank,
/// an LV2 plugin that logged an error, a song whose notes reached no instrument, or a chain
/// that made nothing of its input.
/// - Thread: [control]
enum SilentRenderCheck {
    /// Silence: every sample at or below -120 dBFS.
    static let thresholdDBFS = -120.0
    static let threshold: Float = 1e-6

    /// The likely cause, nil when the output is not silent or the input was silent too.
    static func cause(output: AudioLevels, inputAudible: Bool, songHasNotes: Bool, chain: ChainGraph) -> String? {
        guard output.samplePeak <= Double(threshold), inputAudible || songHasNotes else { return nil }
        let bankless = chain.nodes.filter { node in
            node.unit.propertyParameters.contains { $0.valueType == .path && $0.identifier == SamplerUnit.Property.soundBank }
                && node.unit.propertyParameterValue(SamplerUnit.Property.soundBank) == nil
        }
        if let node = bankless.first {
            return "'\(node.id)' is a sampler without a sound bank; give its node \"soundbank\": \"gm\" or an .sf2 file"
        }
        // A plugin that could not start what it needs (x42's zero-latency convolver refused
        // its real-time threads) says why in its log: name it with its last error.
        for node in chain.nodes {
            guard let plugin = node.unit as? LV2Unit, let said = plugin.pluginLog.last(where: { $0.hasPrefix("error: ") }) else { continue }
            return "'\(node.id)' (\(plugin.name)) logged \"\(said.dropFirst("error: ".count))\"; it may have rendered silence for it"
        }
        if songHasNotes {
            return "no instrument sounded the song's notes; check the preset's \"tracks\" and \"midi\" (auhost graph shows where MIDI goes) and that its instruments make sound"
        }
        return "the chain made no sound of its input; a unit in it may be muted, at zero gain or waiting for a file"
    }
}
