import Foundation
import AUCore

// Apple's AUDynamicsProcessor (`aufx dcmp appl`) with Apple's parameter IDs: threshold (0, dB,
// −40–20, −20), head room (1, dB, 0.1–40, 5), expansion ratio (2, 1–50, 2), expansion
// threshold (3, dB, −120–0, −100: Apple's header gives no range), attack time (4, seconds,
// 0.0001–0.2, 0.001), release time (5, seconds, 0.01–3, 0.05), overall gain (6, dB, −40–40,
// 0), and the read-only meters compression amount (1000, dB, the gain the compressor takes
// away, ≤ 0), input amplitude (2000, dBFS) and output amplitude (3000, dBFS), set once per
// render call. A peak follower over all channels (the attack and release times reach
// 1 − 1/e) gives the level L in dB; over the threshold T the output level is
// T + H·tanh((L − T)/H), so it approaches T + H (the head room) and never passes it; under the
// expansion threshold E it is E + (L − E)·ratio; the gain is that minus L, plus the overall gain.

/// `aufx:dcmp:appl`.
/// - Thread: [control] for set-up; ``process(_:)`` on the render thread.
final class DynamicsProcessorUnit: AppleEffectUnit, @unchecked Sendable {
    /// The meters' slots in the parameter table.
    private static let compressionAmountSlot = 7, inputAmplitudeSlot = 8, outputAmplitudeSlot = 9
    /// The quietest level the follower and the meters tell apart, dBFS.
    private static let floor: Float = -120

    /// The peak follower's level (linear).
    private var envelope: Float = 0

    init(description: ComponentDescription) {
        let meter: ParameterFlags = [.isReadable, .isOutput]
        super.init(
            description: description, name: "AUDynamicsProcessor", parameters: [
                ParameterInfo(id: 0, identifier: "threshold", name: "Threshold", unit: .decibels, min: -40, max: 20, default: -20),
                ParameterInfo(id: 1, identifier: "headRoom", name: "Head Room", unit: .decibels, min: 0.1, max: 40, default: 5),
                ParameterInfo(id: 2, identifier: "expansionRatio", name: "Expansion Ratio", unit: .ratio, min: 1, max: 50, default: 2),
                ParameterInfo(id: 3, identifier: "expansionThreshold", name: "Expansion Threshold", unit: .decibels, min: -120, max: 0, default: -100),
                ParameterInfo(id: 4, identifier: "attackTime", name: "Attack Time", unit: .seconds, min: 0.0001, max: 0.2, default: 0.001),
                ParameterInfo(id: 5, identifier: "releaseTime", name: "Release Time", unit: .seconds, min: 0.01, max: 3, default: 0.05),
                ParameterInfo(id: 6, identifier: "overallGain", name: "Overall Gain", unit: .decibels, min: -40, max: 40, default: 0),
                ParameterInfo(id: 1000, identifier: "compressionAmount", name: "Compression Amount", unit: .decibels, min: Self.floor, max: 0, default: 0, flags: meter),
                ParameterInfo(id: 2000, identifier: "inputAmplitude", name: "Input Amplitude", unit: .decibels, min: Self.floor, max: 40, default: Self.floor, flags: meter),
                ParameterInfo(id: 3000, identifier: "outputAmplitude", name: "Output Amplitude", unit: .decibels, min: Self.floor, max: 40, default: Self.floor, flags: meter),
            ])
    }

    override func prepare() throws(AudioUnitError) { envelope = 0 }

    override func resetState() {
        super.resetState()
        envelope = 0
    }

    /// The release: the follower falls 120 dB within 14 release times.
    override var tailTime: Double { Double(parameters.value(at: 5)) * 14 }

    /// - Thread: [render]
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let threshold = parameters.value(at: 0), headRoom = parameters.value(at: 1)
        let ratio = parameters.value(at: 2), expansionThreshold = parameters.value(at: 3)
        let attack = onePoleCoefficient(parameters.value(at: 4)), release = onePoleCoefficient(parameters.value(at: 5))
        let overallGain = parameters.value(at: 6)
        let input = context.inputs[0], output = context.outputs[0]
        let channels = min(self.channels, input.channelCount, output.channelCount)
        var envelope = self.envelope
        var level = Self.floor, compression: Float = 0, outputPeak: Float = 0
        for frame in 0..<context.frameCount {
            var peak: Float = 0
            for channel in 0..<channels { peak = max(peak, abs(input.channelPointers[channel][frame])) }
            envelope += (peak - envelope) * (peak > envelope ? attack : release)
            if envelope < 1e-30 { envelope = 0 }
            level = max(20 * log10f(max(envelope, 1e-9)), Self.floor)
            var curve = level
            if level > threshold {
                curve = threshold + headRoom * tanhf((level - threshold) / headRoom)
            } else if level < expansionThreshold {
                curve = expansionThreshold + (level - expansionThreshold) * ratio
            }
            compression = min(0, level > threshold ? curve - level : 0)
            let gain = powf(10, (curve - level + overallGain) / 20)
            for channel in 0..<channels {
                let sample = input.channelPointers[channel][frame] * gain
                output.channelPointers[channel][frame] = sample
                outputPeak = max(outputPeak, abs(sample))
            }
        }
        self.envelope = envelope
        setParameterFromRender(at: Self.compressionAmountSlot, value: compression)
        setParameterFromRender(at: Self.inputAmplitudeSlot, value: min(level, 40))
        setParameterFromRender(at: Self.outputAmplitudeSlot, value: min(max(20 * log10f(max(outputPeak, 1e-9)), Self.floor), 40))
        return 0
    }
}
