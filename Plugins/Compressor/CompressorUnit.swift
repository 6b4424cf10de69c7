import AUPluginSDK
import Glibc

/// `aufx:comp:AUHs`: a feed-forward compressor with a stereo-linked peak or RMS detector,
/// a soft knee, attack and release on the gain reduction (in dB), makeup gain, and the
/// gain reduction reported as an output parameter.
/// - Thread: control for set-up; ``process(_:)`` on the render thread.
final class CompressorUnit: PluginUnit {
    enum Parameter: UInt32 {
        case threshold = 0, ratio, knee, attack, release, makeup, detector
        case gainReduction = 100
    }

    static let descriptor = UnitDescriptor(
        type: .effect, subtype: "comp", manufacturer: "AUHs", name: "Compressor", manufacturerName: "AUHost", category: "Compressor")

    static let parameters = [
        PluginParameterInfo(id: Parameter.threshold.rawValue, identifier: "threshold", name: "Threshold", unit: .decibels, range: -60...0, default: -20),
        PluginParameterInfo(id: Parameter.ratio.rawValue, identifier: "ratio", name: "Ratio", unit: .ratio, range: 1...20, default: 4),
        PluginParameterInfo(id: Parameter.knee.rawValue, identifier: "knee", name: "Knee", unit: .decibels, range: 0...24, default: 6),
        PluginParameterInfo(id: Parameter.attack.rawValue, identifier: "attack", name: "Attack", unit: .milliseconds, range: 0.1...200, default: 10, isLogarithmic: true),
        PluginParameterInfo(id: Parameter.release.rawValue, identifier: "release", name: "Release", unit: .milliseconds, range: 5...2000, default: 100, isLogarithmic: true),
        PluginParameterInfo(id: Parameter.makeup.rawValue, identifier: "makeup", name: "Makeup Gain", unit: .decibels, range: 0...24, default: 0),
        .choice(id: Parameter.detector.rawValue, identifier: "detector", name: "Detector", choices: ["Peak", "RMS"]),
        PluginParameterInfo(id: Parameter.gainReduction.rawValue, identifier: "gain_reduction", name: "Gain Reduction", unit: .decibels, range: 0...96, default: 0, isOutput: true),
    ]

    private var curve = CompressorCurve()
    private var attackTime: Float = 0.01
    private var releaseTime: Float = 0.1
    private var makeup = Smoother(value: 1)
    private var usesRMS = false
    private var sampleRate: Float = 48_000
    private var attackCoefficient: Float = 0
    private var releaseCoefficient: Float = 0
    /// The RMS detector's mean-square average over about 10 ms.
    private var rmsCoefficient: Float = 0
    private var meanSquare: Float = 0
    /// The smoothed gain reduction in dB.
    private var reduction: Float = 0

    init() {}

    func prepare(_ setup: RenderSetup) throws(PluginError) {
        guard setup.inputChannels.first == setup.outputChannels.first else {
            throw PluginError("Compressor needs as many output channels as input channels, not \(setup.inputChannels) → \(setup.outputChannels)")
        }
        sampleRate = Float(setup.sampleRate)
        makeup.configure(time: 0.01, sampleRate: setup.sampleRate)
        makeup.snap()
        updateTimes()
        reset()
    }

    func reset() {
        meanSquare = 0
        reduction = 0
    }

    private func coefficient(_ seconds: Float) -> Float { expf(-1 / (max(seconds, 1e-5) * sampleRate)) }

    private func updateTimes() {
        attackCoefficient = coefficient(attackTime)
        releaseCoefficient = coefficient(releaseTime)
        rmsCoefficient = coefficient(0.01)
    }

    func setParameter(_ id: UInt32, value: Float) {
        switch Parameter(rawValue: id) {
        case .threshold: curve.threshold = value
        case .ratio: curve.ratio = value
        case .knee: curve.knee = value
        case .attack: attackTime = value / 1000; updateTimes()
        case .release: releaseTime = value / 1000; updateTimes()
        case .makeup: makeup.target = decibelsToGain(value)
        case .detector: usesRMS = value >= 0.5
        case .gainReduction, nil: break
        }
    }

    func process(_ block: AudioBlock) {
        let channels = min(block.inputChannelCount(), block.outputChannelCount())
        for frame in 0..<block.frameCount {
            // The detector: the loudest channel (peak) or the mean square of all (RMS).
            var peak: Float = 0
            var sum: Float = 0
            for channel in 0..<channels {
                let sample = block.input(channel)[frame]
                peak = max(peak, abs(sample))
                sum += sample * sample
            }
            let level: Float
            if usesRMS {
                meanSquare = flushDenormal(rmsCoefficient * meanSquare + (1 - rmsCoefficient) * sum / Float(max(1, channels)))
                level = meanSquare > 1e-16 ? 10 * log10f(meanSquare) : -160
            } else {
                level = peak > 1e-8 ? 20 * log10f(peak) : -160
            }
            let target = curve.reduction(level)
            let coefficient = target > reduction ? attackCoefficient : releaseCoefficient
            reduction = flushDenormal(coefficient * reduction + (1 - coefficient) * target)
            let gain = decibelsToGain(-reduction) * makeup.next()
            for channel in 0..<channels { block.output(channel)[frame] = block.input(channel)[frame] * gain }
        }
        block.report(Parameter.gainReduction.rawValue, value: reduction)
    }
}

@_cdecl("auhost_plugin_entry") public func auhostPluginEntry() -> UnsafeRawPointer { PluginExport.entry(CompressorUnit.self) }
