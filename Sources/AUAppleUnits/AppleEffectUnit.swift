import Foundation
import AUCore

// What Apple's one-in, one-out effects of this library (AUPeakLimiter, the filters, AUDelay,
// AUReverb2, AUDynamicsProcessor, AUNBandEQ) share: 32-bit float non-interleaved buses, one
// input and one output with the same channels and rate, which the subclasses learn when
// render resources are allocated, and one block of render state (delay lines, filter
// histories) the size the subclass asks for, allocated then, zeroed by a reset.

/// An effect of one input and one output bus in the engine's format.
/// - Thread: [control] for set-up; the subclass's `process` on the render thread.
class AppleEffectUnit: AudioUnit, @unchecked Sendable {
    /// The rate and channel count the buses agreed on at initialization.
    private(set) var sampleRate: Float = 44_100
    private(set) var channels = 0
    /// The subclass's render state, ``stateSize()`` floats, zero after initialization and reset.
    private(set) var renderState = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    private var stateCount = 0

    /// A stereo effect (the buses take any channel count, the same in and out).
    init(description: ComponentDescription, name: String, parameters: [ParameterInfo]) {
        super.init(description: description, name: name, inputs: [.canonical(channels: 2, name: "Input")],
                   outputs: [.canonical(channels: 2, name: "Output")], parameters: parameters)
    }

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
        renderState.deallocate()
        stateCount = stateSize()
        renderState = UnsafeMutablePointer<Float>.allocate(capacity: stateCount)
        renderState.initialize(repeating: 0, count: stateCount)
        try prepare()
    }

    override func deallocateRenderResources() {
        renderState.deallocate()
        renderState = UnsafeMutablePointer<Float>.allocate(capacity: 0)
        stateCount = 0
    }

    override func resetState() { renderState.update(repeating: 0, count: stateCount) }

    deinit { renderState.deallocate() }

    /// How many floats of render state the subclass needs at ``sampleRate`` with ``channels``.
    func stateSize() -> Int { 0 }

    /// A one-pole coefficient reaching 1 − 1/e of the way in `seconds` (at least 0.1 ms).
    func onePoleCoefficient(_ seconds: Float) -> Float { 1 - expf(-1 / (max(seconds, 0.0001) * sampleRate)) }

    /// The subclass's own preparation, once the formats are known and the state is zero.
    func prepare() throws(AudioUnitError) {}
}
