import AUCore
import AUEngine
import Foundation
import Synchronization

/// The one node of a live rig's graph (``LiveChain``): it renders the chain that plays and,
/// when the control side hands it another (``switchTo(_:crossfadeFrames:)``), renders both
/// side by side through an equal-power crossfade, then keeps only the new one and hands the
/// old one back (``takeRetired()``) to be freed off the render thread. The JACK client, its
/// ports and their connections are the rig's: they stay as they are across switches.
///
/// The hand-over is three words: the control side publishes the incoming chain in one
/// slot, the render thread takes it at the top of a cycle, and after the fade's last frame
/// puts the old chain in another slot; one switch runs at a time.
/// - Thread: [render] for `process`; [control] for the rest.
final class ChainSwitchUnit: AudioUnit, @unchecked Sendable {
    /// `aufx:swch:AUHs`.
    static let componentDescription = ComponentDescription(type: ComponentType.effect, subtype: "swch", manufacturer: "AUHs")

    /// What only the render thread reads and writes.
    private struct RenderState {
        var current: Unmanaged<PlayingChain>?
        var incoming: Unmanaged<PlayingChain>?
        /// Frames of the crossfade done, and its length.
        var position = 0
        var length = 1
    }

    private let takesMIDI: Bool
    private let sendsMIDI: Bool
    private let renderState: UnsafeMutablePointer<RenderState>
    /// The chain the control side hands over, and the crossfade's length in frames.
    private let incoming = RenderSlot<PlayingChain>()
    private let incomingFrames = Atomic<Int>(1)
    /// The chain a finished crossfade left behind.
    private let retired = RenderSlot<PlayingChain>()
    /// Crossfades finished.
    let switches = Atomic<Int>(0)

    /// A switch playing `first`, with `captureChannels` inputs and `playbackChannels` outputs
    /// (the rig's ports); it takes the rig's MIDI input and sends to its MIDI output when asked.
    /// - Thread: [control]
    init(first: PlayingChain, captureChannels: Int, playbackChannels: Int, sampleRate: Double, takesMIDI: Bool, sendsMIDI: Bool) {
        self.takesMIDI = takesMIDI
        self.sendsMIDI = sendsMIDI
        renderState = .allocate(capacity: 1)
        renderState.initialize(to: RenderState(current: Unmanaged.passUnretained(first)))
        super.init(
            description: Self.componentDescription, name: "Chain switch",
            inputs: [.canonical(channels: captureChannels, sampleRate: sampleRate, name: "Capture")],
            outputs: [.canonical(channels: playbackChannels, sampleRate: sampleRate, name: "Playback")], parameters: [])
    }

    deinit { renderState.deallocate() }

    /// - Thread: [control]
    override var acceptsMIDIInput: Bool { takesMIDI }
    /// - Thread: [control]
    override var producesMIDIOutput: Bool { sendsMIDI }
    /// The chains read the host's transport: the rig's graph is never pipelined.
    /// - Thread: [control]
    override var followsHostTransport: Bool { true }

    /// Hands `chain` (built, initialized and started) to the render thread, which crossfades
    /// to it over `crossfadeFrames` from its next cycle. False while another switch is
    /// under way (nothing is handed over then).
    /// - Thread: [control]
    func switchTo(_ chain: PlayingChain, crossfadeFrames: Int) -> Bool {
        guard incoming.isEmpty, retired.isEmpty else { return false }
        incomingFrames.store(max(1, crossfadeFrames), ordering: .relaxed)
        _ = incoming.exchange(Unmanaged.passUnretained(chain))
        return true
    }

    /// The chain a finished crossfade left, now rendered no more; nil while none.
    /// - Thread: [control]
    func takeRetired() -> PlayingChain? {
        retired.exchange(nil)?.takeUnretainedValue()
    }


    /// The playing chain, then the incoming one through the crossfade: `gain(x)` for the
    /// old is cos(x·π/2), for the new sin(x·π/2) (their powers add to one).
    /// - Thread: [render] No allocation, no lock, no retain.
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let capture = context.inputs[0], playback = context.outputs[0]
        let frames = context.frameCount
        if renderState.pointee.incoming == nil, !incoming.isEmpty, retired.isEmpty {
            renderState.pointee.incoming = incoming.exchange(nil)
            renderState.pointee.position = 0
            renderState.pointee.length = incomingFrames.load(ordering: .relaxed)
        }
        guard let current = renderState.pointee.current else {
            playback.clear()
            return 0
        }
        let transport = currentTransport
        let status = current._withUnsafeGuaranteedRef { chain in
            let status = chain.render(capture: capture, frameCount: frames, timestamp: context.timestamp, midi: context.midiEvents, transport: transport)
            if sendsMIDI { for event in chain.midiOutput { context.sendMIDI(event) } }
            return status
        }
        guard let next = renderState.pointee.incoming else {
            current._withUnsafeGuaranteedRef { $0.mix(into: playback, gain: { _ in 1 }, adding: false) }
            return status
        }
        let position = renderState.pointee.position, length = renderState.pointee.length
        _ = next._withUnsafeGuaranteedRef { chain in
            chain.render(capture: capture, frameCount: frames, timestamp: context.timestamp, midi: context.midiEvents, transport: transport)
        }
        @inline(__always) func fraction(_ frame: Int) -> Float { Float(min(length, position + frame)) / Float(length) }
        current._withUnsafeGuaranteedRef { $0.mix(into: playback, gain: { cos(fraction($0) * .pi / 2) }, adding: false) }
        next._withUnsafeGuaranteedRef { $0.mix(into: playback, gain: { sin(fraction($0) * .pi / 2) }, adding: true) }
        renderState.pointee.position = position + frames
        if position + frames >= length {
            renderState.pointee.current = next
            renderState.pointee.incoming = nil
            _ = retired.exchange(current)
            switches.add(1, ordering: .relaxed)
        }
        return status
    }
}
