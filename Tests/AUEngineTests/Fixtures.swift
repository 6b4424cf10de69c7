import AUCore
import AUEngine

// Test-only units: each does one known thing so that graph output can be predicted exactly.

/// The test signal: a deterministic value per sample time, distinct from its neighbours,
/// exactly reproducible (the same float expression in the unit and in the expectations).
func testSignal(_ sampleTime: Int, channel: Int = 0) -> Float {
    Float((sampleTime &* 7919 &+ channel &* 104_729) % 1000) / 1000 - 0.5
}

let effectDescription = ComponentDescription(type: "aufx", subtype: "test", manufacturer: "Test")

/// A generator: writes ``testSignal(_:channel:)`` at the cycle's sample time (times `scale`).
final class SignalSource: AudioUnit, @unchecked Sendable {
    let scale: Float
    init(name: String = "Source", channels: Int = 2, sampleRate: Double = 48_000, scale: Float = 1) {
        self.scale = scale
        super.init(
            description: ComponentDescription(type: "augn", subtype: "sigl", manufacturer: "Test"), name: name, inputs: [],
            outputs: [.canonical(channels: channels, sampleRate: sampleRate, name: "Output")], parameters: [])
    }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let start = Int(context.timestamp.sampleTime)
        let output = context.outputs[0]
        for channel in 0..<output.channelCount {
            let samples = output[channel]
            for frame in 0..<context.frameCount { samples[frame] = testSignal(start + frame, channel: channel) * scale }
        }
        return 0
    }
}

/// A constant (DC) generator of 1.0, for parameter timing.
final class ConstantSource: AudioUnit, @unchecked Sendable {
    init() {
        super.init(
            description: ComponentDescription(type: "augn", subtype: "cnst", manufacturer: "Test"), name: "One", inputs: [],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let output = context.outputs[0]
        for channel in 0..<output.channelCount { output[channel].update(repeating: 1) }
        return 0
    }
}

/// Multiplies by its parameter 0 (`gain`).
final class GainUnit: AudioUnit, @unchecked Sendable {
    init(name: String = "Gain", gain: Float = 1, channels: Int = 2) {
        super.init(
            description: effectDescription, name: name, inputs: [.canonical(channels: channels, name: "Input")],
            outputs: [.canonical(channels: channels, name: "Output")],
            parameters: [ParameterInfo(id: 0, identifier: "gain", name: "Gain", unit: .linearGain, min: 0, max: 4, default: gain)])
    }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let gain = parameters.value(at: 0)
        let inputs = context.inputs[0], outputs = context.outputs[0]
        for channel in 0..<outputs.channelCount {
            let input = inputs[channel], output = outputs[channel]
            for frame in 0..<context.frameCount { output[frame] = input[frame] * gain }
        }
        return 0
    }
}

/// Delays its input by `frames` frames and reports that latency.
final class LatencyUnit: AudioUnit, @unchecked Sendable {
    let frames: Int
    private var line: [Float] = []
    private var position = 0
    init(name: String = "Latency", frames: Int) {
        self.frames = frames
        super.init(
            description: effectDescription, name: name, inputs: [.canonical(channels: 2, name: "Input")],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }
    override var latency: Double { Double(frames) / formats(.output)[0].sampleRate }
    override func allocateRenderResources() throws(AudioUnitError) {
        line = Array(repeating: 0, count: max(1, frames) * 2)
        position = 0
    }
    override func resetState() { for index in line.indices { line[index] = 0 } }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let input = context.inputs[0], output = context.outputs[0]
        guard frames > 0 else {
            output.copy(from: input)
            return 0
        }
        line.withUnsafeMutableBufferPointer { line in
            for frame in 0..<context.frameCount {
                for channel in 0..<2 {
                    let slot = position * 2 + channel
                    let delayed = line[slot]
                    line[slot] = input[channel][frame]
                    output[channel][frame] = delayed
                }
                position = (position + 1) % frames
            }
        }
        return 0
    }
}

/// Passes audio through until sample time `failAt`, then writes NaN.
final class NaNUnit: AudioUnit, @unchecked Sendable {
    let failAt: Int
    init(failAt: Int) {
        self.failAt = failAt
        super.init(
            description: effectDescription, name: "Faulty", inputs: [.canonical(channels: 2, name: "Input")],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let start = Int(context.timestamp.sampleTime)
        let input = context.inputs[0], output = context.outputs[0]
        for channel in 0..<2 {
            for frame in 0..<context.frameCount {
                output[channel][frame] = start + frame >= failAt ? .nan : input[channel][frame]
            }
        }
        return 0
    }
}

/// Passes audio through and records every frame count it was asked for.
final class BlockRecordingUnit: AudioUnit, BlockSizeConstrained, @unchecked Sendable {
    let blockSizeRequirement: BlockSizeRequirement
    /// Preallocated: the render thread only writes into it.
    private(set) var seen: [Int] = Array(repeating: 0, count: 100_000)
    private(set) var seenCount = 0
    init(requirement: BlockSizeRequirement) {
        blockSizeRequirement = requirement
        super.init(
            description: effectDescription, name: "Block \(requirement)", inputs: [.canonical(channels: 2, name: "Input")],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }
    var frameCounts: ArraySlice<Int> { seen[0..<seenCount] }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        if seenCount < seen.count {
            seen[seenCount] = context.frameCount
            seenCount += 1
        }
        context.outputs[0].copy(from: context.inputs[0])
        return 0
    }
}

/// A registry with the built-in units.
func builtinRegistry() -> ComponentRegistry { ComponentRegistry(providers: [BuiltinUnits()]) }

func builtin(_ type: FourCharCode, _ subtype: FourCharCode) -> ComponentDescription {
    ComponentDescription(type: type, subtype: subtype, manufacturer: BuiltinUnits.manufacturer)
}

/// Renders `total` frames in cycles of `block` frames and returns each output channel.
func renderFrames(_ graph: AudioGraph, total: Int, block: Int, channels: Int = 2, startTime: Int = 0) -> [[Float]] {
    let buffers = OwnedAudioBuffers(channels: channels, capacity: block)
    var result = Array(repeating: [Float](), count: channels)
    var done = 0
    while done < total {
        let frames = min(block, total - done)
        let status = graph.render(frameCount: frames, timestamp: RenderTimestamp(sampleTime: Double(startTime + done)), output: buffers.buffers(frameCount: frames))
        precondition(status == 0, "render failed: \(status)")
        for channel in 0..<channels { result[channel] += buffers.buffers(frameCount: frames)[channel] }
        done += frames
    }
    return result
}

/// The largest difference between two signals (infinity when lengths differ).
func maxDifference(_ a: [Float], _ b: [Float]) -> Float {
    guard a.count == b.count else { return .infinity }
    return zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
}

/// Fails every render with a status from sample time `failAt` on.
final class FailingUnit: AudioUnit, @unchecked Sendable {
    let failAt: Int
    init(failAt: Int) {
        self.failAt = failAt
        super.init(
            description: effectDescription, name: "Failing", inputs: [.canonical(channels: 2, name: "Input")],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        if Int(context.timestamp.sampleTime) >= failAt { return AudioUnitErrorCode.noConnection.rawValue }
        context.outputs[0].copy(from: context.inputs[0])
        return 0
    }
}

/// source → splitter → `slow` → mixer 0; splitter → mixer 1 → generic output, slices of at
/// most 256 frames, not yet initialized: the diamond the latency tests compensate.
func latencyDiamond(_ slow: AudioUnit) throws -> (graph: AudioGraph, splitter: GraphNode, slow: GraphNode, mixer: GraphNode) {
    let graph = AudioGraph(registry: builtinRegistry())
    graph.maximumFramesPerSlice = 256
    let source = try graph.addNode(SignalSource())
    let splitter = try graph.addNode(builtin("aufx", "splt"))
    let slowNode = try graph.addNode(slow)
    let mixer = try graph.addNode(builtin("aumx", "mcmx"))
    let output = try graph.addNode(builtin("auou", "genr"))
    try graph.connect(source, to: splitter)
    try graph.connect(splitter, output: 0, to: slowNode)
    try graph.connect(slowNode, to: mixer, input: 0)
    try graph.connect(splitter, output: 1, to: mixer, input: 1)
    try graph.connect(mixer, to: output)
    return (graph, splitter, slowNode, mixer)
}
