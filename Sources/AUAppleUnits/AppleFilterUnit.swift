import Foundation
import AUCore

// Apple's filter effects (`aufx lpas|hpas|bpas|lshf|hshf|pmeq appl`) with Apple's parameter
// IDs and units, each one second-order section per channel (the Audio EQ Cookbook's biquads):
// LowPass and HighPass (cutoff 0 in Hz, resonance 1 in dB: the gain at the cutoff,
// Q = 10^(resonance/20)), BandPass (center 0 in Hz, bandwidth 1 in cents, 0 dB at the center),
// LowShelf and HighShelf (cutoff 0 in Hz, gain 1 in dB, slope 1), ParametricEQ (center 0 in Hz,
// Q 1, gain 2 in dB). Coefficients are recomputed on the render thread when a parameter
// changed (no allocation); frequencies above 0.49 × the rate are held there.

/// Which of Apple's filters a unit is.
enum AppleFilterKind: CaseIterable {
    case lowPass, highPass, bandPass, lowShelf, highShelf, parametric

    var subtype: AUCore.FourCharCode {
        switch self {
        case .lowPass: "lpas"
        case .highPass: "hpas"
        case .bandPass: "bpas"
        case .lowShelf: "lshf"
        case .highShelf: "hshf"
        case .parametric: "pmeq"
        }
    }

    var name: String {
        switch self {
        case .lowPass: "AULowpass"
        case .highPass: "AUHipass"
        case .bandPass: "AUBandpass"
        case .lowShelf: "AULowShelfFilter"
        case .highShelf: "AUHighShelfFilter"
        case .parametric: "AUParametricEQ"
        }
    }

    /// The parameters, in Apple's ID order.
    var parameters: [ParameterInfo] {
        let rw: ParameterFlags = [.isReadable, .isWritable]
        func p(_ id: ParameterID, _ identifier: String, _ name: String, _ unit: ParameterUnit, _ range: ClosedRange<Float>, _ value: Float) -> ParameterInfo {
            ParameterInfo(id: id, identifier: identifier, name: name, unit: unit, min: range.lowerBound, max: range.upperBound, default: value, flags: rw)
        }
        switch self {
        case .lowPass, .highPass:
            return [p(0, "cutoff", "Cutoff Frequency", .hertz, 10...22_050, 6900), p(1, "resonance", "Resonance", .decibels, -20...40, 0)]
        case .bandPass:
            return [p(0, "center", "Center Frequency", .hertz, 20...22_050, 5000), p(1, "bandwidth", "Bandwidth", .cents, 100...12_000, 600)]
        case .lowShelf:
            return [p(0, "cutoff", "Cutoff Frequency", .hertz, 10...200, 80), p(1, "gain", "Gain", .decibels, -40...40, 0)]
        case .highShelf:
            return [p(0, "cutoff", "Cutoff Frequency", .hertz, 10_000...22_050, 10_000), p(1, "gain", "Gain", .decibels, -40...40, 0)]
        case .parametric:
            return [p(0, "center", "Center Frequency", .hertz, 20...22_050, 2000), p(1, "q", "Q", .generic, 0.1...20, 1),
                    p(2, "gain", "Gain", .decibels, -20...20, 0)]
        }
    }

    /// The section for parameter values `v` at `rate`.
    func biquad(_ v: (Float, Float, Float), rate: Float) -> Biquad {
        let omega = Biquad.omega(v.0, rate: rate)
        switch self {
        case .lowPass: return Biquad(.lowPass, omega: omega, q: powf(10, v.1 / 20))
        case .highPass: return Biquad(.highPass, omega: omega, q: powf(10, v.1 / 20))
        case .bandPass: return Biquad(.bandPass, omega: omega, q: Biquad.q(octaves: v.1 / 1200, omega: omega))
        case .lowShelf: return Biquad(.lowShelf, omega: omega, q: Biquad.butterworthQ, gain: v.1)
        case .highShelf: return Biquad(.highShelf, omega: omega, q: Biquad.butterworthQ, gain: v.1)
        case .parametric: return Biquad(.peaking, omega: omega, q: v.1, gain: v.2)
        }
    }
}

/// One of Apple's filter effects.
/// - Thread: [control] for set-up; ``process(_:)`` on the render thread.
final class AppleFilterUnit: AppleEffectUnit, @unchecked Sendable {
    let kind: AppleFilterKind
    private var section = Biquad()
    private var computedFor: (Float, Float, Float) = (.nan, .nan, .nan)

    init(kind: AppleFilterKind, description: ComponentDescription) {
        self.kind = kind
        super.init(description: description, name: kind.name, parameters: kind.parameters)
    }

    /// Per channel z1, z2 (transposed direct form II).
    override func stateSize() -> Int { channels * 2 }

    override func prepare() throws(AudioUnitError) { computedFor = (.nan, .nan, .nan) }

    /// - Thread: [render]
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let values = (parameters.value(at: 0), parameters.value(at: 1), kind == .parametric ? parameters.value(at: 2) : 0)
        if values != computedFor {
            section = kind.biquad(values, rate: sampleRate)
            computedFor = values
        }
        let input = context.inputs[0], output = context.outputs[0]
        for channel in 0..<min(channels, output.channelCount, input.channelCount) {
            section.run(input.channelPointers[channel], output.channelPointers[channel], context.frameCount, renderState + channel * 2)
        }
        return 0
    }
}
