import AUCore
import AUEngine
import Foundation
import Testing

/// A sine of `frequency` Hz at `sampleRate`, `frames` long.
func sine(_ frequency: Double, sampleRate: Double, frames: Int, amplitude: Float = 0.5) -> [Float] {
    (0..<frames).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / sampleRate)) }
}

func rms(_ samples: ArraySlice<Float>) -> Float {
    (samples.reduce(Float(0)) { $0 + $1 * $1 } / Float(max(1, samples.count))).squareRoot()
}

/// Renders `signal` (mono, copied to every input channel) through a graph `callback -> unit -> output`.
func renderThrough(_ unit: AudioUnit, signal: [Float], block: Int = 256, configure: (AudioGraph, GraphNode) throws -> Void = { _, _ in }) throws -> [[Float]] {
    let graph = AudioGraph(registry: builtinRegistry())
    defer { graph.dispose() }
    let node = try graph.addNode(unit)
    let output = try graph.addNode(builtin("auou", "genr"))
    try graph.connect(node, to: output)
    let samples = signal
    try graph.setInputCallback(RenderCallback { _, timestamp, _, buffers in
        let start = Int(timestamp.sampleTime)
        for channel in 0..<buffers.channelCount {
            for frame in 0..<buffers.frameCount { buffers[channel][frame] = start + frame < samples.count ? samples[start + frame] : 0 }
        }
        return 0
    }, for: node)
    try configure(graph, node)
    try graph.initialize()
    let channels = graph.outputFormat?.channelsPerFrame ?? 2
    return renderFrames(graph, total: signal.count, block: block, channels: channels)
}

@Suite("Built-in units")
struct BuiltinUnitTests {
    @Test("the catalog lists every built-in unit under manufacturer AUHs")
    func catalog() {
        let registry = builtinRegistry()
        for code in ["aufx:splt:AUHs", "aumx:mcmx:AUHs", "aufc:conv:AUHs", "auou:genr:AUHs", "aufx:ipeq:AUHs"] {
            #expect(registry.count(matching: ComponentDescription(parsing: code)!) == 1, "\(code)")
        }
    }

    @Test("mixer: gain, pan law, mute, solo, enable, output volume and meters in dB")
    func mixer() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        let a = try graph.addNode(SignalSource(name: "A", channels: 1))
        let b = try graph.addNode(ConstantSource())
        let mixer = try graph.addNode(builtin("aumx", "mcmx"))
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.connect(a, to: mixer, input: 0)
        try graph.connect(b, to: mixer, input: 1)
        try graph.connect(mixer, to: output)
        try graph.initialize()
        let unit = try graph.unit(of: mixer)
        func set(_ id: ParameterID, _ value: Float, input: Int? = nil) throws {
            try graph.scheduleParameter(mixer, ParameterAddress(id, scope: input == nil ? .output : .input, element: input ?? 0), value: value)
        }
        // Mono input A panned hard right at gain 0.5; stereo constant B at 0.25.
        try set(2, 1, input: 0)
        try set(0, 0.5, input: 0)
        try set(0, 0.25, input: 1)
        var out = renderFrames(graph, total: 256, block: 256)
        #expect(maxDifference(out[0], Array(repeating: 0.25, count: 256)) <= 1e-6)
        let rightA = (0..<256).map { testSignal($0) * 0.5 * Float(sin(Double.pi / 2)) + 0.25 }
        #expect(maxDifference(out[1], rightA) <= 1e-6)
        // Solo B: only B plays; then mute B while soloed: silence; unsolo/unmute, disable A.
        try set(4, 1, input: 1)
        out = renderFrames(graph, total: 256, block: 256, startTime: 256)
        #expect(out[1].allSatisfy { abs($0 - 0.25) <= 1e-6 })
        try set(3, 1, input: 1)
        out = renderFrames(graph, total: 256, block: 256, startTime: 512)
        #expect(out[0].allSatisfy { $0 == 0 } && out[1].allSatisfy { $0 == 0 })
        try set(3, 0, input: 1)
        try set(4, 0, input: 1)
        try set(1, 0, input: 0)
        try set(0, 2)
        out = renderFrames(graph, total: 256, block: 256, startTime: 768)
        #expect(out[1].allSatisfy { abs($0 - 0.5) <= 1e-6 })
        // Meters: a constant 0.5 on both channels is -6.02 dB peak and average.
        graph.dispatchPendingNotifications()
        #expect(abs(try unit.parameterValue(4000, scope: .output) - 20 * log10f(0.5)) < 0.01)
        #expect(abs(try unit.parameterValue(3001, scope: .output) - 20 * log10f(0.5)) < 0.01)
        // Silence floors the meters at -120 dB.
        try set(0, 0)
        _ = renderFrames(graph, total: 256, block: 256, startTime: 1024)
        #expect(try unit.parameterValue(4001, scope: .output) == -120)
        // A stereo input's pan is a balance: the far side at 1 - |pan|, the near side whole.
        try set(0, 1)
        for (pan, left, right) in [(Float(-0.5), Float(0.25), Float(0.125)), (0.5, 0.125, 0.25)] {
            try set(2, pan, input: 1)
            out = renderFrames(graph, total: 256, block: 256, startTime: 1280)
            #expect(maxDifference(out[0], Array(repeating: left, count: 256)) <= 1e-6 && maxDifference(out[1], Array(repeating: right, count: 256)) <= 1e-6, "pan \(pan)")
        }
    }

    @Test("iPod EQ: Apple's preset order; Disabled and Flat are exact pass-through; Bass Booster lifts lows; Treble Reducer cuts highs")
    func equalizer() throws {
        let registry = builtinRegistry()
        let eq = try registry.instantiate("aufx:ipeq:AUHs")
        let presets = try eq.value(of: .factoryPresets)
        #expect(presets.map(\.name) == [
            "Disabled", "Acoustic", "Bass Booster", "Bass Reducer", "Classical", "Dance", "Deep", "Electronic", "Flat", "Hip-Hop", "Jazz",
            "Latin", "Loudness", "Lounge", "Piano", "Pop", "R&B", "Rock", "Small Speakers", "Spoken Word", "Treble Booster",
            "Treble Reducer", "Vocal Booster",
        ])
        #expect(presets.map(\.number) == Array(0..<23))
        let rate = 48_000.0
        let low = sine(40, sampleRate: rate, frames: 48_000), high = sine(16_000, sampleRate: rate, frames: 48_000)
        func gain(_ preset: String, _ signal: [Float]) throws -> Float {
            let unit = try registry.instantiate("aufx:ipeq:AUHs")
            let number = presets.first { $0.name == preset }!.number
            try unit.setValue(UnitPreset(number: number, name: preset), for: .presentPreset)
            let out = try renderThrough(unit, signal: signal)
            return 20 * log10f(rms(out[0][24_000...]) / rms(signal[24_000...]))
        }
        let flat = try renderThrough(try registry.instantiate("aufx:ipeq:AUHs"), signal: low)
        #expect(flat[0] == low && flat[1] == low)
        #expect(try gain("Disabled", low) == 0 && gain("Flat", high) == 0)
        #expect(try gain("Bass Booster", low) > 4)
        #expect(abs(try gain("Bass Booster", high)) < 0.5)
        #expect(try gain("Treble Reducer", high) < -4)
        #expect(abs(try gain("Treble Reducer", low)) < 0.5)
    }

    @Test("converter in a graph: mono up-mixed to stereo, stereo down-mixed to mono")
    func converterChannels() throws {
        let registry = builtinRegistry()
        let up = try registry.instantiate("aufc:conv:AUHs")
        try up.setValue(StreamFormat.canonical(sampleRate: 48_000, channels: 1), for: .streamFormat, scope: .input)
        let graph = AudioGraph(registry: registry)
        defer { graph.dispose() }
        let mono = try graph.addNode(SignalSource(name: "Mono", channels: 1))
        let converter = try graph.addNode(up)
        let down = try graph.addNode(builtin("aufc", "conv"), name: "Down")
        let gain = try graph.addNode(GainUnit(gain: 1, channels: 2))
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.open()
        try graph.unit(of: down).setValue(StreamFormat.canonical(sampleRate: 48_000, channels: 1), for: .streamFormat, scope: .output)
        try graph.connect(mono, to: converter)
        try graph.connect(converter, to: gain)
        try graph.connect(gain, to: down)
        try graph.connect(down, to: output)
        try graph.initialize()
        #expect(graph.outputFormat?.channelsPerFrame == 1)
        let out = renderFrames(graph, total: 1000, block: 100, channels: 1)
        #expect(maxDifference(out[0], (0..<1000).map { testSignal($0) }) <= 1e-6)
    }

    @Test("converter at the edge: int16 interleaved and 8.24 fixed point to float and back, exact")
    func converterSampleFormats() throws {
        let registry = builtinRegistry()
        let toFloat = try registry.instantiate("aufc:conv:AUHs") as! FormatConverterUnit
        try toFloat.setValue(StreamFormat.int16Interleaved(sampleRate: 48_000, channels: 2), for: .streamFormat, scope: .input)
        try toFloat.setValue(StreamFormat.fixed824(sampleRate: 48_000, channels: 2), for: .streamFormat, scope: .output)
        try toFloat.initialize()
        let frames = 1000
        var int16: [Int16] = (0..<frames * 2).map { Int16(truncatingIfNeeded: $0 &* 977) }
        var leftFixed = [Int32](repeating: 0, count: frames), rightFixed = [Int32](repeating: 0, count: frames)
        let result = int16.withUnsafeMutableBytes { raw in
            leftFixed.withUnsafeMutableBytes { left in
                rightFixed.withUnsafeMutableBytes { right in
                    let inputs = [UnsafeRawPointer(raw.baseAddress!)]
                    let outputs = [left.baseAddress!, right.baseAddress!]
                    return inputs.withUnsafeBufferPointer { i in outputs.withUnsafeBufferPointer { o in toFloat.convert(i, frameCount: frames, into: o, capacity: frames) } }
                }
            }
        }
        #expect(result == FormatConverterUnit.Conversion(consumed: frames, produced: frames))
        // 8.24: an int16 value v is v / 32768 of full scale, i.e. v << 9 in 8.24.
        for frame in 0..<frames {
            #expect(leftFixed[frame] == Int32(int16[frame * 2]) << 9)
            #expect(rightFixed[frame] == Int32(int16[frame * 2 + 1]) << 9)
        }
        toFloat.dispose()
    }

    @Test("a converter asked to change the sample rate is refused when initialized: it does not resample")
    func converterRefusesTwoRates() throws {
        let unit = try builtinRegistry().instantiate("aufc:conv:AUHs")
        defer { unit.dispose() }
        try unit.setValue(StreamFormat.int16Interleaved(sampleRate: 44_100, channels: 1), for: .streamFormat, scope: .input)
        try unit.setValue(StreamFormat.canonical(sampleRate: 48_000, channels: 1), for: .streamFormat, scope: .output)
        let error = try #require(throws: AudioUnitError.self) { try unit.initialize() }
        #expect(error.code == .formatNotSupported && error.message.contains("converts 44100.0 Hz to 48000.0 Hz"), "\(error.message)")
    }

    @Test("a rate-changing converter inside a graph is refused with the reason")
    func converterRateInGraph() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        let source = try graph.addNode(SignalSource(sampleRate: 44_100))
        let converter = try graph.addNode(builtin("aufc", "conv"))
        try graph.open()
        try graph.unit(of: converter).setValue(StreamFormat.canonical(sampleRate: 48_000, channels: 2), for: .streamFormat, scope: .output)
        try graph.connect(source, to: converter)
        let error = try #require(throws: AudioUnitError.self) { try graph.initialize() }
        #expect(error.message.contains("converts 44100 Hz to 48000 Hz"))
    }
}

extension Double {
    var float: Float { Float(self) }
}
