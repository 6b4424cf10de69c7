import AUCore

/// A test fixture: a stereo gain effect (`aufx:tgan:Test`) with a linear `gain`
/// parameter, an indexed `mode`, and an output `peak` meter. Output = input × gain.
final class TestGainUnit: AudioUnit, @unchecked Sendable {
    static let description = ComponentDescription(type: "aufx", subtype: "tgan", manufacturer: "Test")
    static let gain: ParameterID = 0
    static let mode: ParameterID = 1
    static let peak: ParameterID = 2
    private(set) var allocations = 0

    init() {
        super.init(
            description: Self.description, name: "Test Gain",
            inputs: [.canonical(channels: 2, name: "In")], outputs: [.canonical(channels: 2, name: "Out")],
            parameters: [
                ParameterInfo(id: Self.gain, identifier: "gain", name: "Gain", unit: .linearGain, min: 0, max: 4, default: 1),
                ParameterInfo(id: Self.mode, identifier: "mode", name: "Mode", unit: .indexed, min: 0, max: 2, default: 0,
                              valueStrings: ["Clean", "Warm", "Hot"]),
                ParameterInfo(id: Self.peak, identifier: "peak", name: "Peak", unit: .linearGain, min: 0, max: 16, default: 0,
                              flags: [.isReadable, .isOutput]),
            ])
    }

    override func allocateRenderResources() throws(AudioUnitError) { allocations += 1 }

    override var factoryPresets: [UnitPreset] { [UnitPreset(number: 0, name: "Unity"), UnitPreset(number: 1, name: "Double")] }

    override func applyFactoryPreset(_ preset: UnitPreset) throws(AudioUnitError) {
        try setParameter(Self.gain, value: preset.number == 0 ? 1 : 2)
    }

    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let gain = parameters.value(at: 0)
        var peak: Float = 0
        for channel in 0..<context.outputs[0].channelCount {
            let input = context.inputs[0][channel]
            let output = context.outputs[0][channel]
            for frame in 0..<context.frameCount {
                output[frame] = input[frame] * gain
                peak = max(peak, abs(output[frame]))
            }
        }
        setParameterFromRender(at: 2, value: peak)
        return 0
    }
}

/// Renders `frames` frames of a constant 1.0 input through `unit` in one cycle and
/// returns channel 0 of output bus 0.
func renderOnes(_ unit: AudioUnit, frames: Int, sampleTime: Double = 0) -> (status: AudioUnitStatus, samples: [Float]) {
    let input = OwnedAudioBuffers(channels: 2, capacity: frames)
    let output = OwnedAudioBuffers(channels: 2, capacity: frames)
    for channel in 0..<2 { input.buffers()[channel].update(repeating: 1) }
    var inputs = [input.buffers()]
    var outputs = [output.buffers()]
    let status = inputs.withUnsafeMutableBufferPointer { ins in
        outputs.withUnsafeMutableBufferPointer { outs in
            unit.renderCycleFromDriver(
                timestamp: RenderTimestamp(sampleTime: sampleTime), frameCount: frames,
                inputs: UnsafeBufferPointer(ins), outputs: UnsafeBufferPointer(outs), midi: UnsafeBufferPointer(start: nil, count: 0))
        }
    }
    return (status, Array(output.buffers()[0]))
}
