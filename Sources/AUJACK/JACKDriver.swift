import Glibc
import AUCore
import CAUJack
import CJack
import Synchronization

/// Renders one JACK period: `inputs` holds the capture ports' samples, `outputs` points at
/// the playback ports' buffers to fill, `midi` the period's MIDI input, sorted.
/// Created on the control thread, called on JACK's process thread: it must not allocate,
/// lock or block.
/// - Thread: render.
public typealias JACKRenderFunction = @Sendable (
    _ frameCount: Int, _ timestamp: RenderTimestamp, _ inputs: AudioBuffers, _ outputs: AudioBuffers,
    _ midi: UnsafeBufferPointer<MIDIEvent>
) -> AudioUnitStatus

/// Runs a render function inside the JACK process callback: registers the audio and MIDI
/// ports, connects them, reports latency, fades out on stop, mutes while the server
/// reconfigures, and counts xruns and render errors.
/// - Thread: control, except where a member says otherwise.
public final class JACKDriver: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var clientName: String
        public var serverName: String?
        public var inputChannels: Int
        public var outputChannels: Int
        public var midiInput: Bool
        /// Frames of fade-out when stopping (no click).
        public var fadeFrames: Int
        /// Filled from JACK transport at the top of each cycle, when given.
        public var transport: HostTransport?

        public init(
            clientName: String = "auhost", serverName: String? = nil, inputChannels: Int = 2, outputChannels: Int = 2, midiInput: Bool = false,
            fadeFrames: Int = 2_400, transport: HostTransport? = nil
        ) {
            self.clientName = clientName
            self.serverName = serverName
            self.inputChannels = inputChannels
            self.outputChannels = outputChannels
            self.midiInput = midiInput
            self.fadeFrames = fadeFrames
            self.transport = transport
        }
    }

    public let client: JACKClient
    public let inputPorts: [JACKPort]
    public let outputPorts: [JACKPort]
    public let midiPort: JACKPort?
    private let process: JACKProcessState
    private var isRunning = false

    /// Opens the client and registers `in_N`, `out_N` and `midi_in` ports.
    public convenience init(_ configuration: Configuration, render: @escaping JACKRenderFunction) throws(JACKError) {
        let client = try JACKClient(name: configuration.clientName, serverName: configuration.serverName)
        try self.init(client: client, configuration, render: render)
    }

    /// Registers `in_N`, `out_N` and `midi_in` ports on a client already open (whose sample
    /// rate the caller needed first); the configuration's names are not used.
    public init(client: JACKClient, _ configuration: Configuration, render: @escaping JACKRenderFunction) throws(JACKError) {
        self.client = client
        var inputs: [JACKPort] = []
        var outputs: [JACKPort] = []
        for channel in 0..<configuration.inputChannels {
            inputs.append(try client.registerPort("in_\(channel + 1)", kind: .audio, direction: .input))
        }
        for channel in 0..<configuration.outputChannels {
            outputs.append(try client.registerPort("out_\(channel + 1)", kind: .audio, direction: .output))
        }
        midiPort = configuration.midiInput ? try client.registerPort("midi_in", kind: .midi, direction: .input) : nil
        inputPorts = inputs
        outputPorts = outputs
        process = JACKProcessState(
            client: client.handle, inputs: inputs, outputs: outputs, midi: midiPort, fadeFrames: configuration.fadeFrames,
            transport: configuration.transport, render: render)
        process.install()
    }

    deinit { stop() }

    /// Activates the client: the process callback starts running.
    public func start() throws(JACKError) {
        guard !isRunning else { return }
        try client.activate()
        isRunning = true
    }

    /// Fades the output out over the configured frames, then deactivates. Returns at once
    /// when the server is gone. Waits at most `timeout` seconds for the fade.
    public func stop(timeout: Double = 1) {
        guard isRunning else { return }
        isRunning = false
        if !client.serverIsGone {
            process.requestFadeOut()
            var waited = 0.0
            while !process.fadeIsDone && !client.serverIsGone && waited < timeout {
                usleep(2_000)
                waited += 0.002
            }
        }
        client.deactivate()
    }

    /// Connects the capture side (`in_N`) from and the playback side (`out_N`) to the
    /// given ports, channel by channel (the last port serves any extra channels).
    public func connect(inputsFrom sources: [String], outputsTo destinations: [String]) throws(JACKError) {
        for (index, port) in inputPorts.enumerated() where !sources.isEmpty {
            try client.connect(sources[min(index, sources.count - 1)], to: port.fullName)
        }
        for (index, port) in outputPorts.enumerated() where !destinations.isEmpty {
            try client.connect(port.fullName, to: destinations[min(index, destinations.count - 1)])
        }
    }

    /// Connects the capture side from the audio output ports matching `capturePattern` and
    /// the playback side to the audio input ports matching `playbackPattern` (regular
    /// expressions over full port names), channel by channel; a pattern matching nothing is
    /// an error naming it.
    public func connect(capturingFrom capturePattern: String?, playingTo playbackPattern: String?) throws(JACKError) {
        var sources: [String] = []
        var destinations: [String] = []
        if let capturePattern {
            sources = client.ports(matching: capturePattern, kind: .audio, direction: .output)
            guard !sources.isEmpty else { throw JACKError("no JACK audio output port matches '\(capturePattern)'") }
        }
        if let playbackPattern {
            destinations = client.ports(matching: playbackPattern, kind: .audio, direction: .input)
            guard !destinations.isEmpty else { throw JACKError("no JACK audio input port matches '\(playbackPattern)'") }
        }
        try connect(inputsFrom: sources, outputsTo: destinations)
    }

    /// Connects to the system's physical capture and playback ports.
    public func connectToSystem() throws(JACKError) {
        try connect(
            inputsFrom: client.ports(kind: .audio, direction: .output, physicalOnly: true),
            outputsTo: client.ports(kind: .audio, direction: .input, physicalOnly: true))
    }

    /// Connects every MIDI output port whose name matches `pattern` to `midi_in`.
    public func connectMIDI(from pattern: String) throws(JACKError) {
        guard let midiPort else { throw JACKError("this chain takes no MIDI: there is no midi_in port") }
        let sources = client.ports(matching: pattern, kind: .midi, direction: .output)
        guard !sources.isEmpty else { throw JACKError("no JACK MIDI output port matches '\(pattern)'") }
        for source in sources { try client.connect(source, to: midiPort.fullName) }
    }

    /// The processing latency to report on the ports, in frames (the graph's latency).
    public var latencyFrames: Int {
        get { process.latencyFrames }
        set {
            process.latencyFrames = newValue
            if isRunning && !client.serverIsGone { jack_recompute_total_latencies(client.handle) }
        }
    }

    /// Mutes the output (silence) while the renderer is being reconfigured.
    /// - Thread: control.
    public var isMuted: Bool {
        get { process.isMuted }
        set { process.isMuted = newValue }
    }

    /// How many periods the render function failed (the output was silenced).
    public var renderErrorCount: Int { process.renderErrors }
    /// How many periods ran.
    public var cycleCount: Int { process.cycles }
    /// Bumped by buffer-size and sample-rate changes; compare to re-initialise.
    public var configurationGeneration: Int { client.events.generation }
}

/// The state JACK's process thread works on, allocated before activation.
/// - Thread: render for ``run(frames:)`` and the latency callback; control for the rest.
final class JACKProcessState: @unchecked Sendable {
    private let client: OpaquePointer
    /// Port handles in plain memory: the process thread never touches a Swift array.
    private let inputs: UnsafeMutableBufferPointer<OpaquePointer>
    private let outputs: UnsafeMutableBufferPointer<OpaquePointer>
    private let midiPort: OpaquePointer?
    private let render: JACKRenderFunction
    private let transport: HostTransport?
    private let inputPointers: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    private let outputPointers: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    private let midiEvents: UnsafeMutablePointer<MIDIEvent>
    private let fadeFrames: Int
    private var fadePosition = 0
    private let fadeRequested = Atomic<Bool>(false)
    private let fadeDone = Atomic<Bool>(false)
    private let muted = Atomic<Bool>(false)
    private let latency = Atomic<Int>(0)
    private let errorCount = Atomic<Int>(0)
    private let cycleCount = Atomic<Int>(0)
    static let midiCapacity = 512

    init(client: OpaquePointer, inputs: [JACKPort], outputs: [JACKPort], midi: JACKPort?, fadeFrames: Int, transport: HostTransport?, render: @escaping JACKRenderFunction) {
        self.transport = transport
        self.client = client
        self.inputs = .allocate(capacity: inputs.count)
        _ = self.inputs.initialize(from: inputs.map(\.handle))
        self.outputs = .allocate(capacity: outputs.count)
        _ = self.outputs.initialize(from: outputs.map(\.handle))
        midiPort = midi?.handle
        self.render = render
        self.fadeFrames = max(1, fadeFrames)
        let placeholder = UnsafeMutablePointer<Float>(bitPattern: 0x10)!
        inputPointers = .allocate(capacity: inputs.count)
        inputPointers.initialize(repeating: placeholder)
        outputPointers = .allocate(capacity: outputs.count)
        outputPointers.initialize(repeating: placeholder)
        midiEvents = .allocate(capacity: Self.midiCapacity)
    }

    deinit {
        inputs.deallocate()
        outputs.deallocate()
        inputPointers.deallocate()
        outputPointers.deallocate()
        midiEvents.deallocate()
    }

    func install() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        // The process thread does nothing but render: denormals stay flushed on it.
        jack_set_thread_init_callback(client, { _ in RenderThread.flushDenormalsForThisThread() }, nil)
        jack_set_process_callback(client, { frames, context in
            Unmanaged<JACKProcessState>.fromOpaque(context!).takeUnretainedValue().run(frames: frames)
        }, context)
        jack_set_latency_callback(client, { mode, context in
            Unmanaged<JACKProcessState>.fromOpaque(context!).takeUnretainedValue().updateLatency(mode: mode)
        }, context)
    }

    var latencyFrames: Int {
        get { latency.load(ordering: .relaxed) }
        set { latency.store(newValue, ordering: .relaxed) }
    }
    var isMuted: Bool {
        get { muted.load(ordering: .relaxed) }
        set { muted.store(newValue, ordering: .relaxed) }
    }
    var fadeIsDone: Bool { fadeDone.load(ordering: .acquiring) }
    var renderErrors: Int { errorCount.load(ordering: .relaxed) }
    var cycles: Int { cycleCount.load(ordering: .relaxed) }

    func requestFadeOut() { fadeRequested.store(true, ordering: .releasing) }

    /// One JACK period.
    /// - Thread: render. No allocation, no lock.
    func run(frames: jack_nframes_t) -> Int32 {
        RenderThread.run {
            let count = Int(frames)
            for index in 0..<inputs.count {
                inputPointers[index] = jack_port_get_buffer(inputs[index], frames)!.assumingMemoryBound(to: Float.self)
            }
            for index in 0..<outputs.count {
                outputPointers[index] = jack_port_get_buffer(outputs[index], frames)!.assumingMemoryBound(to: Float.self)
            }
            let output = AudioBuffers(channelPointers: outputPointers, frameCount: count)
            cycleCount.add(1, ordering: .relaxed)
            if muted.load(ordering: .relaxed) || fadeDone.load(ordering: .relaxed) {
                output.clear()
                return 0
            }
            let midiCount = readMIDI(frames: frames)
            if let transport { readTransport(into: transport) }
            let timestamp = RenderTimestamp(
                sampleTime: Double(jack_last_frame_time(client)), hostTime: jack_get_time() &* 1_000,
                flags: RenderTimestamp.Flags.sampleTimeValid.union(.hostTimeValid))
            let status = render(
                count, timestamp, AudioBuffers(channelPointers: inputPointers, frameCount: count), output,
                UnsafeBufferPointer(start: midiEvents, count: midiCount))
            if status != 0 {
                errorCount.add(1, ordering: .relaxed)
                output.clear()
            }
            if fadeRequested.load(ordering: .acquiring) { applyFade(output) }
            return 0
        }
    }

    /// Copies the period's short MIDI messages into the preallocated list (JACK sorts them).
    /// - Thread: render.
    private func readMIDI(frames: jack_nframes_t) -> Int {
        guard let midiPort, let buffer = jack_port_get_buffer(midiPort, frames) else { return 0 }
        let available = Int(jack_midi_get_event_count(buffer))
        var count = 0
        var event = jack_midi_event_t()
        for index in 0..<available where count < Self.midiCapacity {
            guard jack_midi_event_get(&event, buffer, UInt32(index)) == 0, event.size >= 1, event.size <= 3, let bytes = event.buffer else {
                continue
            }
            midiEvents[count] = MIDIEvent(
                offset: Int32(event.time), status: bytes[0], data1: event.size > 1 ? bytes[1] : 0, data2: event.size > 2 ? bytes[2] : 0)
            count += 1
        }
        return count
    }

    /// JACK transport as a ``TransportState``: rolling, tempo and bar/beat when a timebase
    /// master provides them, else beats counted from the frame at 120 BPM.
    /// - Thread: render (`jack_transport_query` is real-time safe).
    private func readTransport(into transport: HostTransport) {
        var position = jack_position_t()
        let state = jack_transport_query(client, &position)
        var result = TransportState(isRolling: state == JackTransportRolling, frame: Int64(position.frame))
        if position.valid.rawValue & JackPositionBBT.rawValue != 0, position.beats_per_bar > 0, position.ticks_per_beat > 0 {
            result.beatsPerMinute = position.beats_per_minute
            result.beatsPerBar = Double(position.beats_per_bar)
            result.beatUnit = Int(position.beat_type)
            result.bar = Int(position.bar) - 1
            let tick = position.valid.rawValue & JackTickDouble.rawValue != 0 ? position.tick_double : Double(position.tick)
            result.beatInBar = Double(position.beat - 1) + tick / position.ticks_per_beat
            result.beat = Double(result.bar) * result.beatsPerBar + result.beatInBar
        } else if position.frame_rate > 0 {
            result.beat = Double(position.frame) / Double(position.frame_rate) * result.beatsPerMinute / 60
            result.bar = Int(result.beat / result.beatsPerBar)
            result.beatInBar = result.beat - Double(result.bar) * result.beatsPerBar
        }
        transport.state = result
    }

    /// A linear fade to silence over `fadeFrames`, then silence.
    /// - Thread: render.
    private func applyFade(_ output: AudioBuffers) {
        let start = fadePosition
        for channel in 0..<output.channelCount {
            let samples = output[channel]
            for frame in 0..<output.frameCount {
                let position = start + frame
                samples[frame] *= position >= fadeFrames ? 0 : 1 - Float(position) / Float(fadeFrames)
            }
        }
        fadePosition += output.frameCount
        if fadePosition >= fadeFrames { fadeDone.store(true, ordering: .releasing) }
    }

    /// Reports the latency of a path through the client: the ports upstream plus ours. For
    /// capture latency "upstream" is the input side, for playback latency the output side.
    /// - Thread: JACK's latency callback (not the process thread; may be called anytime).
    private func updateLatency(mode: jack_latency_callback_mode_t) {
        let own = UInt32(latency.load(ordering: .relaxed))
        let (upstreamPorts, downstreamPorts) = mode == JackCaptureLatency ? (inputs, outputs) : (outputs, inputs)
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

