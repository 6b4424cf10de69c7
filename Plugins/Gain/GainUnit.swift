import AUPluginSDK

/// `aufx:gain:AUHs`: a gain in decibels, smoothed per frame so changes never click.
/// - Thread: control for set-up; ``process(_:)`` on the render thread.
final class GainUnit: PluginUnit {
    enum Parameter: UInt32 {
        case gain = 0, smoothing = 1
    }

    static let descriptor = UnitDescriptor(
        type: .effect, subtype: "gain", manufacturer: "AUHs", name: "Gain", manufacturerName: "AUHost", category: "Utility")

    static let parameters = [
        PluginParameterInfo(id: Parameter.gain.rawValue, identifier: "gain", name: "Gain", unit: .decibels, range: -96...24, default: 0),
        PluginParameterInfo(id: Parameter.smoothing.rawValue, identifier: "smoothing", name: "Smoothing", unit: .milliseconds, range: 0...1000, default: 20),
    ]

    /// Touched only on the render thread once the unit renders (``process(_:)``, and
    /// ``setParameter(_:value:)`` for the events the host hands it there): not checked for
    /// exclusive access, which costs a runtime call per read, and per frame while it moves.
    @exclusivity(unchecked) private var gain = Smoother(value: 1)
    private var smoothingTime = 0.02
    private var sampleRate = 48_000.0

    init() {}

    func prepare(_ setup: RenderSetup) throws(PluginError) {
        guard setup.inputChannels.first == setup.outputChannels.first else {
            throw PluginError("Gain needs as many output channels as input channels, not \(setup.inputChannels) → \(setup.outputChannels)")
        }
        sampleRate = setup.sampleRate
        gain.configure(time: smoothingTime, sampleRate: sampleRate)
        gain.snap()
    }

    func setParameter(_ id: UInt32, value: Float) {
        switch Parameter(rawValue: id) {
        case .gain: gain.target = decibelsToGain(value)
        case .smoothing:
            smoothingTime = Double(value) / 1000
            gain.configure(time: smoothingTime, sampleRate: sampleRate)
        case nil: break
        }
    }

    func reset() { gain.snap() }

    func process(_ block: AudioBlock) {
        let channels = block.outputChannelCount()
        if !gain.isMoving {
            let value = gain.current
            var finite = true
            for channel in 0..<channels where !scale(block.input(channel), by: value, into: block.output(channel)) { finite = false }
            // Checked as written: the host need not scan the output again.
            if finite { block.reportOutputsFinite() }
            return
        }
        // A moving gain: the same ramp on every channel, frame by frame.
        for frame in 0..<block.frameCount {
            let value = gain.next()
            for channel in 0..<channels { block.output(channel)[frame] = block.input(channel)[frame] * value }
        }
    }
}

@_cdecl("auhost_plugin_entry") public func auhostPluginEntry() -> UnsafeRawPointer { PluginExport.entry(GainUnit.self) }
