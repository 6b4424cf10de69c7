import AUCore
import AUEngine
import CJack
import Synchronization

/// Everything JACK's process thread touches, in one struct of plain memory, and the cycle
/// that works on it: ``run(frames:)`` reads top to bottom as one JACK period (transport,
/// capture audio, MIDI in, graph render, playback), as jalv's `process_cb` does.
///
/// Built on the control thread by ``JACKIOUnit`` when it initializes (port handles,
/// preallocated tables, the graph and its units taking MIDI resolved to unretained
/// references) and published to the process callback through ``JACKCycleSlot``.
/// - Thread: [render] for ``run(frames:)``; JACK's latency thread for
///   ``reportLatency(mode:)``; control for the rest.
struct JACKCycle {
    /// The most MIDI events one period delivers (more are dropped).
    static let midiCapacity = 512

    private let client: OpaquePointer
    /// Where the control thread reads what the cycle reports and sets mute and fade.
    private let slot: Unmanaged<JACKCycleSlot>
    /// Port handles and their buffers for this period, in plain memory: the process thread
    /// never touches a Swift array.
    private let capturePorts: UnsafeMutableBufferPointer<OpaquePointer>
    private let playbackPorts: UnsafeMutableBufferPointer<OpaquePointer>
    private let midiInPort: OpaquePointer?
    private let midiOutPort: OpaquePointer?
    private let captureBuffers: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    private let playbackBuffers: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    private let midiEvents: UnsafeMutablePointer<MIDIEvent>
    /// The graph's render entry: ``AudioGraph/render(frameCount:timestamp:input:output:)``.
    private let graph: Unmanaged<AudioGraph>
    /// Filled from JACK transport at the top of each period, when given.
    private let transport: Unmanaged<HostTransport>?
    private let fadeFrames: Int
    private var fadePosition = 0
    /// The capture and playback levels (the I/O unit keeps them alive).
    private let inputMeter: Unmanaged<SignalLevelMeter>
    private let outputMeter: Unmanaged<SignalLevelMeter>

    init(
        client: JACKClient, slot: JACKCycleSlot, capturePorts: [JACKPort], playbackPorts: [JACKPort], midiInPort: JACKPort?,
        midiOutPort: JACKPort?, graph: AudioGraph, transport: HostTransport?, fadeFrames: Int, inputMeter: SignalLevelMeter,
        outputMeter: SignalLevelMeter
    ) {
        self.inputMeter = Unmanaged.passUnretained(inputMeter)
        self.outputMeter = Unmanaged.passUnretained(outputMeter)
        self.client = client.handle
        self.slot = Unmanaged.passUnretained(slot)
        self.capturePorts = .allocate(capacity: capturePorts.count)
        _ = self.capturePorts.initialize(from: capturePorts.map(\.handle))
        self.playbackPorts = .allocate(capacity: playbackPorts.count)
        _ = self.playbackPorts.initialize(from: playbackPorts.map(\.handle))
        self.midiInPort = midiInPort?.handle
        self.midiOutPort = midiOutPort?.handle
        let placeholder = UnsafeMutablePointer<Float>(bitPattern: 0x10)!
        captureBuffers = .allocate(capacity: capturePorts.count)
        captureBuffers.initialize(repeating: placeholder)
        playbackBuffers = .allocate(capacity: playbackPorts.count)
        playbackBuffers.initialize(repeating: placeholder)
        midiEvents = .allocate(capacity: Self.midiCapacity)
        self.graph = Unmanaged.passUnretained(graph)
        self.transport = transport.map { Unmanaged.passUnretained($0) }
        self.fadeFrames = max(1, fadeFrames)
    }

    /// Starts the fade-out from its beginning again (before a new start).
    /// - Thread: [control], while the client is not active.
    mutating func rewindFade() { fadePosition = 0 }

    /// Frees the tables; the process callback no longer runs.
    /// - Thread: [control]
    func deallocate() {
        capturePorts.deallocate()
        playbackPorts.deallocate()
        captureBuffers.deallocate()
        playbackBuffers.deallocate()
        midiEvents.deallocate()
    }

    /// One JACK period, top to bottom.
    /// - Thread: [render] (JACK's process thread). No allocation, no lock, no syscall, no retain.
    mutating func run(frames: jack_nframes_t) -> Int32 {
        // The slot is borrowed, not retained, for the period.
        RenderThread.run { slot._withUnsafeGuaranteedRef { slot in
            let count = Int(frames)
            slot.cycles.add(1, ordering: .relaxed)

            // 1. Transport: JACK's position, published to every unit for this period.
            if let transport { readTransport(into: transport) }

            // 2. Capture audio: this period's port buffers (playback ones too: the graph
            //    renders straight into them).
            for index in 0..<capturePorts.count {
                captureBuffers[index] = jack_port_get_buffer(capturePorts[index], frames)!.assumingMemoryBound(to: Float.self)
            }
            for index in 0..<playbackPorts.count {
                playbackBuffers[index] = jack_port_get_buffer(playbackPorts[index], frames)!.assumingMemoryBound(to: Float.self)
            }
            let capture = AudioBuffers(channelPointers: captureBuffers, frameCount: count)
            let playback = AudioBuffers(channelPointers: playbackBuffers, frameCount: count)
            let isSilent = slot.muted.load(ordering: .relaxed) || slot.fadeDone.load(ordering: .relaxed)
            inputMeter._withUnsafeGuaranteedRef { $0.measure(capture) }

            // 3. MIDI in: the period's short messages, the graph's MIDI input.
            let midi = UnsafeBufferPointer(start: midiEvents, count: readMIDI(frames: frames))

            // 4. Graph render: capture and MIDI in, playback and MIDI out.
            var status: AudioUnitStatus = 0
            // The graph's MIDI output: cleared every period, written when the graph renders.
            let midiOut = midiOutPort.flatMap { jack_port_get_buffer($0, frames) }
            if let midiOut { jack_midi_clear_buffer(midiOut) }
            if !isSilent {
                let timestamp = RenderTimestamp(
                    sampleTime: Double(jack_last_frame_time(client)), hostTime: jack_get_time() &* 1_000,
                    flags: RenderTimestamp.Flags.sampleTimeValid.union(.hostTimeValid))
                status = graph._withUnsafeGuaranteedRef { graph in
                    let status = graph.render(frameCount: count, timestamp: timestamp, input: capture, output: playback, midi: midi)
                    if let midiOut, status == 0 {
                        slot.droppedMIDIOutput.add(JACKMIDIBuffer.write(graph.midiOutputFromRender, into: midiOut), ordering: .relaxed)
                    }
                    return status
                }
            }

            // 5. Playback: silence while muted, faded out or after a render error; the fade
            //    when stopping.
            if isSilent || status != 0 {
                if status != 0 { slot.renderErrors.add(1, ordering: .relaxed) }
                playback.clear()
            } else if slot.fadeRequested.load(ordering: .acquiring) {
                applyFade(playback, slot: slot)
            }
            // 6. Meters: what JACK plays.
            outputMeter._withUnsafeGuaranteedRef { $0.measure(playback) }
            return 0
        } }
    }

    /// JACK transport as a ``TransportState`` (``TransportState/init(jackPosition:isRolling:)``).
    /// - Thread: [render] (`jack_transport_query` is real-time safe).
    private func readTransport(into transport: Unmanaged<HostTransport>) {
        var position = jack_position_t()
        let state = jack_transport_query(client, &position)
        let result = TransportState(jackPosition: position, isRolling: state == JackTransportRolling)
        transport._withUnsafeGuaranteedRef { $0.state = result }
    }

    /// Copies the period's short MIDI messages into the preallocated list (JACK sorts them).
    /// - Thread: [render]
    private func readMIDI(frames: jack_nframes_t) -> Int {
        guard let midiInPort, let buffer = jack_port_get_buffer(midiInPort, frames) else { return 0 }
        return JACKMIDIBuffer.read(buffer, into: midiEvents, capacity: Self.midiCapacity)
    }

    /// A linear fade to silence over `fadeFrames`, then silence.
    /// - Thread: [render]
    private mutating func applyFade(_ playback: AudioBuffers, slot: JACKCycleSlot) {
        let start = fadePosition
        for channel in 0..<playback.channelCount {
            let samples = playback[channel]
            for frame in 0..<playback.frameCount {
                let position = start + frame
                samples[frame] *= position >= fadeFrames ? 0 : 1 - Float(position) / Float(fadeFrames)
            }
        }
        fadePosition += playback.frameCount
        if fadePosition >= fadeFrames { slot.fadeDone.store(true, ordering: .releasing) }
    }

    /// Reports the latency of a path through the client: the ports upstream plus ours. For
    /// capture latency "upstream" is the capture side, for playback latency the playback side.
    /// - Thread: [control] JACK's latency callback (not the process thread; may be called anytime).
    func reportLatency(mode: jack_latency_callback_mode_t) {
        let own = UInt32(slot._withUnsafeGuaranteedRef { $0.latency.load(ordering: .relaxed) })
        let (upstreamPorts, downstreamPorts) = mode == JackCaptureLatency ? (capturePorts, playbackPorts) : (playbackPorts, capturePorts)
        var range = jack_latency_range_t()
        var upstream = jack_latency_range_t(min: 0, max: 0)
        for port in upstreamPorts {
            jack_port_get_latency_range(port, mode, &range)
            upstream.min = max(upstream.min, range.min)
            upstream.max = max(upstream.max, range.max)
        }
        for port in downstreamPorts {
            var total = jack_latency_range_t(min: upstream.min + own, max: upstream.max + own)
            jack_port_set_latency_range(port, mode, &total)
        }
    }
}
