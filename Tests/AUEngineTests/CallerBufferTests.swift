import AUCore
import AUEngine
import Testing

/// Reverses each slice in time: output frame f is input frame n-1-f. Run in place (input and
/// output the same memory) it would read frames it already overwrote.
final class SliceReverser: AudioUnit, @unchecked Sendable {
    init() {
        super.init(
            description: effectDescription, name: "Reverser", inputs: [.canonical(channels: 2, name: "Input")],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let input = context.inputs[0], output = context.outputs[0], count = context.frameCount
        for channel in 0..<2 {
            for frame in 0..<count { output[channel][frame] = input[channel][count - 1 - frame] }
        }
        return 0
    }
}

/// Multiplies by 0.5 and remembers the first channel's input and output addresses of its
/// last call (for the tests: whether the graph handed it the application's buffers).
final class AddressRecordingGain: AudioUnit, @unchecked Sendable {
    nonisolated(unsafe) var lastInput: UnsafeMutablePointer<Float>?
    nonisolated(unsafe) var lastOutput: UnsafeMutablePointer<Float>?
    init() {
        super.init(
            description: effectDescription, name: "Recording gain", inputs: [.canonical(channels: 2, name: "Input")],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let input = context.inputs[0], output = context.outputs[0]
        lastInput = input.channelPointers[0]
        lastOutput = output.channelPointers[0]
        for channel in 0..<output.channelCount {
            for frame in 0..<context.frameCount { output[channel][frame] = input[channel][frame] * 0.5 }
        }
        return 0
    }
}

/// A graph reads the application's input and writes its output in place when a cycle is one
/// slice, and copies otherwise; the samples are the same either way (exact: gains of 0.5).
@Suite("The application's buffers")
struct CallerBufferTests {
    /// The application's input, filled with the test signal from `start`, and an output
    /// filled with a sentinel.
    final class Buffers {
        let input: OwnedAudioBuffers
        let output: OwnedAudioBuffers
        init(frames: Int, inputChannels: Int = 2, outputChannels: Int = 2) {
            input = OwnedAudioBuffers(channels: inputChannels, capacity: frames)
            output = OwnedAudioBuffers(channels: outputChannels, capacity: frames)
        }
        func fill(from start: Int) {
            for channel in 0..<input.channelCount {
                for frame in 0..<input.capacity { input.buffers()[channel][frame] = testSignal(start + frame, channel: channel) }
            }
            for channel in 0..<output.channelCount { output.buffers()[channel].update(repeating: 9) }
        }
        func out(_ channel: Int) -> [Float] { Array(output.buffers()[channel]) }
    }

    private func gainGraph(_ unit: AudioUnit) throws -> AudioGraph {
        let graph = AudioGraph(registry: builtinRegistry())
        graph.maximumFramesPerSlice = 64
        let io = try graph.addNode(builtin("auou", "genr"))
        let node = try graph.addNode(unit)
        try graph.connect(io, to: node)
        try graph.connect(node, to: io)
        try graph.initialize()
        return graph
    }

    private func render(_ graph: AudioGraph, _ buffers: Buffers, at start: Int, frames: Int = 64, sameMemory: Bool = false) -> AudioUnitStatus {
        let output = buffers.output.buffers(frameCount: frames)
        return graph.render(
            frameCount: frames, timestamp: RenderTimestamp(sampleTime: Double(start)),
            input: sameMemory ? output : buffers.input.buffers(frameCount: frames), output: output)
    }

    @Test func aCycleOfOneSliceUsesTheCallersBuffersAndFollowsThemWhenTheyMove() throws {
        let unit = AddressRecordingGain()
        let graph = try gainGraph(unit)
        defer { graph.dispose() }
        let first = Buffers(frames: 64), second = Buffers(frames: 64)
        for (cycle, buffers) in [first, first, second, second, first].enumerated() {
            let other = buffers === first ? second : first
            buffers.fill(from: cycle * 64)
            other.fill(from: 0)
            #expect(render(graph, buffers, at: cycle * 64) == 0)
            #expect(unit.lastInput == buffers.input.buffers()[0].baseAddress)
            #expect(unit.lastOutput == buffers.output.buffers()[0].baseAddress)
            for channel in 0..<2 {
                #expect(buffers.out(channel) == (0..<64).map { testSignal(cycle * 64 + $0, channel: channel) * 0.5 })
                #expect(other.out(channel) == Array(repeating: 9, count: 64))
            }
        }
    }

    @Test func anOutputThatIsTheInputIsWrittenOnlyAfterItWasRead() throws {
        let graph = try gainGraph(SliceReverser())
        defer { graph.dispose() }
        let buffers = Buffers(frames: 64)
        for cycle in 0..<3 {
            buffers.fill(from: cycle * 64)
            for channel in 0..<2 { _ = buffers.output.buffers()[channel].update(from: buffers.input.buffers()[channel]) }
            #expect(render(graph, buffers, at: cycle * 64, sameMemory: true) == 0)
            for channel in 0..<2 {
                #expect(buffers.out(channel) == (0..<64).reversed().map { testSignal(cycle * 64 + $0, channel: channel) })
            }
        }
    }

    @Test func longCyclesAndMissingChannelsAreCopied() throws {
        let unit = AddressRecordingGain()
        let graph = try gainGraph(unit)
        defer { graph.dispose() }
        // 256 frames: four slices of 64, copied; then one slice again, in place.
        let long = Buffers(frames: 256), short = Buffers(frames: 64)
        long.fill(from: 0)
        #expect(render(graph, long, at: 0, frames: 256) == 0)
        #expect(unit.lastInput != long.input.buffers()[0].baseAddress! + 192)
        short.fill(from: 256)
        #expect(render(graph, short, at: 256) == 0)
        for channel in 0..<2 {
            #expect(long.out(channel) == (0..<256).map { testSignal($0, channel: channel) * 0.5 })
            #expect(short.out(channel) == (0..<64).map { testSignal(256 + $0, channel: channel) * 0.5 })
        }
        // A mono input and a mono output: the second channel reads silence, and only the
        // first is written.
        let mono = Buffers(frames: 64, inputChannels: 1, outputChannels: 1)
        mono.fill(from: 320)
        #expect(render(graph, mono, at: 320) == 0)
        #expect(mono.out(0) == (0..<64).map { testSignal(320 + $0) * 0.5 })
        #expect(unit.lastInput == mono.input.buffers()[0].baseAddress)
        // Back to stereo: the second channel is the application's again.
        short.fill(from: 384)
        #expect(render(graph, short, at: 384) == 0)
        #expect(short.out(1) == (0..<64).map { testSignal(384 + $0, channel: 1) * 0.5 })
    }
}
