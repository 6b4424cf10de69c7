import AUCore

/// `auou:genr:AUHs`: the generic output unit. In a graph it is the output node that the
/// application pulls (``AudioGraph/render(frameCount:timestamp:input:output:)``): its input
/// bus 0 is what the application receives, its output bus 0 carries what the application
/// passes in. Any canonical format is accepted on either bus (the graph sets the input's from
/// its source). Rendered on its own, it copies its input to its output.
/// Subclassed for other output units that pass audio through the same way (the
/// AudioToolbox layer's paced file and null devices).
/// - Thread: [control] for set-up; ``process(_:)`` on the render thread.
open class GenericOutputUnit: AudioUnit, @unchecked Sendable {
    /// A pass-through output unit named `name`, its two stereo buses named `application`
    /// ("To application", "From application"), at `sampleRate` until a format is set.
    /// - Thread: [control]
    public init(description: ComponentDescription, name: String = "Generic Output", application: String = "application", sampleRate: Double = 48_000) {
        super.init(
            description: description, name: name, inputs: [.canonical(channels: 2, sampleRate: sampleRate, name: "To \(application)")],
            outputs: [.canonical(channels: 2, sampleRate: sampleRate, name: "From \(application)")], parameters: [])
    }

    /// 32-bit float, non-interleaved, any channel count and rate.
    /// - Thread: [control]
    override open func validateFormat(_ format: StreamFormat, scope: Scope, element: Element) throws(AudioUnitError) {
        try format.validate()
        guard format.isFloat, !format.isInterleaved, format.bitsPerChannel == 32 else {
            throw AudioUnitError(.formatNotSupported, "\(name) renders 32-bit float non-interleaved, not \(format)")
        }
    }

    /// Copies the input to the output.
    /// - Thread: [render]
    override open func process(_ context: ProcessContext) -> AudioUnitStatus {
        context.outputs[0].copy(from: context.inputs[0])
        return 0
    }
}
