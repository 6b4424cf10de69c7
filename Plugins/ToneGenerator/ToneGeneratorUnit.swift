import AUPluginSDK

/// `augn:tone:AUHs`: a test-tone generator — sine, band-limited square and sawtooth,
/// triangle or white noise — at a frequency and a level in dBFS, the same on every
/// output channel. No input.
/// - Thread: control for set-up; ``process(_:)`` on the render thread.
final class ToneGeneratorUnit: PluginUnit {
    enum Parameter: UInt32 {
        case waveform = 0, frequency, level
    }

    static let descriptor = UnitDescriptor(
        type: .generator, subtype: "tone", manufacturer: "AUHs", name: "Tone Generator", manufacturerName: "AUHost",
        category: "Generator", inputs: [], outputs: [2])

    static let parameters = [
        .choice(id: Parameter.waveform.rawValue, identifier: "waveform", name: "Waveform", choices: Waveform.names),
        PluginParameterInfo(id: Parameter.frequency.rawValue, identifier: "frequency", name: "Frequency", unit: .hertz, range: 10...20_000, default: 440, isLogarithmic: true),
        PluginParameterInfo(id: Parameter.level.rawValue, identifier: "level", name: "Level", unit: .decibels, range: -96...0, default: -12),
    ]

    private var oscillator = Oscillator()
    private var frequency = 440.0
    private var level = Smoother(value: decibelsToGain(-12))
    private var sampleRate = 48_000.0

    init() {}

    func prepare(_ setup: RenderSetup) throws(PluginError) {
        sampleRate = setup.sampleRate
        oscillator.setFrequency(frequency, sampleRate: sampleRate)
        level.configure(time: 0.005, sampleRate: sampleRate)
        level.snap()
    }

    func setParameter(_ id: UInt32, value: Float) {
        switch Parameter(rawValue: id) {
        case .waveform: oscillator.waveform = Waveform(rawValue: Int(value)) ?? .sine
        case .frequency:
            frequency = Double(value)
            oscillator.setFrequency(frequency, sampleRate: sampleRate)
        case .level: level.target = decibelsToGain(value)
        case nil: break
        }
    }

    func reset() {
        oscillator.restart()
        level.snap()
    }

    func process(_ block: AudioBlock) {
        let channels = block.outputChannelCount()
        guard channels > 0 else { return }
        let first = block.output(0)
        for frame in 0..<block.frameCount { first[frame] = oscillator.next() * level.next() }
        for channel in 1..<max(1, channels) { _ = block.output(channel).update(from: UnsafeBufferPointer(first)) }
    }
}

@_cdecl("auhost_plugin_entry") public func auhostPluginEntry() -> UnsafeRawPointer { PluginExport.entry(ToneGeneratorUnit.self) }
