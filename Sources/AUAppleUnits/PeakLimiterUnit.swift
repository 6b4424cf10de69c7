import Foundation
import AUCore

// Apple's AUPeakLimiter (`aufx lmtr appl`) with Apple's parameters: attack time (0, seconds,
// 0.001–0.03, 0.012), decay time (1, seconds, 0.001–0.06, 0.024) and pre-gain (2, dB,
// −40…40, 0). The signal times the pre-gain is followed by one gain for all channels that
// falls toward ceiling / peak when a frame's peak is over the ceiling (0 dBFS) at the attack
// rate and returns to 1 at the decay rate; a sample still over the ceiling while the gain
// falls is held at it. A signal under the ceiling passes unchanged (but for the pre-gain).

/// `aufx:lmtr:appl`.
/// - Thread: [control] for set-up; ``process(_:)`` on the render thread.
final class PeakLimiterUnit: AppleEffectUnit, @unchecked Sendable {
    static let attackTime: ParameterID = 0
    static let decayTime: ParameterID = 1
    static let preGain: ParameterID = 2
    private static let ceiling: Float = 1

    /// The gain applied now (render thread).
    private var gain: Float = 1

    init(description: ComponentDescription) {
        let rw: ParameterFlags = [.isReadable, .isWritable]
        super.init(
            description: description, name: "AUPeakLimiter", parameters: [
                ParameterInfo(id: Self.attackTime, identifier: "attackTime", name: "Attack Time", unit: .seconds, min: 0.001, max: 0.03, default: 0.012, flags: rw),
                ParameterInfo(id: Self.decayTime, identifier: "decayTime", name: "Decay Time", unit: .seconds, min: 0.001, max: 0.06, default: 0.024, flags: rw),
                ParameterInfo(id: Self.preGain, identifier: "preGain", name: "Pre-Gain", unit: .decibels, min: -40, max: 40, default: 0, flags: rw),
            ])
    }

    override func prepare() throws(AudioUnitError) { gain = 1 }

    override func resetState() { gain = 1 }

    /// - Thread: [render]
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let input = context.inputs[0], output = context.outputs[0]
        let channels = min(input.channelCount, output.channelCount)
        let attack = onePoleCoefficient(parameters.value(at: 0)), decay = onePoleCoefficient(parameters.value(at: 1))
        let preGain = powf(10, parameters.value(at: 2) / 20)
        var gain = self.gain
        for frame in 0..<context.frameCount {
            var peak: Float = 0
            for channel in 0..<channels { peak = max(peak, abs(input.channelPointers[channel][frame] * preGain)) }
            let target = peak > Self.ceiling ? Self.ceiling / peak : 1
            gain += (target - gain) * (target < gain ? attack : decay)
            for channel in 0..<channels {
                let sample = input.channelPointers[channel][frame] * preGain * gain
                output.channelPointers[channel][frame] = min(max(sample, -Self.ceiling), Self.ceiling)
            }
        }
        self.gain = gain
        return 0
    }
}
