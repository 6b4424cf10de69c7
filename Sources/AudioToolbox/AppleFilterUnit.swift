import Foundation
internal import AUCore

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

    /// The normalized biquad (b0, b1, b2, a1, a2) for parameter values `v` at `rate`.
    func coefficients(_ v: (Float, Float, Float), rate: Float) -> (Float, Float, Float, Float, Float) {
        let omega = 2 * Float.pi * min(v.0, 0.49 * rate) / rate
        let cosine = cosf(omega), sine = sinf(omega)
        var b0: Float, b1: Float, b2: Float, a0: Float, a1: Float, a2: Float
        switch self {
        case .lowPass, .highPass:
            let alpha = sine / (2 * powf(10, v.1 / 20))
            let sign: Float = self == .lowPass ? 1 : -1
            b1 = sign * (1 - sign * cosine)
            b0 = (1 - sign * cosine) / 2
            b2 = b0
            (a0, a1, a2) = (1 + alpha, -2 * cosine, 1 - alpha)
        case .bandPass:
            let octaves = v.1 / 1200
            let alpha = sine * sinhf(logf(2) / 2 * octaves * omega / sine)
            (b0, b1, b2, a0, a1, a2) = (alpha, 0, -alpha, 1 + alpha, -2 * cosine, 1 - alpha)
        case .lowShelf, .highShelf:
            let a = powf(10, v.1 / 40)
            let alpha = sine / 2 * sqrtf(2)  // slope 1
            let root = 2 * sqrtf(a) * alpha
            let s: Float = self == .lowShelf ? 1 : -1
            b0 = a * ((a + 1) - s * (a - 1) * cosine + root)
            b1 = 2 * s * a * ((a - 1) - s * (a + 1) * cosine)
            b2 = a * ((a + 1) - s * (a - 1) * cosine - root)
            a0 = (a + 1) + s * (a - 1) * cosine + root
            a1 = -2 * s * ((a - 1) + s * (a + 1) * cosine)
            a2 = (a + 1) + s * (a - 1) * cosine - root
        case .parametric:
            let a = powf(10, v.2 / 40)
            let alpha = sine / (2 * max(v.1, 0.01))
            (b0, b1, b2, a0, a1, a2) = (1 + alpha * a, -2 * cosine, 1 - alpha * a, 1 + alpha / a, -2 * cosine, 1 - alpha / a)
        }
        return (b0 / a0, b1 / a0, b2 / a0, a1 / a0, a2 / a0)
    }
}

/// One of Apple's filter effects.
/// - Thread: [control] for set-up; ``process(_:)`` on the render thread.
final class AppleFilterUnit: AppleEffectUnit, @unchecked Sendable {
    static let components: [Component] = AppleFilterKind.allCases.map { kind in
        let description = ComponentDescription(type: "aufx", subtype: kind.subtype, manufacturer: AppleComponents.apple)
        return Component(
            description: description, name: "Apple: \(kind.name)", manufacturerName: "Apple", version: "1.0.0", format: .builtin,
            identifier: "appl:\(kind.name)", category: "Filter",
            factory: { () throws(AudioUnitError) -> EngineUnit in AppleFilterUnit(kind: kind, description: description) })
    }

    let kind: AppleFilterKind
    /// Per channel z1, z2 (transposed direct form II).
    private var history: UnsafeMutablePointer<Float>?
    private var coefficients: (Float, Float, Float, Float, Float) = (1, 0, 0, 0, 0)
    private var computedFor: (Float, Float, Float) = (.nan, .nan, .nan)

    init(kind: AppleFilterKind, description: ComponentDescription) {
        self.kind = kind
        super.init(description: description, name: kind.name, inputs: [.canonical(channels: 2, name: "Input")],
                   outputs: [.canonical(channels: 2, name: "Output")], parameters: kind.parameters)
    }

    override func prepare() throws(AudioUnitError) {
        let history = UnsafeMutablePointer<Float>.allocate(capacity: channels * 2)
        history.initialize(repeating: 0, count: channels * 2)
        self.history = history
        computedFor = (.nan, .nan, .nan)
    }

    override func deallocateRenderResources() {
        history?.deallocate()
        history = nil
    }

    override func resetState() { history?.update(repeating: 0, count: channels * 2) }

    /// - Thread: [render]
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        guard let history else { return AudioUnitErrorCode.uninitialized.rawValue }
        let values = (parameters.value(at: 0), parameters.value(at: 1), kind == .parametric ? parameters.value(at: 2) : 0)
        if values != computedFor {
            coefficients = kind.coefficients(values, rate: sampleRate)
            computedFor = values
        }
        let (b0, b1, b2, a1, a2) = coefficients
        let input = context.inputs[0], output = context.outputs[0]
        for channel in 0..<min(channels, output.channelCount, input.channelCount) {
            let source = input.channelPointers[channel], destination = output.channelPointers[channel]
            var z1 = history[channel * 2], z2 = history[channel * 2 + 1]
            for frame in 0..<context.frameCount {
                let x = source[frame]
                let y = b0 * x + z1
                z1 = b1 * x - a1 * y + z2
                z2 = b2 * x - a2 * y
                destination[frame] = y
            }
            history[channel * 2] = z1
            history[channel * 2 + 1] = z2
        }
        return 0
    }
}
