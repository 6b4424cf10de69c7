import AUCore

/// `aufx:splt:AUHs`: copies its one input bus to each of its output buses (fan-out with
/// independent buffers). The number of outputs (ElementCount, output scope) can be set.
/// - Thread: [control] for set-up; ``process(_:)`` on the render thread.
final class SplitterUnit: AudioUnit, @unchecked Sendable {
    init(description: ComponentDescription) {
        super.init(
            description: description, name: "Splitter", inputs: [.canonical(channels: 2, name: "Input")],
            outputs: [.canonical(channels: 2, name: "Output 1"), .canonical(channels: 2, name: "Output 2")], parameters: [])
    }

    override func canChangeElementCount(scope: Scope) -> Bool { scope == .output }

    /// Any channel count, as long as the input and every output agree.
    override func validateFormat(_ format: StreamFormat, scope: Scope, element: Element) throws(AudioUnitError) {
        try format.validate()
        guard format.isFloat, !format.isInterleaved, format.bitsPerChannel == 32 else {
            throw AudioUnitError(.formatNotSupported, "Splitter renders 32-bit float non-interleaved, not \(format)")
        }
    }

    override func allocateRenderResources() throws(AudioUnitError) {
        let input = try busConfiguration(scope: .input, element: 0).format
        for (element, format) in formats(.output).enumerated() where format.channelsPerFrame != input.channelsPerFrame || format.sampleRate != input.sampleRate {
            throw AudioUnitError(.formatNotSupported, "Splitter: output \(element) (\(format)) does not match the input (\(input))")
        }
    }

    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let input = context.inputs[0]
        for output in context.outputs { output.copy(from: input) }
        return 0
    }
}
