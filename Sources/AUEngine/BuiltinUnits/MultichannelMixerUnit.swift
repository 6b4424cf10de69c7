import AUCore
#if canImport(Glibc)
import Glibc
#endif

/// `aumx:mcmx:AUHs`: the multichannel mixer. Any number of mono or stereo input buses (up
/// to ``maximumInputs``; set ElementCount in the input scope) are mixed into one mono or
/// stereo output bus.
///
/// Parameters, as in Core Audio's multichannel mixer (input scope, element = the bus):
/// volume (0, linear gain), enable (1), pan (2, -1 left … 1 right; equal-power for mono
/// inputs, balance for stereo ones), mute (3), solo (4: when any enabled input is soloed, only
/// soloed inputs play). Output scope, element 0: volume (0); and read-only meters per output
/// channel `c`, in dB like `AudioQueueLevelMeterState`: average power (3000 + c) and peak
/// (4000 + c) of the last render, floored at -120 dB.
/// - Thread: [control] for set-up; ``process(_:)`` on the render thread.
final class MultichannelMixerUnit: AudioUnit, @unchecked Sendable {
    static let maximumInputs = 64
    static let parametersPerInput = 5
    static let volume: ParameterID = 0, enable: ParameterID = 1, pan: ParameterID = 2, mute: ParameterID = 3, solo: ParameterID = 4
    static let averagePower: ParameterID = 3000, peakPower: ParameterID = 4000
    static let meterFloor: Float = -120

    private static let outputVolumeIndex = maximumInputs * parametersPerInput
    /// Index of the first meter parameter: average power of channels 0, 1, then peaks.
    private static let meterIndex = outputVolumeIndex + 1

    init(description: ComponentDescription) {
        var infos: [ParameterInfo] = []
        for element in 0..<Self.maximumInputs {
            infos.append(ParameterInfo(id: Self.volume, identifier: "volume\(element)", name: "Input \(element) Volume", unit: .linearGain, min: 0, max: 4, default: 1, flags: [.isReadable, .isWritable, .canRamp], scope: .input, element: element))
            infos.append(ParameterInfo(id: Self.enable, identifier: "enable\(element)", name: "Input \(element) Enable", unit: .boolean, min: 0, max: 1, default: 1, scope: .input, element: element))
            infos.append(ParameterInfo(id: Self.pan, identifier: "pan\(element)", name: "Input \(element) Pan", unit: .pan, min: -1, max: 1, default: 0, flags: [.isReadable, .isWritable, .canRamp], scope: .input, element: element))
            infos.append(ParameterInfo(id: Self.mute, identifier: "mute\(element)", name: "Input \(element) Mute", unit: .boolean, min: 0, max: 1, default: 0, scope: .input, element: element))
            infos.append(ParameterInfo(id: Self.solo, identifier: "solo\(element)", name: "Input \(element) Solo", unit: .boolean, min: 0, max: 1, default: 0, scope: .input, element: element))
        }
        infos.append(ParameterInfo(id: Self.volume, identifier: "volume", name: "Output Volume", unit: .linearGain, min: 0, max: 4, default: 1, flags: [.isReadable, .isWritable, .canRamp], scope: .output))
        for channel in 0..<2 {
            infos.append(ParameterInfo(id: Self.averagePower + ParameterID(channel), identifier: "averagePower\(channel)", name: "Average Power \(channel)", unit: .decibels, min: Self.meterFloor, max: 20, default: Self.meterFloor, flags: [.isReadable, .isOutput], scope: .output))
        }
        for channel in 0..<2 {
            infos.append(ParameterInfo(id: Self.peakPower + ParameterID(channel), identifier: "peakPower\(channel)", name: "Peak Power \(channel)", unit: .decibels, min: Self.meterFloor, max: 20, default: Self.meterFloor, flags: [.isReadable, .isOutput], scope: .output))
        }
        super.init(
            description: description, name: "Multichannel Mixer",
            inputs: (0..<8).map { .canonical(channels: 2, name: "Input \($0)") },
            outputs: [.canonical(channels: 2, name: "Output")], parameters: infos)
    }

    override func canChangeElementCount(scope: Scope) -> Bool { scope == .input }

    /// Mono or stereo float buses, any sample rate.
    override func validateFormat(_ format: StreamFormat, scope: Scope, element: Element) throws(AudioUnitError) {
        try format.validate()
        guard format.isFloat, !format.isInterleaved, format.bitsPerChannel == 32 else {
            throw AudioUnitError(.formatNotSupported, "\(name): \(scope) bus \(element) renders 32-bit float non-interleaved, not \(format)")
        }
        guard format.channelsPerFrame == 1 || format.channelsPerFrame == 2 else {
            throw AudioUnitError(.formatNotSupported, "\(name): \(scope) bus \(element) takes 1 or 2 channels, not \(format.channelsPerFrame)")
        }
    }

    override func allocateRenderResources() throws(AudioUnitError) {
        guard elementCount(.input) <= Self.maximumInputs else {
            throw AudioUnitError(.failedInitialization, "\(name) mixes at most \(Self.maximumInputs) inputs, not \(elementCount(.input))")
        }
    }

    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let output = context.outputs[0]
        let frames = context.frameCount
        output.clear()
        var anySolo = false
        for bus in 0..<context.inputs.count {
            let base = bus * Self.parametersPerInput
            if parameters.value(at: base + 1) >= 0.5 && parameters.value(at: base + 4) >= 0.5 { anySolo = true }
        }
        for bus in 0..<context.inputs.count {
            let base = bus * Self.parametersPerInput
            let enabled = parameters.value(at: base + 1) >= 0.5
            let muted = parameters.value(at: base + 3) >= 0.5
            let soloed = parameters.value(at: base + 4) >= 0.5
            guard enabled, !muted, !anySolo || soloed else { continue }
            let gain = parameters.value(at: base)
            let pan = parameters.value(at: base + 2)
            let input = context.inputs[bus]
            if output.channelCount == 1 {
                let scale = input.channelCount == 2 ? gain * 0.5 : gain
                for channel in 0..<input.channelCount { accumulate(input.channelPointers[channel], scale, into: output.channelPointers[0], frames) }
            } else if input.channelCount == 1 {
                let angle = (pan + 1) * Float.pi / 4
                accumulate(input.channelPointers[0], gain * cosf(angle), into: output.channelPointers[0], frames)
                accumulate(input.channelPointers[0], gain * sinf(angle), into: output.channelPointers[1], frames)
            } else {
                accumulate(input.channelPointers[0], gain * min(1, 1 - pan), into: output.channelPointers[0], frames)
                accumulate(input.channelPointers[1], gain * min(1, 1 + pan), into: output.channelPointers[1], frames)
            }
        }
        let volume = parameters.value(at: Self.outputVolumeIndex)
        for channel in 0..<output.channelCount {
            let samples = output.channelPointers[channel]
            var peak: Float = 0
            var energy: Float = 0
            for frame in 0..<frames {
                let sample = samples[frame] * volume
                samples[frame] = sample
                peak = max(peak, abs(sample))
                energy += sample * sample
            }
            let average = frames > 0 ? energy / Float(frames) : 0
            setParameterFromRender(at: Self.meterIndex + channel, value: Self.decibels(power: average))
            setParameterFromRender(at: Self.meterIndex + 2 + channel, value: Self.decibels(amplitude: peak))
        }
        return 0
    }

    @inline(__always)
    private func accumulate(_ source: UnsafeMutablePointer<Float>, _ gain: Float, into target: UnsafeMutablePointer<Float>, _ frames: Int) {
        guard gain != 0 else { return }
        for frame in 0..<frames { target[frame] += source[frame] * gain }
    }

    static func decibels(amplitude: Float) -> Float {
        amplitude > 0 ? max(meterFloor, min(20, 20 * log10f(amplitude))) : meterFloor
    }

    static func decibels(power: Float) -> Float {
        power > 0 ? max(meterFloor, min(20, 10 * log10f(power))) : meterFloor
    }
}
