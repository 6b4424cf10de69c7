import AUPluginSDK
import Glibc

/// `aufx:dely:AUHs`: a feedback delay per channel. The delay time is exact in samples
/// (fractional times read between two samples linearly); feedback and mix are smoothed.
/// - Thread: control for set-up; ``process(_:)`` on the render thread.
final class DelayUnit: PluginUnit {
    enum Parameter: UInt32 {
        case time = 0, feedback = 1, mix = 2
    }

    static let maximumTime: Float = 2000

    static let descriptor = UnitDescriptor(
        type: .effect, subtype: "dely", manufacturer: "AUHs", name: "Delay", manufacturerName: "AUHost", category: "Delay")

    static let parameters = [
        PluginParameterInfo(id: Parameter.time.rawValue, identifier: "time", name: "Delay Time", unit: .milliseconds, range: 0...maximumTime, default: 250),
        PluginParameterInfo(id: Parameter.feedback.rawValue, identifier: "feedback", name: "Feedback", unit: .percent, range: 0...95, default: 30),
        PluginParameterInfo(id: Parameter.mix.rawValue, identifier: "mix", name: "Mix", unit: .percent, range: 0...100, default: 50),
    ]

    static let factoryPresets = [
        PluginPreset(name: "Slapback", values: [Parameter.time.rawValue: 90, Parameter.feedback.rawValue: 10, Parameter.mix.rawValue: 35]),
        PluginPreset(name: "Long Echo", values: [Parameter.time.rawValue: 600, Parameter.feedback.rawValue: 55, Parameter.mix.rawValue: 40]),
    ]

    private var timeMilliseconds: Float = 250
    private var feedback = Smoother(value: 0.3)
    private var mix = Smoother(value: 0.5)
    private var sampleRate = 48_000.0
    /// One line per channel, `length` samples each, in one allocation.
    private var lines: UnsafeMutablePointer<Float>?
    private var length = 0
    private var channels = 0
    private var writePosition = 0

    init() {}

    deinit { lines?.deallocate() }

    func prepare(_ setup: RenderSetup) throws(PluginError) {
        unprepare()
        channels = setup.outputChannels.first ?? 0
        guard setup.inputChannels.first == channels else {
            throw PluginError("Delay needs as many output channels as input channels, not \(setup.inputChannels) → \(setup.outputChannels)")
        }
        sampleRate = setup.sampleRate
        length = Int((Double(Self.maximumTime) / 1000 * sampleRate).rounded(.up)) + 2
        lines = .allocate(capacity: length * max(1, channels))
        lines!.initialize(repeating: 0, count: length * max(1, channels))
        writePosition = 0
        feedback.configure(time: 0.01, sampleRate: sampleRate)
        mix.configure(time: 0.01, sampleRate: sampleRate)
        feedback.snap()
        mix.snap()
    }

    func unprepare() {
        lines?.deallocate()
        lines = nil
    }

    func setParameter(_ id: UInt32, value: Float) {
        switch Parameter(rawValue: id) {
        case .time: timeMilliseconds = value
        case .feedback: feedback.target = value / 100
        case .mix: mix.target = value / 100
        case nil: break
        }
    }

    func reset() {
        if let lines { lines.update(repeating: 0, count: length * max(1, channels)) }
        feedback.snap()
        mix.snap()
    }

    /// The delay in samples (at least 1 when the line feeds back on itself).
    private var delaySamples: Double { min(Double(timeMilliseconds) / 1000 * sampleRate, Double(length - 2)) }

    /// Until the echoes have fallen by 60 dB: one delay per repeat, −60 dB / (20·log10 feedback) repeats.
    var tailTime: Double {
        let delay = Double(timeMilliseconds) / 1000
        let gain = Double(feedback.target)
        return gain <= 0.001 ? delay : delay * (1 + (-3 / log10(gain)).rounded(.up))
    }

    func process(_ block: AudioBlock) {
        guard let lines else { return block.clearOutputs() }
        let delay = delaySamples
        let whole = Int(delay)
        let fraction = Float(delay - Double(whole))
        let channelCount = min(channels, block.outputChannelCount(), block.inputChannelCount())
        var position = writePosition
        for frame in 0..<block.frameCount {
            let feedbackGain = feedback.next()
            let wet = mix.next()
            var readA = position - whole
            if readA < 0 { readA += length }
            var readB = readA - 1
            if readB < 0 { readB += length }
            for channel in 0..<channelCount {
                let line = lines + channel * length
                let input = block.input(channel)[frame]
                // Under one sample of delay, the newer end of the interpolation is the input itself.
                let newer = whole == 0 ? input : line[readA]
                let tap = newer + (line[readB] - newer) * fraction
                line[position] = flushDenormal(input + tap * feedbackGain)
                block.output(channel)[frame] = input * (1 - wet) + tap * wet
            }
            position += 1
            if position == length { position = 0 }
        }
        writePosition = position
    }
}

@_cdecl("auhost_plugin_entry") public func auhostPluginEntry() -> UnsafeRawPointer { PluginExport.entry(DelayUnit.self) }
