import AUCore

/// `auou:genr:AUHs`: the generic output unit. In a graph it is the output node that the
/// application pulls (``AudioGraph/render(frameCount:timestamp:input:output:)``): its input
/// bus 0 is what the application receives, its output bus 0 carries what the application
/// passes in. Any canonical format is accepted on either bus (the graph sets the input's from
/// its source). Rendered on its own, it copies its input to its output.
/// - Thread: [control] for set-up; ``process(_:)`` on the render thread.
final class GenericOutputUnit: AudioUnit, @unchecked Sendable {
    init(description: ComponentDescription) {
        super.init(
            description: description, name: "Generic Output", inputs: [.canonical(channels: 2, name: "To application")],
            outputs: [.canonical(channels: 2, name: "From application")], parameters: [])
    }

    override func validateFormat(_ format: StreamFormat, scope: Scope, element: Element) throws(AudioUnitError) {
        try format.validate()
        guard format.isFloat, !format.isInterleaved, format.bitsPerChannel == 32 else {
            throw AudioUnitError(.formatNotSupported, "Generic Output renders 32-bit float non-interleaved, not \(format)")
        }
    }

    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        context.outputs[0].copy(from: context.inputs[0])
        return 0
    }
}
