import Foundation
import AUCore

// Apple's AUNBandEQ (`aufx nbeq appl`) with Apple's parameter IDs: the global gain (0, dB,
// −96–24, 0) and for band N (0 ≤ N < 16): bypass (1000 + N, boolean, 1: a band starts
// bypassed, as Apple's do), filter type (2000 + N, indexed 0–10, kAUNBandEQFilterType_…,
// 0 parametric), frequency (3000 + N, Hz, 20–22050, 1000), gain (4000 + N, dB, −96–24, 0;
// the parametric and shelf types) and bandwidth (5000 + N, octaves, 0.05–5, 0.5; the
// parametric, band-pass, band-stop and resonant types). kAUNBandEQProperty_NumberOfBands
// (1–16, 16 unless set while uninitialized) says how many bands run; every band's
// parameters exist (AUHost's parameter tables are fixed when a unit is made).
// Each band is one biquad per channel (Biquad.swift), recomputed on the render thread when
// its parameters changed; the Butterworth types have Q 1/√2, the resonant ones the Q of
// their bandwidth.

/// What AudioToolbox sets on an AUNBandEQ: `kAUNBandEQProperty_NumberOfBands` and
/// `kAUNBandEQProperty_MaxNumberOfBands`.
/// - Thread: [control]
public protocol NBandEqualizer: AnyObject {
    /// How many bands run.
    /// - Thread: [control]
    var numberOfBands: Int { get }
    /// The most bands it runs.
    /// - Thread: [control]
    var maxNumberOfBands: Int { get }
    /// Sets how many bands run (1 to ``maxNumberOfBands``), while uninitialized.
    /// - Thread: [control]
    func setNumberOfBands(_ count: Int) throws(AudioUnitError)
}

/// `aufx:nbeq:appl`.
/// - Thread: [control] for set-up; ``process(_:)`` on the render thread.
final class NBandEQUnit: AppleEffectUnit, NBandEqualizer, @unchecked Sendable {
    static let maxNumberOfBands = 16
    static let filterTypes = [
        "Parametric", "2nd Order Butterworth Low Pass", "2nd Order Butterworth High Pass", "Resonant Low Pass",
        "Resonant High Pass", "Band Pass", "Band Stop", "Low Shelf", "High Shelf", "Resonant Low Shelf", "Resonant High Shelf",
    ]

    private(set) var numberOfBands = NBandEQUnit.maxNumberOfBands
    var maxNumberOfBands: Int { Self.maxNumberOfBands }
    /// Each band's section and the values it was computed for (type, frequency, gain, bandwidth).
    private let sections = UnsafeMutablePointer<Biquad>.allocate(capacity: NBandEQUnit.maxNumberOfBands)
    private let computedFor = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: NBandEQUnit.maxNumberOfBands)

    init(description: ComponentDescription) {
        var parameters = [ParameterInfo(id: 0, identifier: "globalGain", name: "Global Gain", unit: .decibels, min: -96, max: 24, default: 0)]
        for band in 0..<Self.maxNumberOfBands {
            let id = ParameterID(band)
            parameters += [
                ParameterInfo(id: 1000 + id, identifier: "bypassBand\(band)", name: "Bypass Band \(band)", unit: .boolean, min: 0, max: 1, default: 1),
                ParameterInfo(id: 2000 + id, identifier: "filterType\(band)", name: "Filter Type \(band)", unit: .indexed, min: 0, max: Float(Self.filterTypes.count - 1),
                              default: 0, valueStrings: Self.filterTypes),
                ParameterInfo(id: 3000 + id, identifier: "frequency\(band)", name: "Frequency \(band)", unit: .hertz, min: 20, max: 22_050, default: 1000),
                ParameterInfo(id: 4000 + id, identifier: "gain\(band)", name: "Gain \(band)", unit: .decibels, min: -96, max: 24, default: 0),
                ParameterInfo(id: 5000 + id, identifier: "bandwidth\(band)", name: "Bandwidth \(band)", unit: .octaves, min: 0.05, max: 5, default: 0.5),
            ]
        }
        sections.initialize(repeating: Biquad(), count: Self.maxNumberOfBands)
        computedFor.initialize(repeating: SIMD4(repeating: .nan), count: Self.maxNumberOfBands)
        super.init(description: description, name: "AUNBandEQ", parameters: parameters)
    }

    deinit {
        sections.deallocate()
        computedFor.deallocate()
    }

    func setNumberOfBands(_ count: Int) throws(AudioUnitError) {
        guard state != .initialized else { throw AudioUnitError(.initialized, "\(name): the number of bands is set before initialization") }
        guard (1...Self.maxNumberOfBands).contains(count) else {
            throw AudioUnitError(.invalidPropertyValue, "\(name): \(count) bands; expected 1...\(Self.maxNumberOfBands)")
        }
        numberOfBands = count
    }

    /// Per band and channel z1, z2.
    override func stateSize() -> Int { Self.maxNumberOfBands * channels * 2 }

    override func prepare() throws(AudioUnitError) {
        computedFor.update(repeating: SIMD4(repeating: .nan), count: Self.maxNumberOfBands)
    }

    /// The section of a band with parameter values `v` (type, frequency, gain, bandwidth).
    private func section(_ v: SIMD4<Float>) -> Biquad {
        let omega = Biquad.omega(v[1], rate: sampleRate)
        let q = Biquad.q(octaves: v[3], omega: omega)
        switch Int(v[0]) {
        case 1: return Biquad(.lowPass, omega: omega, q: Biquad.butterworthQ)
        case 2: return Biquad(.highPass, omega: omega, q: Biquad.butterworthQ)
        case 3: return Biquad(.lowPass, omega: omega, q: q)
        case 4: return Biquad(.highPass, omega: omega, q: q)
        case 5: return Biquad(.bandPass, omega: omega, q: q)
        case 6: return Biquad(.notch, omega: omega, q: q)
        case 7: return Biquad(.lowShelf, omega: omega, q: Biquad.butterworthQ, gain: v[2])
        case 8: return Biquad(.highShelf, omega: omega, q: Biquad.butterworthQ, gain: v[2])
        case 9: return Biquad(.lowShelf, omega: omega, q: q, gain: v[2])
        case 10: return Biquad(.highShelf, omega: omega, q: q, gain: v[2])
        default: return Biquad(.peaking, omega: omega, q: q, gain: v[2])
        }
    }

    /// - Thread: [render]
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let input = context.inputs[0], output = context.outputs[0]
        let channels = min(self.channels, input.channelCount, output.channelCount)
        let globalGain = powf(10, parameters.value(at: 0) / 20)
        for channel in 0..<channels {
            let source = input.channelPointers[channel], destination = output.channelPointers[channel]
            for frame in 0..<context.frameCount { destination[frame] = source[frame] * globalGain }
        }
        for band in 0..<numberOfBands {
            let slot = 1 + band * 5
            guard parameters.value(at: slot) < 0.5 else { continue }
            let values = SIMD4(parameters.value(at: slot + 1), parameters.value(at: slot + 2), parameters.value(at: slot + 3), parameters.value(at: slot + 4))
            if values != computedFor[band] {
                sections[band] = section(values)
                computedFor[band] = values
            }
            for channel in 0..<channels {
                let buffer = output.channelPointers[channel]
                sections[band].run(buffer, buffer, context.frameCount, renderState + (band * self.channels + channel) * 2)
            }
        }
        return 0
    }
}
