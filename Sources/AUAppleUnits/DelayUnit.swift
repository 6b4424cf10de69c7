import Foundation
import AUCore

// Apple's AUDelay (`aufx dely appl`) with Apple's parameters: wet/dry mix (0, percent,
// 0–100, 50; an equal-power crossfade), delay time (1, seconds, 0–2, 1), feedback (2,
// percent, −100–100, 50) and the low-pass cutoff of the echoes (3, Hz, 10–22050, 15000).
// One delay line per channel holds two seconds; each echo goes through a one-pole low-pass
// and back into the line times the feedback. A delay under one frame is one frame.

/// `aufx:dely:appl`.
/// - Thread: [control] for set-up; ``process(_:)`` on the render thread.
final class DelayUnit: AppleEffectUnit, @unchecked Sendable {
    static let maximumDelay: Float = 2

    /// Frames per delay line (two seconds and a frame) and where the next frame is written.
    private var lineLength = 1
    private var writeIndex = 0

    init(description: ComponentDescription) {
        super.init(
            description: description, name: "AUDelay", parameters: [
                ParameterInfo(id: 0, identifier: "wetDryMix", name: "Wet/Dry Mix", unit: .equalPowerCrossfade, min: 0, max: 100, default: 50),
                ParameterInfo(id: 1, identifier: "delayTime", name: "Delay Time", unit: .seconds, min: 0, max: Self.maximumDelay, default: 1),
                ParameterInfo(id: 2, identifier: "feedback", name: "Feedback", unit: .percent, min: -100, max: 100, default: 50),
                ParameterInfo(id: 3, identifier: "lopassCutoff", name: "Low-Pass Cutoff", unit: .hertz, min: 10, max: 22_050, default: 15_000),
            ])
    }

    /// Per channel: the line, then the low-pass's state.
    override func stateSize() -> Int {
        lineLength = Int(Self.maximumDelay * sampleRate) + 1
        return channels * (lineLength + 1)
    }

    override func prepare() throws(AudioUnitError) { writeIndex = 0 }

    override func resetState() {
        super.resetState()
        writeIndex = 0
    }

    /// The echoes ring until they fall by 100 dB: forever at ±100 % feedback.
    override var tailTime: Double {
        let delay = Double(parameters.value(at: 1)), feedback = abs(Double(parameters.value(at: 2))) / 100
        if feedback >= 1 { return .infinity }
        let repeats = feedback < 1e-5 ? 1 : (log(1e-5) / log(feedback)).rounded(.up) + 1
        return max(delay, 1 / Double(sampleRate)) * repeats
    }

    /// - Thread: [render]
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let mix = parameters.value(at: 0) / 100 * Float.pi / 2
        let dry = cosf(mix), wet = sinf(mix)
        let delay = min(max(1, Int((parameters.value(at: 1) * sampleRate).rounded())), lineLength - 1)
        let feedback = parameters.value(at: 2) / 100
        let pole = expf(-2 * Float.pi * min(parameters.value(at: 3), 0.49 * sampleRate) / sampleRate)
        let input = context.inputs[0], output = context.outputs[0]
        for channel in 0..<min(channels, input.channelCount, output.channelCount) {
            let line = renderState + channel * (lineLength + 1)
            var lowPassed = line[lineLength]
            var index = writeIndex
            let source = input.channelPointers[channel], destination = output.channelPointers[channel]
            for frame in 0..<context.frameCount {
                var read = index - delay
                if read < 0 { read += lineLength }
                lowPassed = (1 - pole) * line[read] + pole * lowPassed
                if abs(lowPassed) < 1e-30 { lowPassed = 0 }
                let x = source[frame]
                line[index] = x + feedback * lowPassed
                destination[frame] = dry * x + wet * lowPassed
                index += 1
                if index == lineLength { index = 0 }
            }
            line[lineLength] = lowPassed
        }
        writeIndex = (writeIndex + context.frameCount) % lineLength
        return 0
    }
}
