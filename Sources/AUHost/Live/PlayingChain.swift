import AUCore
import AUEngine

/// A chain as the rig's ``ChainSwitchUnit`` renders it: unretained references to its graph
/// and transport, and buffers of its own for the graph's input and output, all made on the
/// control thread before the chain is published. The rig's ports need not match the chain:
/// its input channel N reads the rig's capture channel N (the last one serves any extra),
/// and ``mix(into:gain:adding:)`` plays output channel N on port N (the chain's last channel
/// serves any extra port; channels beyond the ports are not played).
/// - Thread: [control] to make and free; [render] for ``render(capture:frameCount:timestamp:midi:transport:)``
///   and ``mix(into:gain:adding:)``.
final class PlayingChain: @unchecked Sendable {
    /// The chain, kept alive while the switch may render it.
    let chain: ChainGraph
    private let graph: Unmanaged<AudioGraph>
    private let transport: Unmanaged<HostTransport>
    private let input: OwnedAudioBuffers
    private let output: OwnedAudioBuffers
    private let inputPointers: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    private let outputPointers: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>

    /// Buffers for `chain` of up to `maximumFrames` frames a cycle.
    /// - Thread: [control]
    init(_ chain: ChainGraph, maximumFrames: Int) {
        self.chain = chain
        graph = Unmanaged.passUnretained(chain.graph)
        transport = Unmanaged.passUnretained(chain.transport)
        input = OwnedAudioBuffers(channels: chain.inputChannels, capacity: maximumFrames)
        output = OwnedAudioBuffers(channels: chain.outputChannels, capacity: maximumFrames)
        inputPointers = input.buffers().channelPointers
        outputPointers = output.buffers().channelPointers
    }

    /// Renders one cycle of the chain from the rig's `capture` into its own output buffer,
    /// with the rig's MIDI and transport; returns the graph's status.
    /// - Thread: [render] No allocation, no lock, no retain.
    @inline(__always)
    func render(
        capture: AudioBuffers, frameCount: Int, timestamp: RenderTimestamp, midi: UnsafeBufferPointer<MIDIEvent>, transport state: TransportState?
    ) -> AudioUnitStatus {
        let captured = capture.channelCount
        for channel in 0..<inputPointers.count {
            if captured > 0 {
                inputPointers[channel].update(from: capture.channelPointers[min(channel, captured - 1)], count: frameCount)
            } else {
                inputPointers[channel].update(repeating: 0, count: frameCount)
            }
        }
        if let state { transport._withUnsafeGuaranteedRef { $0.state = state } }
        let status = graph._withUnsafeGuaranteedRef { graph in
            graph.render(
                frameCount: frameCount, timestamp: timestamp, input: AudioBuffers(channelPointers: inputPointers, frameCount: frameCount),
                output: AudioBuffers(channelPointers: outputPointers, frameCount: frameCount), midi: midi)
        }
        if status != 0 {
            for channel in outputPointers { channel.update(repeating: 0, count: frameCount) }
        }
        return status
    }

    /// Writes (or adds, when `adding`) the last render's output times `gain(frame)` into the
    /// rig's `playback`, channel by channel.
    /// - Thread: [render] No allocation, no lock, no retain.
    @inline(__always)
    func mix(into playback: AudioBuffers, gain: (Int) -> Float, adding: Bool) {
        let channels = outputPointers.count
        guard channels > 0 else {
            if !adding { playback.clear() }
            return
        }
        for port in 0..<playback.channelCount {
            let source = outputPointers[min(port, channels - 1)]
            let target = playback.channelPointers[port]
            for frame in 0..<playback.frameCount {
                let sample = source[frame] * gain(frame)
                target[frame] = adding ? target[frame] + sample : sample
            }
        }
    }

    /// The MIDI the chain's graph sent in the last render.
    /// - Thread: [render], right after ``render(capture:frameCount:timestamp:midi:transport:)``.
    @inline(__always)
    var midiOutput: UnsafeBufferPointer<MIDIEvent> { graph._withUnsafeGuaranteedRef { $0.midiOutputFromRender } }
}
