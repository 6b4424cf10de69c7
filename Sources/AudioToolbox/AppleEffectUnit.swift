internal import AUCore

// What Apple's one-in, one-out effects of this library (AUPeakLimiter, the filters) share:
// 32-bit float non-interleaved buses, one input and one output with the same channels and
// rate, which the subclasses learn when render resources are allocated.

/// An effect of one input and one output bus in the engine's format.
/// - Thread: [control] for set-up; the subclass's `process` on the render thread.
class AppleEffectUnit: EngineUnit, @unchecked Sendable {
    /// The rate and channel count the buses agreed on at initialization.
    private(set) var sampleRate: Float = 44_100
    private(set) var channels = 0

    override func validateFormat(_ format: StreamFormat, scope: Scope, element: Element) throws(AudioUnitError) {
        try format.validate()
        guard format.isFloat, !format.isInterleaved, format.bitsPerChannel == 32 else {
            throw AudioUnitError(.formatNotSupported, "\(name) renders 32-bit float non-interleaved, not \(format)")
        }
    }

    override func allocateRenderResources() throws(AudioUnitError) {
        let input = formats(.input)[0], output = formats(.output)[0]
        guard input.channelsPerFrame == output.channelsPerFrame, input.sampleRate == output.sampleRate else {
            throw AudioUnitError(.formatNotSupported, "\(name): input (\(input)) and output (\(output)) must have the same channels and sample rate")
        }
        sampleRate = Float(input.sampleRate)
        channels = input.channelsPerFrame
        try prepare()
    }

    /// The subclass's own render resources, made once the formats are known.
    func prepare() throws(AudioUnitError) {}
}
