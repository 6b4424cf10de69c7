import AUCore
import CLilv
import Synchronization

/// A running plugin instance and everything its `run()` touches, allocated together on
/// the control thread when the unit is initialized and freed together (deactivate, free
/// the instance, then the features it was given) when it is uninitialized.
///
/// All render-side tables are raw buffers so that the render thread reads them without
/// ARC traffic or allocation.
/// - Thread: [control] creates and releases it; [render] uses the `render…` members, on
///   the render thread.
final class LV2Instance: @unchecked Sendable {
    // What the render path reads every cycle comes first, in declaration order, so that an
    // ordinary cycle of a plain effect reads only the object's first cache line, and one
    // that publishes control outputs the second too (a plugin's `run()` evicts the host's
    // data: each line read after it is a miss); the tables it points to are carved from one
    // arena, in the order they are read.

    /// Keeps control-side work that must not overlap `run()` (state restore, reset) out of
    /// the render path.
    let gate = RenderGate()
    /// Where the control ports were last filled from the parameter table. Render thread only.
    let controlCursor = ParameterChangeCursor()
    /// The ``BufferStamp`` of the buffers the audio ports are connected to (0: none known).
    /// Render thread only; an atomic for the same reason.
    let connectedStamp = Atomic<UInt64>(0)
    let handle: LV2_Handle?
    let runFunction: @convention(c) (LV2_Handle?, UInt32) -> Void
    /// What the render path must do besides `run()`, decided once so that a plain effect
    /// skips it: fill or offer atom sequences, compute the transport for `time:Position`,
    /// collect MIDI output, deliver worker responses, publish control outputs.
    let hasAtomPorts: Bool
    let followsTransport: Bool
    let sendsMIDI: Bool
    let hasWorker: Bool
    let powerOf2: Bool
    let publishesOutputs: Bool
    /// Whether the plugin has the state interface (`state:interface`): then its own state is
    /// carried from one instance to the next (``LV2Unit/deallocateRenderResources()``).
    let hasStateInterface: Bool

    /// (parameter slot, port index) of the control outputs.
    let outputControls: UnsafeMutableBufferPointer<(slot: Int, port: UInt32)>
    /// One float per port; control ports are connected here once.
    let controls: UnsafeMutablePointer<Float>
    /// The slot of the `lv2:reportsLatency` output, or -1.
    let latencySlot: Int
    let connectFunction: @convention(c) (LV2_Handle?, UInt32, UnsafeMutableRawPointer?) -> Void
    /// Every audio and CV port with the bus channel it plays and where it is connected.
    private let audioLinks: UnsafeMutableBufferPointer<AudioLink>
    /// Atom ports: index, direction, what they carry, and their buffers.
    let atomPorts: UnsafeMutableBufferPointer<AtomPort>
    /// Silence for input channels the caller did not give; a sink for output channels.
    let silence: UnsafeMutablePointer<Float>
    let sink: UnsafeMutablePointer<Float>
    /// (parameter slot, port index) of the control inputs.
    let inputControls: UnsafeMutableBufferPointer<(slot: Int, port: UInt32)>
    /// What the render thread carries from one cycle to the next for `time:Position`.
    let cycle: UnsafeMutablePointer<CycleState>
    /// The unit's patch messages (nil: the plugin has no patch properties) and the entry of
    /// ``atomPorts`` they are written into (-1: none). Not retained: the unit owns the
    /// channel and outlives its instances, and the render path then makes no retain.
    let patch: Unmanaged<LV2PatchChannel>?
    let patchInput: Int

    /// The lilv instance (freed, under the world's lock, when this is).
    let lilv: LilvInstanceHandle
    let features: LV2HostFeatures
    let urids: AtomURIDs
    let sampleRate: Double
    let maximumFrames: Int
    /// The render path's tables, carved from one arena so that they share cache lines.
    private let arena: RenderArena
    /// One float per port where state saving puts port values for lilv (control side).
    let stateValues: UnsafeMutablePointer<Float>

    /// An audio or CV port: the channel of a bus it is connected to, and the buffer it is
    /// connected to now (reconnected only when the caller's buffers move, which in a graph
    /// they do not).
    struct AudioLink {
        var port: UInt32
        var isInput: Bool
        var bus: Int32
        var channel: Int32
        var connected: UnsafeMutableRawPointer?
    }

    struct CycleState {
        /// The sample time the next cycle continues from (time:Position is sent on a jump).
        var expectedSampleTime = -Double.infinity
        /// The transport sent last, to send a new time:Position when it stops, starts, jumps or changes tempo.
        var lastTransport = TransportState(frame: Int64.min / 2)
        var lastFrames = 0
    }

    struct AtomPort {
        var index: UInt32
        var isInput: Bool
        var carriesMIDI: Bool
        var carriesTime: Bool
        var sequence: AtomSequence
    }

    /// Instantiates the plugin and connects its control and atom ports.
    /// - Thread: [control]
    init(
        plugin: LilvPluginHandle, uri: String, layout: LV2PortLayout, features: LV2HostFeatures, urids: URIDMap,
        sampleRate: Double, maximumFrames: Int, sequenceSize: Int, powerOf2: Bool, parameters: ParameterTable, patch: LV2PatchChannel?
    ) throws(AudioUnitError) {
        guard let lilv = LilvInstanceHandle(plugin: plugin, sampleRate: sampleRate, features: features.pointer) else {
            features.log.drain()
            let said = features.log.recentMessages
            throw AudioUnitError(
                .failedInitialization,
                "\(uri): the plugin's instantiate() returned NULL at \(Int(sampleRate)) Hz"
                    + (said.isEmpty ? "" : "; it logged: " + said.joined(separator: " | ")))
        }
        self.lilv = lilv
        self.features = features
        handle = lilv.handle
        guard let descriptor = lilv.descriptor, let run = descriptor.pointee.run, let connect = descriptor.pointee.connect_port else {
            lilv.free()
            throw AudioUnitError(.failedInitialization, "\(uri): the plugin's descriptor has no run() or connect_port()")
        }
        runFunction = run
        connectFunction = connect
        self.urids = AtomURIDs(urids)
        self.sampleRate = sampleRate
        self.maximumFrames = maximumFrames
        self.powerOf2 = powerOf2

        let portCount = layout.ports.count
        var inputs: [(slot: Int, port: UInt32)] = []
        var outputs: [(slot: Int, port: UInt32)] = []
        var latency = -1
        for (slot, port) in layout.parameterPorts.enumerated() {
            let info = layout.ports[Int(port)]
            if info.isInput { inputs.append((slot, port)) } else { outputs.append((slot, port)) }
            if !info.isInput && info.reportsLatency && latency < 0 { latency = slot }
        }
        latencySlot = latency
        var links: [AudioLink] = []
        for (isInput, buses) in [(true, layout.inputBuses), (false, layout.outputBuses)] {
            for (bus, ports) in buses.enumerated() {
                for (channel, port) in ports.ports.enumerated() {
                    links.append(AudioLink(port: port, isInput: isInput, bus: Int32(bus), channel: Int32(channel), connected: nil))
                }
            }
        }
        arena = RenderArena()
        audioLinks = arena.table(links.count, of: AudioLink(port: 0, isInput: false, bus: 0, channel: 0, connected: nil))
        _ = audioLinks.update(fromContentsOf: links)
        outputControls = arena.table(outputs.count, of: (slot: 0, port: 0))
        publishesOutputs = !outputs.isEmpty
        _ = outputControls.update(fromContentsOf: outputs)
        controls = arena.table(max(1, portCount), of: Float(0)).baseAddress!
        inputControls = arena.table(inputs.count, of: (slot: 0, port: 0))
        _ = inputControls.update(fromContentsOf: inputs)
        cycle = arena.table(1, of: CycleState()).baseAddress!
        for (slot, port) in layout.parameterPorts.enumerated() { controls[Int(port)] = parameters.value(at: slot) }
        stateValues = .allocate(capacity: max(1, portCount))
        stateValues.initialize(repeating: 0, count: max(1, portCount))

        silence = .allocate(capacity: maximumFrames)
        silence.initialize(repeating: 0, count: maximumFrames)
        sink = .allocate(capacity: maximumFrames)
        sink.initialize(repeating: 0, count: maximumFrames)

        var atoms: [AtomPort] = []
        for port in layout.ports where port.kind == .atom {
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: sequenceSize, alignment: 16)
            buffer.initializeMemory(as: UInt8.self, repeating: 0, count: sequenceSize)
            let sequence = AtomSequence(buffer: buffer, capacity: sequenceSize)
            if port.isInput { sequence.clear(self.urids) } else { sequence.prepareOutput(self.urids) }
            atoms.append(AtomPort(index: port.index, isInput: port.isInput, carriesMIDI: port.supportsMIDI, carriesTime: port.supportsTimePosition, sequence: sequence))
        }
        atomPorts = arena.table(atoms.count, of: AtomPort(
            index: 0, isInput: false, carriesMIDI: false, carriesTime: false, sequence: AtomSequence(buffer: silence, capacity: 0)))
        _ = atomPorts.update(fromContentsOf: atoms)
        hasAtomPorts = !atoms.isEmpty
        self.patch = patch.map { Unmanaged.passUnretained($0) }
        let patchPort = layout.patchInputPort
        patchInput = patch == nil ? -1 : atoms.firstIndex { $0.index == patchPort } ?? -1
        followsTransport = atoms.contains { $0.isInput && $0.carriesTime }
        sendsMIDI = atoms.contains { !$0.isInput && $0.carriesMIDI }

        for port in layout.ports {
            switch port.kind {
            case .control: connect(handle, port.index, controls + Int(port.index))
            case .atom: break
            case .audio, .cv: connect(handle, port.index, port.isInput ? silence : sink)
            case .unsupported: connect(handle, port.index, nil)
            }
        }
        for atom in atomPorts { connect(handle, atom.index, atom.sequence.buffer) }

        hasStateInterface = descriptor.pointee.extension_data?(LV2URI.stateInterface) != nil
        let workerInterface = descriptor.pointee.extension_data?(LV2URI.workerInterface)
        hasWorker = workerInterface != nil
        features.worker.attach(handle: handle, interface: workerInterface?.assumingMemoryBound(to: LV2_Worker_Interface.self))
    }

    /// Activates the instance (after any state was restored).
    /// - Thread: [control]
    func activate() { lilv.descriptor?.pointee.activate?(handle) }

    /// Deactivates the instance (before it is freed, or activated again by a reset).
    /// - Thread: [control]
    func deactivate() { lilv.descriptor?.pointee.deactivate?(handle) }

    deinit {
        features.worker.stop()
        deactivate()
        lilv.free()
        features.log.drain()
        stateValues.deallocate()
        for atom in atomPorts { atom.sequence.buffer.deallocate() }
        silence.deallocate()
        sink.deallocate()
    }

    // MARK: - Render

    /// Connects every audio and CV port to `frames` frames of the caller's buses from
    /// `offset` (the silence or sink buffer for a channel the caller did not give), calling
    /// the plugin only for ports whose buffer moved, and reading nothing when the caller's
    /// ``BufferStamp`` is the one the ports were connected with.
    /// - Thread: [render]
    @inline(__always)
    func connectAudio(inputs: UnsafeBufferPointer<AudioBuffers>, outputs: UnsafeBufferPointer<AudioBuffers>, offset: Int, stamp: UInt64) {
        // The caller's stamp says the pointers are those the ports were connected to.
        if offset == 0 && stamp != 0 && connectedStamp.load(ordering: .relaxed) == stamp { return }
        connectedStamp.store(offset == 0 ? stamp : 0, ordering: .relaxed)
        for index in 0..<audioLinks.count {
            let link = audioLinks[index]
            let buses = link.isInput ? inputs : outputs
            let bus = Int(link.bus), channel = Int(link.channel)
            let buffer = bus < buses.count && channel < buses[bus].channelCount
                ? buses[bus].channelPointers[channel] + offset : (link.isInput ? silence : sink)
            let raw = UnsafeMutableRawPointer(buffer)
            if link.connected != raw {
                audioLinks[index].connected = raw
                connectFunction(handle, link.port, raw)
            }
        }
    }

    /// Fills the control input ports from `parameters` when any input parameter changed
    /// since the last fill.
    /// - Thread: [render]
    @inline(__always)
    func copyControlInputs(from parameters: ParameterTable) {
        guard controlCursor.advance(over: parameters) else { return }
        for control in inputControls {
            controls[Int(control.port)] = parameters.value(at: control.slot)
        }
    }

    /// Appends a run's events to the input sequences, which ``resetAtoms()`` left empty:
    /// the MIDI events in the window of `frames` frames from `offset`, and a `time:Position`
    /// when the transport jumped, started, stopped or changed tempo. Needed only when there
    /// are events or the plugin follows the transport (which this tracks every run).
    /// - Thread: [render]
    @inline(__always)
    func prepareAtoms(midi: UnsafeBufferPointer<MIDIEvent>, offset: Int, frames: Int, sampleTime: Double, transport: TransportState) {
        let last = cycle.pointee
        let sendPosition = sampleTime != last.expectedSampleTime || transport.isRolling != last.lastTransport.isRolling
            || transport.beatsPerMinute != last.lastTransport.beatsPerMinute
            || transport.frame != last.lastTransport.frame + Int64(last.lastFrames)
        cycle.pointee.lastTransport = transport
        cycle.pointee.lastFrames = transport.isRolling ? frames : 0
        if patchInput >= 0, let patch { patch._withUnsafeGuaranteedRef { $0.deliver(into: atomPorts[patchInput].sequence) } }
        for atom in atomPorts where atom.isInput {
            if atom.carriesTime && sendPosition {
                _ = atom.sequence.appendPosition(transport, urids)
            }
            if atom.carriesMIDI {
                for event in midi where Int(event.offset) >= offset && Int(event.offset) < offset + frames {
                    _ = atom.sequence.appendMIDI(event, frames: Int64(Int(event.offset) - offset), urids)
                }
            }
        }
        cycle.pointee.expectedSampleTime = sampleTime + Double(frames)
    }

    /// Whether a patch message waits for the plugin's next run.
    /// - Thread: [render]
    var hasPatchToSend: Bool {
        @inline(__always) get { patchInput >= 0 && patch?._withUnsafeGuaranteedRef { $0.hasOutgoing } == true }
    }

    /// Copies the plugin's `patch:Set` / `patch:Put` reports from its atom outputs to the
    /// control side, right after `run()`.
    /// - Thread: [render]
    @inline(__always)
    func collectPatchReports() {
        guard let patch else { return }
        patch._withUnsafeGuaranteedRef { channel in
            for atom in atomPorts where !atom.isInput { channel.collect(from: atom.sequence, urids) }
        }
    }

    /// Empties the input sequences and offers every output sequence its whole capacity
    /// again, right after `run()` (and after the MIDI output was collected), while the
    /// plugin's reads and writes of them are still in the cache: done before the next run,
    /// it cost a cache miss per port.
    /// - Thread: [render]
    @inline(__always)
    func resetAtoms() {
        for atom in atomPorts {
            if atom.isInput { atom.sequence.clear(urids) } else { atom.sequence.prepareOutput(urids) }
        }
    }

    /// Runs the plugin for `frames` frames, then delivers worker responses.
    /// - Thread: [render] The plugin call is the trust boundary.
    @inline(__always)
    func run(frames: Int) {
        runFunction(handle, UInt32(frames))
        if hasWorker { features.worker.deliverResponses() }
    }

    /// Appends the MIDI the plugin wrote to `list`, offsets made relative to the `process`
    /// call (`offset`: where this `run()` started in it).
    /// - Thread: [render]
    @inline(__always)
    func collectMIDIOutput(offset: Int, into list: UnsafeMutablePointer<MIDIOutputList>) {
        for atom in atomPorts where !atom.isInput && atom.carriesMIDI {
            atom.sequence.forEachMIDI(urids) { frames, status, data1, data2 in
                list.pointee.append(MIDIEvent(offset: Int32(frames) + Int32(offset), status: status, data1: data1, data2: data2))
            }
        }
    }
}
