import AUPluginSDK
import Glibc

/// `aufx:rvrb:AUHs`: Freeverb — eight parallel lowpass-feedback combs and four series
/// allpasses per side, the right side detuned by 23 samples; tunings scaled from 44.1 kHz.
/// Stereo in and out (a mono input feeds both sides).
/// - Thread: control for set-up; ``process(_:)`` on the render thread.
final class ReverbUnit: PluginUnit {
    enum Parameter: UInt32 {
        case roomSize = 0, damping, width, mix
    }

    static let combTunings = [1116, 1188, 1277, 1356, 1422, 1491, 1557, 1617]
    static let allpassTunings = [556, 441, 341, 225]
    static let stereoSpread = 23
    static let fixedGain: Float = 0.015
    static let wetScale: Float = 3

    static let descriptor = UnitDescriptor(
        type: .effect, subtype: "rvrb", manufacturer: "AUHs", name: "Reverb", manufacturerName: "AUHost", category: "Reverb")

    static let parameters = [
        PluginParameterInfo(id: Parameter.roomSize.rawValue, identifier: "room_size", name: "Room Size", unit: .percent, range: 0...100, default: 50),
        PluginParameterInfo(id: Parameter.damping.rawValue, identifier: "damping", name: "Damping", unit: .percent, range: 0...100, default: 50),
        PluginParameterInfo(id: Parameter.width.rawValue, identifier: "width", name: "Width", unit: .percent, range: 0...100, default: 100),
        PluginParameterInfo(id: Parameter.mix.rawValue, identifier: "mix", name: "Mix", unit: .percent, range: 0...100, default: 25),
    ]

    static let factoryPresets = [
        PluginPreset(name: "Small Room", values: [Parameter.roomSize.rawValue: 30, Parameter.damping.rawValue: 70, Parameter.mix.rawValue: 20]),
        PluginPreset(name: "Large Hall", values: [Parameter.roomSize.rawValue: 90, Parameter.damping.rawValue: 30, Parameter.mix.rawValue: 35]),
    ]

    private var roomSize: Float = 0.5
    private var damping: Float = 0.5
    private var width: Float = 1
    private var mix = Smoother(value: 0.25)
    private var sampleRate = 48_000.0
    private var memory: UnsafeMutablePointer<Float>?
    private var memorySize = 0
    /// Left combs then right combs; left allpasses then right allpasses.
    private var combs: [CombFilter] = []
    private var allpasses: [AllpassFilter] = []

    init() {}

    deinit { memory?.deallocate() }

    func prepare(_ setup: RenderSetup) throws(PluginError) {
        guard let inputs = setup.inputChannels.first, let outputs = setup.outputChannels.first, (1...2).contains(inputs), (1...2).contains(outputs) else {
            throw PluginError("Reverb takes one or two channels in and out, not \(setup.inputChannels) → \(setup.outputChannels)")
        }
        unprepare()
        sampleRate = setup.sampleRate
        let scale = sampleRate / 44_100
        func scaled(_ tuning: Int) -> Int { max(1, Int((Double(tuning) * scale).rounded())) }
        var lengths: [Int] = []
        for spread in [0, Self.stereoSpread] { lengths += Self.combTunings.map { scaled($0 + spread) } }
        var allpassLengths: [Int] = []
        for spread in [0, Self.stereoSpread] { allpassLengths += Self.allpassTunings.map { scaled($0 + spread) } }
        memorySize = (lengths + allpassLengths).reduce(0, +)
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: memorySize)
        memory.initialize(repeating: 0, count: memorySize)
        self.memory = memory
        var offset = 0
        combs = lengths.map { length in
            defer { offset += length }
            return CombFilter(buffer: memory + offset, length: length)
        }
        allpasses = allpassLengths.map { length in
            defer { offset += length }
            return AllpassFilter(buffer: memory + offset, length: length)
        }
        mix.configure(time: 0.02, sampleRate: sampleRate)
        mix.snap()
    }

    func unprepare() {
        combs = []
        allpasses = []
        memory?.deallocate()
        memory = nil
    }

    func setParameter(_ id: UInt32, value: Float) {
        switch Parameter(rawValue: id) {
        case .roomSize: roomSize = value / 100
        case .damping: damping = value / 100
        case .width: width = value / 100
        case .mix: mix.target = value / 100
        case nil: break
        }
    }

    func reset() {
        for index in combs.indices { combs[index].clear() }
        for index in allpasses.indices { allpasses[index].clear() }
        mix.snap()
    }

    private var feedback: Float { roomSize * 0.28 + 0.7 }

    /// Until the longest comb's echoes fall by 60 dB.
    var tailTime: Double {
        let longest = Double(Self.combTunings.last! + Self.stereoSpread) * sampleRate / 44_100
        return 3 * longest / (-log10(Double(feedback)) * sampleRate)
    }

    func process(_ block: AudioBlock) {
        guard !combs.isEmpty else { return block.clearOutputs() }
        let inputChannels = block.inputChannelCount(), outputChannels = block.outputChannelCount()
        let feedback = self.feedback, damp = damping * 0.4
        let combCount = Self.combTunings.count, allpassCount = Self.allpassTunings.count
        for frame in 0..<block.frameCount {
            let left = block.input(0)[frame]
            let right = inputChannels > 1 ? block.input(1)[frame] : left
            let input = (left + right) * Self.fixedGain
            var outLeft: Float = 0, outRight: Float = 0
            for index in 0..<combCount {
                outLeft += combs[index].process(input, feedback: feedback, damp: damp)
                outRight += combs[combCount + index].process(input, feedback: feedback, damp: damp)
            }
            for index in 0..<allpassCount {
                outLeft = allpasses[index].process(outLeft)
                outRight = allpasses[allpassCount + index].process(outRight)
            }
            let wet = mix.next() * Self.wetScale
            let wet1 = wet * (width / 2 + 0.5), wet2 = wet * ((1 - width) / 2)
            let dry = 1 - wet / Self.wetScale
            if outputChannels == 1 {
                block.output(0)[frame] = left * dry + (outLeft + outRight) * 0.5 * wet
            } else {
                block.output(0)[frame] = left * dry + outLeft * wet1 + outRight * wet2
                block.output(1)[frame] = right * dry + outRight * wet1 + outLeft * wet2
            }
        }
    }
}

@_cdecl("auhost_plugin_entry") public func auhostPluginEntry() -> UnsafeRawPointer { PluginExport.entry(ReverbUnit.self) }
