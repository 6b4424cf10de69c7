import AUCore
import AUEngine
import CJack
import Glibc

/// `auou:jack:AUHs`, the JACK I/O unit (AUHAL's part on Linux): a JACK client that plays a
/// graph. Its playback bus (input bus 0) is what JACK plays: the `out_N` ports; its capture
/// bus (output bus 0) is what JACK captures: the `in_N` ports. Each JACK period runs
/// ``JACKCycle/run(frames:)``, which renders ``graph`` with the capture ports as the
/// graph's input and the playback ports as its output, and hands `midi_in` to the graph's
/// units that take MIDI.
///
/// Like AUHAL in an AUGraph, the unit may be the graph's own output node; or the graph
/// has its own (`auou:genr`) and the unit plays it. Without a graph it is an output unit
/// as Apple's are: JACK plays its input bus 0 (a render callback or a connection, pulled
/// every period, resampled when its rate is not the server's), and `AudioUnitRender` on it
/// pulls that input and returns it (as auval renders output units). What JACK captures goes
/// to a graph only.
///
/// Life cycle: set ``clientName`` / ``serverName`` → ``open()`` (connects to the server, so
/// its sample rate is known: set it on the buses) → set ``graph`` (or not) → `initialize()`
/// (registers the ports; a capture bus whose rate differs from the server's is refused, a
/// playback bus at another rate makes the graph render at its own and be resampled) →
/// ``start()`` (`AudioOutputUnitStart`) → ``stop()`` (fades out) → `uninitialize()` /
/// `dispose()` (unregisters, closes).
/// - Thread: [control]
public final class JACKIOUnit: AudioUnit, AudioOutputUnit, @unchecked Sendable {
    /// `auou:jack:AUHs`.
    public static let componentDescription = ComponentDescription(type: ComponentType.output, subtype: "jack", manufacturer: "AUHs")
    /// The bus JACK plays (input scope): its channel count is the number of `out_N` ports.
    public static let playbackBus: Element = 0
    /// The bus JACK captures into (output scope): its channel count is the number of `in_N` ports.
    public static let captureBus: Element = 0

    /// The JACK client name (`--name`); set before ``open()``.
    public var clientName = "auhost"
    /// The JACK server name (`--server`); nil: the default server. Set before ``open()``.
    public var serverName: String?
    /// The graph JACK plays; set before `initialize()`. Not retained: when the unit is a
    /// node of the graph, the graph owns the unit. Nil: the unit plays its own input.
    public weak var graph: AudioGraph?
    /// What JACK plays when ``graph`` is nil, made when the unit initializes (``makeStandaloneGraph()``).
    var standaloneGraph: AudioGraph?
    /// Frames of fade-out when stopping (no click); set before `initialize()`.
    public var fadeFrames = 2_400

    /// The connection to the server, once ``open()`` succeeded.
    public private(set) var client: JACKClient?
    /// `in_N`, one per channel of the capture bus, once initialized.
    public private(set) var capturePorts: [JACKPort] = []
    /// `out_N`, one per channel of the playback bus, once initialized.
    public private(set) var playbackPorts: [JACKPort] = []
    /// `midi_in`, the graph's MIDI input, registered when a node of the graph takes it.
    public private(set) var midiInPort: JACKPort?
    /// `midi_out`, the graph's MIDI output, registered when something feeds it.
    public private(set) var midiOutPort: JACKPort?
    /// The level of what JACK captures (the `in_N` ports), once initialized.
    public private(set) var inputMeter = SignalLevelMeter(channels: 0)
    /// The level of what JACK plays (the `out_N` ports), once initialized.
    public private(set) var outputMeter = SignalLevelMeter(channels: 0)
    private let slot = JACKCycleSlot()
    private var cycle: UnsafeMutablePointer<JACKCycle>?
    private var isStarted = false

    /// A unit with stereo capture and playback buses, under `description` (`auou:jack:AUHs`,
    /// or an Apple device output's) and named `name`.
    /// - Thread: [control]
    public init(description: ComponentDescription = JACKIOUnit.componentDescription, name: String = "JACK I/O") {
        super.init(
            description: description, name: name, inputs: [.canonical(channels: 2, name: "To JACK playback")],
            outputs: [.canonical(channels: 2, name: "From JACK capture")], parameters: [])
    }

    /// Any channel count (1…64). The playback bus takes any rate (resampled to the server's);
    /// while connected and playing a graph, the capture bus only the server's.
    /// - Thread: [control]
    override public func validateFormat(_ format: StreamFormat, scope: Scope, element: Element) throws(AudioUnitError) {
        try format.validate()
        guard format.isFloat, !format.isInterleaved, format.bitsPerChannel == 32 else {
            throw AudioUnitError(.formatNotSupported, "JACK I/O: JACK ports carry 32-bit float non-interleaved audio, not \(format)")
        }
        if let client, graph != nil, scope == .output, format.sampleRate != client.sampleRate {
            throw AudioUnitError(.formatNotSupported, "JACK I/O: JACK captures at the server's \(Int(client.sampleRate)) Hz, not \(Int(format.sampleRate)) Hz")
        }
    }

    /// Connects to the JACK server (never starts one) and sets every bus to its sample rate.
    /// - Thread: [control]
    public func open() throws(JACKError) {
        guard client == nil else { return }
        let client = try JACKClient(name: clientName, serverName: serverName)
        do {
            try setValue(client.sampleRate, for: .sampleRate)
        } catch {
            throw JACKError("JACK I/O: \(error.message)")
        }
        slot.install(on: client.handle)
        self.client = client
    }

    /// Registers the ports (`in_N` for the capture bus's channels, `out_N` for the playback
    /// bus's, `midi_in` when a unit of the graph takes MIDI) and publishes the cycle over
    /// ``graph``, or over a graph of its own that plays the unit's input when it has none.
    /// - Thread: [control]
    override public func allocateRenderResources() throws(AudioUnitError) {
        do {
            try open()
        } catch {
            throw AudioUnitError(.failedInitialization, error.message)
        }
        guard let client else { return }
        let playback = try busConfiguration(scope: .input, element: Self.playbackBus).format
        let capture = try busConfiguration(scope: .output, element: Self.captureBus).format
        if self.graph != nil, capture.sampleRate != client.sampleRate {
            throw AudioUnitError(
                .formatNotSupported, "JACK I/O: the capture bus is at \(Int(capture.sampleRate)) Hz but the JACK server runs at \(Int(client.sampleRate)) Hz")
        }
        let graph: AudioGraph
        if let played = self.graph { graph = played } else { graph = try makeStandaloneGraph() }
        // A graph at another rate is rendered at its own and resampled to the server's; what
        // JACK captures is at the server's rate, so such a graph cannot take it.
        if playback.sampleRate != client.sampleRate, graph.connections.contains(where: { (try? graph.unit(of: $0.source)) === self }) {
            throw AudioUnitError(
                .formatNotSupported,
                "JACK I/O: the graph runs at \(Int(playback.sampleRate)) Hz, resampled to the server's \(Int(client.sampleRate)) Hz, and cannot take what JACK captures at \(Int(client.sampleRate)) Hz")
        }
        graph.resampleOutput(graphRate: playback.sampleRate, deviceRate: client.sampleRate, channels: playback.channelsPerFrame)
        do throws(JACKError) {
            capturePorts = try (1...capture.channelsPerFrame).map { channel throws(JACKError) in
                try client.registerPort("in_\(channel)", kind: .audio, direction: .capture)
            }
            playbackPorts = try (1...playback.channelsPerFrame).map { channel throws(JACKError) in
                try client.registerPort("out_\(channel)", kind: .audio, direction: .playback)
            }
            midiInPort = graph.takesMIDIInput ? try client.registerPort("midi_in", kind: .midi, direction: .capture) : nil
            midiOutPort = graph.sendsMIDIOutput ? try client.registerPort("midi_out", kind: .midi, direction: .playback) : nil
        } catch {
            unregisterPorts()
            disposeStandaloneGraph()
            throw AudioUnitError(.failedInitialization, error.message)
        }
        // The cycle a render may still run keeps the old meters until it is replaced.
        let inputMeter = SignalLevelMeter(channels: capturePorts.count)
        let outputMeter = SignalLevelMeter(channels: playbackPorts.count)
        let cycle = UnsafeMutablePointer<JACKCycle>.allocate(capacity: 1)
        cycle.initialize(to: JACKCycle(
            client: client, slot: slot, capturePorts: capturePorts, playbackPorts: playbackPorts, midiInPort: midiInPort,
            midiOutPort: midiOutPort, graph: graph, transport: hostTransport, fadeFrames: fadeFrames, inputMeter: inputMeter,
            outputMeter: outputMeter))
        self.cycle = cycle
        deallocate(slot.publish(cycle))
        self.inputMeter = inputMeter
        self.outputMeter = outputMeter
    }

    /// Returns the input (what JACK plays when started): `AudioUnitRender` on an output unit
    /// pulls its input bus 0 and passes it through, channels it lacks silent. A graph's
    /// output node is never processed.
    /// - Thread: [render]
    override public func process(_ context: ProcessContext) -> AudioUnitStatus {
        context.outputs[0].copy(from: context.inputs[0])
        return 0
    }

    /// - Thread: [control]
    override public func deallocateRenderResources() {
        stop()
        deallocate(slot.publish(nil))
        cycle = nil
        graph?.stopResamplingOutput()
        disposeStandaloneGraph()
        unregisterPorts()
    }

    /// - Thread: [control]
    override public func disposeResources() {
        client?.close()
        client = nil
    }

    /// Music devices, music effects and MIDI processors take `midi_in`.
    /// Frees a cycle the process callback can no longer run.
    private func deallocate(_ cycle: UnsafeMutablePointer<JACKCycle>?) {
        guard let cycle else { return }
        cycle.pointee.deallocate()
        cycle.deinitialize(count: 1)
        cycle.deallocate()
    }

    private func unregisterPorts() {
        for port in capturePorts + playbackPorts + [midiInPort, midiOutPort].compactMap({ $0 }) { client?.unregisterPort(port) }
        capturePorts = []
        playbackPorts = []
        midiInPort = nil
        midiOutPort = nil
    }

    /// Starts the device: JACK runs the cycle every period (`AudioOutputUnitStart`).
    /// - Thread: [control]
    public func start() throws(AudioUnitError) {
        guard let client, let cycle else { throw AudioUnitError(.uninitialized, "JACK I/O: initialize the unit before starting it") }
        guard !isStarted else { return }
        slot.fadeRequested.store(false, ordering: .relaxed)
        slot.fadeDone.store(false, ordering: .relaxed)
        cycle.pointee.rewindFade()
        do {
            try client.activate()
        } catch {
            throw AudioUnitError(.cannotDoInCurrentContext, error.message)
        }
        isStarted = true
    }

    /// Fades the playback out over ``fadeFrames``, then deactivates the client
    /// (`AudioOutputUnitStop`): when it returns, JACK no longer runs the cycle. Returns at
    /// once when the server is gone; waits at most 1 s for the fade.
    /// - Thread: [control]
    public func stop() { stop(timeout: 1) }

    /// ``stop()``, waiting at most `timeout` seconds for the fade.
    /// - Thread: [control]
    public func stop(timeout: Double) {
        guard isStarted, let client else { return }
        isStarted = false
        if !client.serverIsGone {
            slot.fadeRequested.store(true, ordering: .releasing)
            var waited = 0.0
            while !slot.fadeDone.load(ordering: .acquiring) && !client.serverIsGone && waited < timeout {
                usleep(2_000)
                waited += 0.002
            }
        }
        client.deactivate()
    }

    // MARK: - Connections

    /// Connects the capture ports from and the playback ports to the given ports, channel
    /// by channel (the last port given serves any extra channels).
    /// - Thread: [control]
    public func connect(captureFrom sources: [String], playbackTo destinations: [String]) throws(JACKError) {
        guard let client else { throw JACKError("JACK I/O: open the unit before connecting it") }
        for (index, port) in capturePorts.enumerated() where !sources.isEmpty {
            try client.connect(sources[min(index, sources.count - 1)], to: port.fullName)
        }
        for (index, port) in playbackPorts.enumerated() where !destinations.isEmpty {
            try client.connect(port.fullName, to: destinations[min(index, destinations.count - 1)])
        }
    }

    /// Connects the capture ports from the audio ports matching `capturePattern` and the
    /// playback ports to those matching `playbackPattern` (regular expressions over full
    /// port names), channel by channel; a pattern matching nothing is an error naming it.
    /// - Thread: [control]
    public func connect(captureMatching capturePattern: String?, playbackMatching playbackPattern: String?) throws(JACKError) {
        guard let client else { throw JACKError("JACK I/O: open the unit before connecting it") }
        var sources: [String] = []
        var destinations: [String] = []
        if let capturePattern {
            sources = client.sources(matching: capturePattern, kind: .audio)
            guard !sources.isEmpty else { throw JACKError("no JACK audio output port matches '\(capturePattern)'") }
        }
        if let playbackPattern {
            destinations = client.destinations(matching: playbackPattern, kind: .audio)
            guard !destinations.isEmpty else { throw JACKError("no JACK audio input port matches '\(playbackPattern)'") }
        }
        try connect(captureFrom: sources, playbackTo: destinations)
    }

    /// Connects to the system's physical capture and playback ports.
    /// - Thread: [control]
    public func connectToSystem() throws(JACKError) {
        guard let client else { throw JACKError("JACK I/O: open the unit before connecting it") }
        try connect(
            captureFrom: client.sources(kind: .audio, physicalOnly: true),
            playbackTo: client.destinations(kind: .audio, physicalOnly: true))
    }

    /// Connects every MIDI output port whose name matches `pattern` to `midi_in` (ports
    /// already connected stay so); returns how many match. None is not an error: a keyboard
    /// may be plugged in later (call it again when ports appear).
    /// - Thread: [control]
    @discardableResult
    public func connectMIDI(from pattern: String) throws(JACKError) -> Int {
        guard let client, let midiInPort else { throw JACKError("this graph takes no MIDI: there is no midi_in port") }
        let sources = client.sources(matching: pattern, kind: .midi).filter { !$0.hasPrefix(client.name + ":") }
        for source in sources { try client.connect(source, to: midiInPort.fullName) }
        return sources.count
    }

    // MARK: - While running

    /// The processing latency the ports report, in frames (the graph's latency).
    /// - Thread: [control]
    public var latencyFrames: Int {
        get { slot.latency.load(ordering: .relaxed) }
        set {
            slot.latency.store(newValue, ordering: .relaxed)
            if isStarted, let client, !client.serverIsGone { jack_recompute_total_latencies(client.handle) }
        }
    }

    /// Plays silence while the graph is being rebuilt.
    /// - Thread: [control]
    public var isMuted: Bool {
        get { slot.muted.load(ordering: .relaxed) }
        set { slot.muted.store(newValue, ordering: .relaxed) }
    }

    /// How many periods the graph failed to render (the playback was silenced).
    /// - Thread: [control]
    public var renderErrorCount: Int { slot.renderErrors.load(ordering: .relaxed) }
    /// MIDI output events `midi_out` had no room for.
    /// - Thread: [control]
    public var droppedMIDIOutputCount: Int { slot.droppedMIDIOutput.load(ordering: .relaxed) }
    /// How many periods ran.
    /// - Thread: [control]
    public var cycleCount: Int { slot.cycles.load(ordering: .relaxed) }
    /// Bumped by buffer-size and sample-rate changes; compare to re-initialise.
    /// - Thread: [control]
    public var configurationGeneration: Int { client?.events.generation ?? 0 }
}

/// The JACK I/O unit as a component of the registry.
/// - Thread: [control]
public struct JACKUnits: ComponentProvider {
    /// The provider; it finds its one component at once.
    /// - Thread: [control]
    public init() {}
    /// Built into the host.
    /// - Thread: [control]
    public var format: ComponentFormat { .builtin }
    /// `auou:jack:AUHs`, never a problem.
    /// - Thread: [control]
    public func discoverComponents() -> (components: [Component], problems: [DiscoveryProblem]) {
        let component = Component(
            description: JACKIOUnit.componentDescription, name: "JACK I/O", manufacturerName: "AUHost", version: "1.0.0",
            format: .builtin, identifier: "builtin:JACK I/O", category: "Output",
            factory: { () throws(AudioUnitError) -> AudioUnit in JACKIOUnit() })
        return ([component], [])
    }
}
