import AUCore

/// A mono test unit: ×`gain`, delayed by `delay` frames, which it reports as its latency.
/// - Thread: control for set-up; ``process(_:)`` on the render thread.
final class GainDelayUnit: AudioUnit, @unchecked Sendable {
    private let gain: Float
    private let delay: Int
    private let history: UnsafeMutableBufferPointer<Float>
    private var write = 0

    init(gain: Float, delay: Int) {
        self.gain = gain
        self.delay = delay
        history = .allocate(capacity: delay + 1)
        history.initialize(repeating: 0)
        super.init(
            description: ComponentDescription(type: ComponentType.effect, subtype: "gdly", manufacturer: "Test"), name: "Gain and delay",
            inputs: [.canonical(channels: 1, name: "Input")], outputs: [.canonical(channels: 1, name: "Output")], parameters: [])
    }

    deinit { history.deallocate() }

    override var latency: Double { Double(delay) / 48_000 }

    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let input = context.inputs[0][0], output = context.outputs[0][0]
        for frame in 0..<context.frameCount {
            history[write] = input[frame]
            write = (write + 1) % history.count
            output[frame] = history[write] * gain
        }
        return 0
    }
}
