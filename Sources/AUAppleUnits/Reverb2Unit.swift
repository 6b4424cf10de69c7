import Foundation
import AUCore

// Apple's AUReverb2 (`aufx rvb2 appl`) with Apple's parameters: dry/wet mix (0, percent, 0–100,
// 100; a linear crossfade), gain (1, dB, −20–20, 0; on the output), minimum and maximum delay
// time (2 and 3, seconds, 0.0001–1, 0.008 and 0.050), decay time at 0 Hz and at Nyquist (4 and
// 5, seconds, 0.001–20, 1.0 and 0.5: the time to fall 60 dB) and randomize reflections (6,
// 1–1000, 1: the seed that moves each delay by up to ±10 %).
// The input (the channels' mean) goes through two Schroeder all-passes (the early diffusion,
// which is heard at once) into a feedback delay network of eight lines whose delays spread
// geometrically from the minimum to the maximum delay time, mixed by a Householder matrix
// (lossless); in each line a one-pole low-pass of gain 10^(−3·delay/decay) at 0 Hz and at
// Nyquist sets both decay times exactly. The wet output is the diffusion plus the lines, with
// alternating signs per channel.

/// `aufx:rvb2:appl`.
/// - Thread: [control] for set-up; ``process(_:)`` on the render thread.
final class Reverb2Unit: AppleEffectUnit, @unchecked Sendable {
    static let lineCount = 8
    /// The diffusers' delays (seconds) and coefficient.
    static let diffusion: (Float, Float) = (0.0047, 0.0036)
    static let diffusionGain: Float = 0.6

    private var lineLength = 1
    private var diffuserLengths = (1, 1)
    private var writeIndex = 0
    private var diffuserIndices = (0, 0)
    /// Per line: the delay in frames and the low-pass's coefficients (b, a), for the values in `computedFor`.
    private let delays = UnsafeMutablePointer<Int>.allocate(capacity: Reverb2Unit.lineCount)
    private let filters = UnsafeMutablePointer<(Float, Float)>.allocate(capacity: Reverb2Unit.lineCount)
    private var computedFor = SIMD8<Float>(repeating: .nan)

    init(description: ComponentDescription) {
        delays.initialize(repeating: 1, count: Self.lineCount)
        filters.initialize(repeating: (0, 0), count: Self.lineCount)
        super.init(
            description: description, name: "AUReverb2", parameters: [
                ParameterInfo(id: 0, identifier: "dryWetMix", name: "Dry/Wet Mix", unit: .percent, min: 0, max: 100, default: 100),
                ParameterInfo(id: 1, identifier: "gain", name: "Gain", unit: .decibels, min: -20, max: 20, default: 0),
                ParameterInfo(id: 2, identifier: "minDelayTime", name: "Min Delay Time", unit: .seconds, min: 0.0001, max: 1, default: 0.008),
                ParameterInfo(id: 3, identifier: "maxDelayTime", name: "Max Delay Time", unit: .seconds, min: 0.0001, max: 1, default: 0.050),
                ParameterInfo(id: 4, identifier: "decayTimeAt0Hz", name: "Decay Time at 0 Hz", unit: .seconds, min: 0.001, max: 20, default: 1),
                ParameterInfo(id: 5, identifier: "decayTimeAtNyquist", name: "Decay Time at Nyquist", unit: .seconds, min: 0.001, max: 20, default: 0.5),
                ParameterInfo(id: 6, identifier: "randomizeReflections", name: "Randomize Reflections", unit: .generic, min: 1, max: 1000, default: 1),
            ])
    }

    deinit {
        delays.deallocate()
        filters.deallocate()
    }

    /// The lines (a second each), their low-passes' states, the two diffusers.
    override func stateSize() -> Int {
        lineLength = Int(sampleRate) + 2
        diffuserLengths = (Int(Self.diffusion.0 * sampleRate) + 1, Int(Self.diffusion.1 * sampleRate) + 1)
        return Self.lineCount * (lineLength + 1) + diffuserLengths.0 + diffuserLengths.1
    }

    override func prepare() throws(AudioUnitError) {
        writeIndex = 0
        diffuserIndices = (0, 0)
        computedFor = SIMD8(repeating: .nan)
    }

    override func resetState() {
        super.resetState()
        writeIndex = 0
        diffuserIndices = (0, 0)
    }

    /// The longer decay twice over (120 dB) after the longest delay and the diffusion.
    override var tailTime: Double {
        let decay = max(parameters.value(at: 4), parameters.value(at: 5))
        return Double(2 * decay + max(parameters.value(at: 2), parameters.value(at: 3)) + Self.diffusion.0 + Self.diffusion.1)
    }

    /// Recomputes the lines' delays and low-passes for parameter values `v` (2 to 6 used).
    private func configure(_ v: SIMD8<Float>) {
        let low = min(v[2], v[3]), high = max(v[2], v[3])
        var seed = UInt32(v[6]) &* 2_654_435_761
        for line in 0..<Self.lineCount {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let jitter = 1 + 0.2 * (Float(seed >> 8) / Float(1 << 24) - 0.5)
            let seconds = low * powf(high / low, Float(line) / Float(Self.lineCount - 1)) * jitter
            let delay = min(max(1, Int(seconds * sampleRate)), lineLength - 1)
            delays[line] = delay
            let atZero = powf(10, -3 * Float(delay) / (sampleRate * v[4])), atNyquist = powf(10, -3 * Float(delay) / (sampleRate * v[5]))
            let a = (atZero - atNyquist) / (atZero + atNyquist)
            filters[line] = (atZero * (1 - a), a)
        }
    }

    /// One Schroeder all-pass step over `buffer` of `length` at `index`.
    @inline(__always)
    private static func allPass(_ x: Float, _ buffer: UnsafeMutablePointer<Float>, _ index: inout Int, _ length: Int) -> Float {
        let delayed = buffer[index]
        var v = x + diffusionGain * delayed
        if abs(v) < 1e-30 { v = 0 }
        buffer[index] = v
        index += 1
        if index == length { index = 0 }
        return delayed - diffusionGain * v
    }

    /// - Thread: [render]
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        var values = SIMD8<Float>(repeating: 0)
        for slot in 0..<7 { values[slot] = parameters.value(at: slot) }
        if values != computedFor {
            configure(values)
            computedFor = values
        }
        let mix = values[0] / 100, gain = powf(10, values[1] / 20)
        let input = context.inputs[0], output = context.outputs[0]
        let channels = min(self.channels, input.channelCount, output.channelCount)
        guard channels > 0 else { return 0 }
        let lowPassStates = renderState + Self.lineCount * lineLength
        let firstDiffuser = lowPassStates + Self.lineCount, secondDiffuser = firstDiffuser + diffuserLengths.0
        let inputGain = 1 / Float(Self.lineCount).squareRoot(), outputGain: Float = 0.5
        var index = writeIndex
        for frame in 0..<context.frameCount {
            var x: Float = 0
            for channel in 0..<channels { x += input.channelPointers[channel][frame] }
            x /= Float(channels)
            let early = Self.allPass(Self.allPass(x, firstDiffuser, &diffuserIndices.0, diffuserLengths.0), secondDiffuser, &diffuserIndices.1, diffuserLengths.1)
            var outs = SIMD8<Float>(repeating: 0)
            for line in 0..<Self.lineCount {
                var read = index - delays[line]
                if read < 0 { read += lineLength }
                let (b, a) = filters[line]
                var y = b * renderState[line * lineLength + read] + a * lowPassStates[line]
                if abs(y) < 1e-30 { y = 0 }
                lowPassStates[line] = y
                outs[line] = y
            }
            let feedback = outs.sum() * 2 / Float(Self.lineCount)
            var late = SIMD2<Float>(repeating: 0)
            for line in 0..<Self.lineCount {
                let sign: Float = line % 2 == 0 ? 1 : -1
                renderState[line * lineLength + index] = outs[line] - feedback + sign * inputGain * early
                late[line % 2] += outs[line]
            }
            for channel in 0..<channels {
                let wet = early + outputGain * (channel % 2 == 0 ? late[0] - late[1] : late[0] + late[1])
                output.channelPointers[channel][frame] = gain * ((1 - mix) * input.channelPointers[channel][frame] + mix * wet)
            }
            index += 1
            if index == lineLength { index = 0 }
        }
        writeIndex = index
        return 0
    }
}
