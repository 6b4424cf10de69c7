import AUCore

/// `auou:jack:AUHs`, the JACK I/O unit (AUHAL's part on Linux): a JACK client whose
/// playback ports play what its input bus 0 renders and whose capture ports feed its output
/// bus 0. Like AUHAL, the host gives input bus 0 a render callback (or a connection) that
/// renders its graph; ``captureBuffers`` and ``cycleMIDI`` hold the capture audio and the
/// MIDI input during that call.
///
/// Life cycle: set ``clientName`` / ``serverName`` → ``open()`` (connects to the server, so
/// its sample rate is known: set it on the buses) → `initialize()` (registers the ports; a
/// bus whose rate differs from the server's is refused) → ``start()`` (`AudioOutputUnitStart`)
/// → ``stop()`` (fades out) → `uninitialize()` / `dispose()` (unregisters, closes).
/// - Thread: control, but ``captureBuffers`` and ``cycleMIDI`` (render, inside the callback).
public final class JACKIOUnit: AudioUnit, @unchecked Sendable {
    public static let componentDescription = ComponentDescription(type: ComponentType.output, subtype: "jack", manufacturer: "AUHs")

    /// The JACK client name (`--name`); set before ``open()``.
    public var clientName = "auhost"
    /// The JACK server name (`--server`); nil: the default server. Set before ``open()``.
    public var serverName: String?
    /// Whether a `midi_in` port is registered; set before `initialize()`.
    public var takesMIDI = false

    public private(set) var client: JACKClient?
    public private(set) var driver: JACKDriver?
    private var isStarted = false
    /// The capture ports' samples during a cycle (output bus 0's audio).
    private var capture: AudioBuffers?
    private var midi = UnsafeBufferPointer<MIDIEvent>(start: nil, count: 0)

    public init() {
        super.init(
            description: Self.componentDescription, name: "JACK I/O", inputs: [.canonical(channels: 2, name: "To JACK playback")],
            outputs: [.canonical(channels: 2, name: "From JACK capture")], parameters: [])
    }

    /// Any channel count (1…64); while connected, only the server's sample rate.
    override public func validateFormat(_ format: StreamFormat, scope: Scope, element: Element) throws(AudioUnitError) {
        try format.validate()
        guard format.isFloat, !format.isInterleaved, format.bitsPerChannel == 32 else {
            throw AudioUnitError(.formatNotSupported, "JACK I/O: JACK ports carry 32-bit float non-interleaved audio, not \(format)")
        }
        if let client, format.sampleRate != client.sampleRate {
            throw AudioUnitError(.formatNotSupported, "JACK I/O: the JACK server runs at \(Int(client.sampleRate)) Hz, not \(Int(format.sampleRate)) Hz")
        }
    }

    /// Connects to the JACK server (never starts one) and sets every bus to its sample rate.
    public func open() throws(JACKError) {
        guard client == nil else { return }
        let client = try JACKClient(name: clientName, serverName: serverName)
        do {
            try setValue(client.sampleRate, for: .sampleRate)
        } catch {
            throw JACKError("JACK I/O: \(error.message)")
        }
        self.client = client
    }

    /// Registers the ports: `in_N` for output bus 0's channels, `out_N` for input bus 0's,
    /// `midi_in` when ``takesMIDI``.
    override public func allocateRenderResources() throws(AudioUnitError) {
        do {
            try open()
        } catch {
            throw AudioUnitError(.failedInitialization, error.message)
        }
        guard let client else { return }
        for scope in [Scope.input, .output] {
            let format = try busConfiguration(scope: scope, element: 0).format
            guard format.sampleRate == client.sampleRate else {
                throw AudioUnitError(
                    .formatNotSupported, "JACK I/O: \(scope) bus 0 is at \(Int(format.sampleRate)) Hz but the JACK server runs at \(Int(client.sampleRate)) Hz")
            }
        }
        let configuration = JACKDriver.Configuration(
            inputChannels: try busConfiguration(scope: .output, element: 0).format.channelsPerFrame,
            outputChannels: try busConfiguration(scope: .input, element: 0).format.channelsPerFrame, midiInput: takesMIDI,
            transport: hostTransport)
        do {
            driver = try JACKDriver(client: client, configuration) { [unowned(unsafe) self] frames, timestamp, capture, playback, midi in
                self.cycle(timestamp: timestamp, capture: capture, playback: playback, midi: midi)
            }
        } catch {
            throw AudioUnitError(.failedInitialization, error.message)
        }
    }

    override public func deallocateRenderResources() {
        stop()
        driver = nil
    }

    override public func disposeResources() {
        client?.close()
        client = nil
    }

    /// Starts the device: JACK calls the unit every period (`AudioOutputUnitStart`).
    public func start() throws(AudioUnitError) {
        guard let driver else { throw AudioUnitError(.uninitialized, "JACK I/O: initialize the unit before starting it") }
        do {
            try driver.start()
        } catch {
            throw AudioUnitError(.cannotDoInCurrentContext, error.message)
        }
        isStarted = true
    }

    /// Fades out and stops the device (`AudioOutputUnitStop`).
    public func stop() {
        guard isStarted else { return }
        isStarted = false
        driver?.stop()
    }

    /// The capture ports' samples while input bus 0's source renders.
    /// - Thread: render (inside the cycle only).
    public var captureBuffers: AudioBuffers? { capture }
    /// The period's MIDI input while input bus 0's source renders.
    /// - Thread: render (inside the cycle only).
    public var cycleMIDI: UnsafeBufferPointer<MIDIEvent> { midi }

    /// One JACK period: pulls input bus 0 into the playback ports.
    /// - Thread: render.
    private func cycle(timestamp: RenderTimestamp, capture: AudioBuffers, playback: AudioBuffers, midi: UnsafeBufferPointer<MIDIEvent>) -> AudioUnitStatus {
        self.capture = capture
        self.midi = midi
        defer {
            self.capture = nil
            self.midi = UnsafeBufferPointer(start: nil, count: 0)
        }
        var flags = RenderFlags()
        return pullInput(0, flags: &flags, timestamp: timestamp, into: playback)
    }
}

/// The JACK I/O unit as a component of the registry.
/// - Thread: control.
public struct JACKUnits: ComponentProvider {
    public init() {}
    public var format: ComponentFormat { .builtin }
    public func discoverComponents() -> (components: [Component], problems: [DiscoveryProblem]) {
        let component = Component(
            description: JACKIOUnit.componentDescription, name: "JACK I/O", manufacturerName: "AUHost", version: "1.0.0",
            format: .builtin, identifier: "builtin:JACK I/O", category: "Output",
            factory: { () throws(AudioUnitError) -> AudioUnit in JACKIOUnit() })
        return ([component], [])
    }
}
