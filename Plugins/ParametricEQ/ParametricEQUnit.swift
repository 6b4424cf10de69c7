import AUPluginSDK

/// `aufx:peq :AUHs`: four biquad bands in series, each with an RBJ cookbook shape,
/// frequency, gain and Q, and an output gain. Coefficients are designed on the render
/// thread when a band's parameter changes (arithmetic only, no allocation).
/// - Thread: control for set-up; ``process(_:)`` on the render thread.
final class ParametricEQUnit: PluginUnit {
    static let bandCount = 4
    static let maximumChannels = 16
    /// Parameter IDs: band b (0-based) uses 10·b + field; the output gain is 100.
    enum Field: UInt32 {
        case shape = 0, frequency = 1, gain = 2, q = 3
    }
    static let outputGainID: UInt32 = 100

    static let descriptor = UnitDescriptor(
        type: .effect, subtype: "peq ", manufacturer: "AUHs", name: "Parametric EQ", manufacturerName: "AUHost", category: "EQ")

    static let defaults: [(shape: FilterShape, frequency: Float)] = [(.lowShelf, 100), (.peak, 500), (.peak, 2000), (.highShelf, 8000)]

    static let parameters: [PluginParameterInfo] = (0..<bandCount).flatMap { band -> [PluginParameterInfo] in
        let base = UInt32(band * 10)
        let label = "Band \(band + 1)"
        return [
            .choice(id: base + Field.shape.rawValue, identifier: "band\(band + 1)_shape", name: "\(label) Shape", choices: FilterShape.names, default: defaults[band].shape.rawValue),
            PluginParameterInfo(id: base + Field.frequency.rawValue, identifier: "band\(band + 1)_frequency", name: "\(label) Frequency", unit: .hertz, range: 20...20_000, default: defaults[band].frequency, isLogarithmic: true),
            PluginParameterInfo(id: base + Field.gain.rawValue, identifier: "band\(band + 1)_gain", name: "\(label) Gain", unit: .decibels, range: -24...24, default: 0),
            PluginParameterInfo(id: base + Field.q.rawValue, identifier: "band\(band + 1)_q", name: "\(label) Q", unit: .generic, range: 0.1...18, default: 0.707, isLogarithmic: true),
        ]
    } + [PluginParameterInfo(id: outputGainID, identifier: "output", name: "Output Gain", unit: .decibels, range: -24...24, default: 0)]

    private struct Band {
        var shape = FilterShape.peak
        var frequency = 1000.0
        var gain = 0.0
        var q = 0.707
        var coefficients = BiquadCoefficients.identity
    }

    private var bands = [Band](repeating: Band(), count: bandCount)
    private var states: UnsafeMutablePointer<BiquadState>
    private var output = Smoother(value: 1)
    private var sampleRate = 48_000.0

    init() {
        states = .allocate(capacity: Self.bandCount * Self.maximumChannels)
        states.initialize(repeating: BiquadState(), count: Self.bandCount * Self.maximumChannels)
    }

    deinit { states.deallocate() }

    func prepare(_ setup: RenderSetup) throws(PluginError) {
        let channels = setup.outputChannels.first ?? 0
        guard setup.inputChannels.first == channels, channels <= Self.maximumChannels else {
            throw PluginError("Parametric EQ takes 1 to \(Self.maximumChannels) channels in and the same number out, not \(setup.inputChannels) → \(setup.outputChannels)")
        }
        sampleRate = setup.sampleRate
        output.configure(time: 0.01, sampleRate: sampleRate)
        output.snap()
        for band in 0..<Self.bandCount { design(band) }
        reset()
    }

    func reset() {
        states.update(repeating: BiquadState(), count: Self.bandCount * Self.maximumChannels)
        output.snap()
    }

    func setParameter(_ id: UInt32, value: Float) {
        if id == Self.outputGainID {
            output.target = decibelsToGain(value)
            return
        }
        let band = Int(id / 10)
        guard band < Self.bandCount, let field = Field(rawValue: id % 10) else { return }
        switch field {
        case .shape: bands[band].shape = FilterShape(rawValue: Int(value)) ?? .peak
        case .frequency: bands[band].frequency = Double(value)
        case .gain: bands[band].gain = Double(value)
        case .q: bands[band].q = Double(value)
        }
        design(band)
    }

    private func design(_ index: Int) {
        let band = bands[index]
        // A peak or shelf at 0 dB is the identity: skip its arithmetic.
        let isFlat = band.gain == 0 && (band.shape == .peak || band.shape == .lowShelf || band.shape == .highShelf)
        bands[index].coefficients = isFlat
            ? .identity
            : BiquadCoefficients(shape: band.shape, frequency: band.frequency, gainDecibels: band.gain, q: band.q, sampleRate: sampleRate)
    }

    func process(_ block: AudioBlock) {
        let channels = min(block.outputChannelCount(), block.inputChannelCount(), Self.maximumChannels)
        let startGain = output
        for channel in 0..<channels {
            let input = block.input(channel), out = block.output(channel)
            output = startGain
            for frame in 0..<block.frameCount {
                var x = Double(input[frame])
                for band in 0..<Self.bandCount where bands[band].coefficients != .identity {
                    x = states[band * Self.maximumChannels + channel].process(x, bands[band].coefficients)
                }
                out[frame] = Float(x) * output.next()
            }
        }
        if channels == 0 { for _ in 0..<block.frameCount { _ = output.next() } }
    }
}

@_cdecl("auhost_plugin_entry") public func auhostPluginEntry() -> UnsafeRawPointer { PluginExport.entry(ParametricEQUnit.self) }
