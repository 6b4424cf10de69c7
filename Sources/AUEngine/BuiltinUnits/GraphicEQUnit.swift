import AUCore
#if canImport(Glibc)
import Glibc
#endif

/// `aufx:ipeq:AUHs`: a ten-band graphic equalizer with named factory presets in the manner
/// of Apple's iPod EQ, in its order (Disabled, Acoustic, Bass Booster, …, Vocal Booster). Each band is an
/// RBJ-cookbook peaking biquad (one octave wide) at 32 Hz … 16 kHz; parameter `n` (0…9) is
/// band `n`'s gain in dB (-12…+12). A band at 0 dB, or at or above 0.45 × the sample rate, is
/// skipped, so Flat passes audio through unchanged. Any channel count, the same in and out.
/// Coefficients are recomputed on the render thread when a gain changes (no allocation).
/// - Thread: [control] for set-up; ``process(_:)`` on the render thread.
final class GraphicEQUnit: AudioUnit, @unchecked Sendable {
    static let frequencies: [Float] = [32, 64, 125, 250, 500, 1000, 2000, 4000, 8000, 16000]
    static let bandwidthQ: Float = 1.41

    /// Band gains in dB per preset, in factory-preset order (the number is the index): the
    /// names and order of Apple's AUiPodEQ (0 is "Disabled", which passes audio through,
    /// as "Flat" does), the curves those of the same names in Apple's music players.
    static let presets: [(name: String, gains: [Float])] = [
        ("Disabled", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        ("Acoustic", [5, 5, 4, 1, 1.5, 1.5, 3.5, 4, 3.5, 2]),
        ("Bass Booster", [5.5, 4.5, 3.5, 2.5, 1.5, 0, 0, 0, 0, 0]),
        ("Bass Reducer", [-5.5, -4.5, -3.5, -2.5, -1.5, 0, 0, 0, 0, 0]),
        ("Classical", [4.5, 4, 3, 2.5, -1.5, -1.5, 0, 2, 3, 3.5]),
        ("Dance", [3.5, 6.5, 5, 0, 2, 3.5, 5, 4.5, 3.5, 0]),
        ("Deep", [5, 3.5, 1.5, 1, 3, 2.5, 1.5, -2, -3.5, -4.5]),
        ("Electronic", [4, 3.5, 1, 0, -2, 2, 1, 1.5, 4, 5]),
        ("Flat", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        ("Hip-Hop", [5, 4, 1.5, 3, -1, -1, 1.5, -0.5, 2, 3]),
        ("Jazz", [4, 3, 1.5, 2, -1.5, -1.5, 0, 1.5, 3, 3.5]),
        ("Latin", [4.5, 3, 0, 0, -1.5, -1.5, -1.5, 0, 3, 4.5]),
        ("Loudness", [6, 4, 0, 0, -2, 0, -1, -5, 5, 1]),
        ("Lounge", [-3, -1.5, -0.5, 1.5, 4, 2.5, 0, -1.5, 2, 1]),
        ("Piano", [3, 2, 0, 2.5, 3, 1.5, 3.5, 4.5, 3, 3.5]),
        ("Pop", [-1.5, -1, 0, 2, 4, 4, 2, 0, -1, -1.5]),
        ("R&B", [3, 7, 5.5, 1.5, -3, -1.5, 2, 2.5, 3, 3.5]),
        ("Rock", [5, 4, 3, 1.5, -0.5, -1, 0.5, 2.5, 3.5, 4.5]),
        ("Small Speakers", [5.5, 4, 3.5, 2.5, 1, 0, -1, -2, -3, -4]),
        ("Spoken Word", [-3.5, -0.5, 0, 0.5, 3.5, 5, 5, 4.5, 2.5, 0]),
        ("Treble Booster", [0, 0, 0, 0, 0, 1, 2.5, 3.5, 4.5, 5.5]),
        ("Treble Reducer", [0, 0, 0, 0, 0, -1, -2.5, -3.5, -4.5, -5.5]),
        ("Vocal Booster", [-1.5, -3, -3, 1.5, 3.5, 3.5, 3, 1.5, 0, -1.5]),
    ]

    private var bandCount: Int { Self.frequencies.count }
    /// Per band: b0, b1, b2, a1, a2 (normalized); NaN gain cache forces a first computation.
    private var coefficients: UnsafeMutablePointer<Float>?
    private var cachedGains: UnsafeMutablePointer<Float>?
    /// Per channel per band: z1, z2.
    private var history: UnsafeMutablePointer<Float>?
    private var channels = 0
    private var sampleRate: Float = 48_000

    init(description: ComponentDescription) {
        let infos = Self.frequencies.enumerated().map { index, frequency in
            ParameterInfo(
                id: ParameterID(index), identifier: "band\(index)",
                name: frequency >= 1000 ? "\(Int(frequency / 1000)) kHz" : "\(Int(frequency)) Hz",
                unit: .decibels, min: -12, max: 12, default: 0)
        }
        super.init(
            description: description, name: "iPod EQ", inputs: [.canonical(channels: 2, name: "Input")],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: infos)
    }

    /// Any channel count (1…64) on either bus; they must agree by initialize.
    override func validateFormat(_ format: StreamFormat, scope: Scope, element: Element) throws(AudioUnitError) {
        try format.validate()
        guard format.isFloat, !format.isInterleaved, format.bitsPerChannel == 32 else {
            throw AudioUnitError(.formatNotSupported, "\(name): \(scope) bus \(element) renders 32-bit float non-interleaved, not \(format)")
        }
    }

    override var factoryPresets: [UnitPreset] {
        Self.presets.enumerated().map { UnitPreset(number: $0.offset, name: $0.element.name) }
    }

    override func applyFactoryPreset(_ preset: UnitPreset) throws(AudioUnitError) {
        guard Self.presets.indices.contains(preset.number) else {
            throw AudioUnitError(.invalidPropertyValue, "\(name) has no factory preset \(preset)")
        }
        for (band, gain) in Self.presets[preset.number].gains.enumerated() { parameters.exchangeValue(gain, at: band) }
    }

    override func allocateRenderResources() throws(AudioUnitError) {
        let input = formats(.input)[0], output = formats(.output)[0]
        guard input.channelsPerFrame == output.channelsPerFrame, input.sampleRate == output.sampleRate else {
            throw AudioUnitError(.formatNotSupported, "\(name): input (\(input)) and output (\(output)) must have the same channels and sample rate")
        }
        channels = input.channelsPerFrame
        sampleRate = Float(input.sampleRate)
        let coefficients = UnsafeMutablePointer<Float>.allocate(capacity: bandCount * 5)
        coefficients.initialize(repeating: 0, count: bandCount * 5)
        let cachedGains = UnsafeMutablePointer<Float>.allocate(capacity: bandCount)
        cachedGains.initialize(repeating: .nan, count: bandCount)
        let history = UnsafeMutablePointer<Float>.allocate(capacity: channels * bandCount * 2)
        history.initialize(repeating: 0, count: channels * bandCount * 2)
        self.coefficients = coefficients
        self.cachedGains = cachedGains
        self.history = history
    }

    override func deallocateRenderResources() {
        coefficients?.deallocate()
        cachedGains?.deallocate()
        history?.deallocate()
        coefficients = nil
        cachedGains = nil
        history = nil
    }

    override func resetState() {
        history?.update(repeating: 0, count: channels * bandCount * 2)
    }

    /// RBJ peaking EQ coefficients for one band.
    private func computeBand(_ band: Int, gain: Float, into coefficients: UnsafeMutablePointer<Float>) {
        let amplitude = powf(10, gain / 40)
        let omega = 2 * Float.pi * Self.frequencies[band] / sampleRate
        let alpha = sinf(omega) / (2 * Self.bandwidthQ)
        let cosine = cosf(omega)
        let a0 = 1 + alpha / amplitude
        let slot = coefficients + band * 5
        slot[0] = (1 + alpha * amplitude) / a0
        slot[1] = -2 * cosine / a0
        slot[2] = (1 - alpha * amplitude) / a0
        slot[3] = -2 * cosine / a0
        slot[4] = (1 - alpha / amplitude) / a0
    }

    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        guard let coefficients, let cachedGains, let history else { return AudioUnitErrorCode.uninitialized.rawValue }
        let input = context.inputs[0], output = context.outputs[0]
        let frames = context.frameCount
        output.copy(from: input)
        for band in 0..<bandCount {
            let gain = parameters.value(at: band)
            guard gain != 0, Self.frequencies[band] < 0.45 * sampleRate else {
                cachedGains[band] = gain
                continue
            }
            if gain != cachedGains[band] {
                computeBand(band, gain: gain, into: coefficients)
                cachedGains[band] = gain
            }
            let slot = coefficients + band * 5
            let b0 = slot[0], b1 = slot[1], b2 = slot[2], a1 = slot[3], a2 = slot[4]
            for channel in 0..<min(channels, output.channelCount) {
                let samples = output.channelPointers[channel]
                let state = history + (channel * bandCount + band) * 2
                var z1 = state[0], z2 = state[1]
                for frame in 0..<frames {
                    let x = samples[frame]
                    let y = b0 * x + z1
                    z1 = b1 * x - a1 * y + z2
                    z2 = b2 * x - a2 * y
                    samples[frame] = y
                }
                state[0] = z1
                state[1] = z2
            }
        }
        return 0
    }
}
