import AUCore
import CLilv

/// A running plugin instance and everything its `run()` touches, allocated together on
/// the control thread when the unit is initialized and freed together (deactivate, free
/// the instance, then the features it was given) when it is uninitialized.
///
/// All render-side tables are raw buffers so that the render thread reads them without
/// ARC traffic or allocation.
/// - Thread: created and released on the control thread; the `render…` members are used on
///   the render thread.
final class LV2Instance: @unchecked Sendable {
    let raw: UnsafeMutablePointer<LilvInstance>
    let features: LV2HostFeatures
    let handle: LV2_Handle?
    let runFunction: @convention(c) (LV2_Handle?, UInt32) -> Void
    let connectFunction: @convention(c) (LV2_Handle?, UInt32, UnsafeMutableRawPointer?) -> Void
    let urids: AtomURIDs
    let sampleRate: Double
    let maximumFrames: Int
    let powerOf2: Bool

    /// One float per port; control ports are connected here once.
    let controls: UnsafeMutablePointer<Float>
    /// One float per port where state saving puts port values for lilv (control side).
    let stateValues: UnsafeMutablePointer<Float>
    /// (parameter slot, port index) of control inputs, then of control outputs.
    let inputControls: UnsafeMutableBufferPointer<(slot: Int, port: UInt32)>
    let outputControls: UnsafeMutableBufferPointer<(slot: Int, port: UInt32)>
    /// Port index per channel of each bus, flattened; `…BusStarts[bus]` is its first channel.
    let inputPorts: UnsafeMutableBufferPointer<UInt32>
    let inputBusStarts: UnsafeMutableBufferPointer<Int>
    let outputPorts: UnsafeMutableBufferPointer<UInt32>
    let outputBusStarts: UnsafeMutableBufferPointer<Int>
    /// Atom ports: index, direction, what they carry, and their buffers.
    let atomPorts: UnsafeMutableBufferPointer<AtomPort>
    /// Silence for input channels the caller did not give; a sink for output channels.
    let silence: UnsafeMutablePointer<Float>
    let sink: UnsafeMutablePointer<Float>
    /// The slot of the `lv2:reportsLatency` output, or -1.
    let latencySlot: Int
    /// What the render path must do besides `run()`, decided once so that a plain effect
    /// skips it: fill or offer atom sequences, compute the transport for `time:Position`,
    /// collect MIDI output, deliver worker responses.
    let hasAtomPorts: Bool
    let followsTransport: Bool
    let sendsMIDI: Bool
    let hasWorker: Bool
    /// What the render thread carries from one cycle to the next, behind a pointer: class
    /// properties would cost an exclusivity check on every access.
    let cycle: UnsafeMutablePointer<CycleState>
    /// The buffer each port is connected to (audio and CV ports are reconnected only when
    /// the caller's buffers move, which in a graph they do not).
    private let connected: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    struct CycleState {
        /// The sample time the next cycle continues from (time:Position is sent on a jump).
        var expectedSampleTime = -Double.infinity
        /// The transport sent last, to send a new time:Position when it stops, starts, jumps or changes tempo.
        var lastTransport = TransportState(frame: Int64.min / 2)
        var lastFrames = 0
        /// The parameter table's ``ParameterTable/inputChangeCount`` when the control ports
        /// were last filled (nil: never).
        var copiedChanges: UInt64?
    }

    struct AtomPort {
        var index: UInt32
        var isInput: Bool
        var carriesMIDI: Bool
        var carriesTime: Bool
        var sequence: AtomSequence
    }

    /// Instantiates the plugin and connects its control and atom ports.
    /// - Thread: control, inside the world's lock.
    init(
        plugin: OpaquePointer, uri: String, layout: LV2PortLayout, features: LV2HostFeatures, urids: URIDMap,
        sampleRate: Double, maximumFrames: Int, sequenceSize: Int, powerOf2: Bool, parameters: ParameterTable
    ) throws(AudioUnitError) {
        guard let raw = lilv_plugin_instantiate(plugin, sampleRate, features.pointer) else {
            features.log.drain()
            let said = features.log.recentMessages
            throw AudioUnitError(
                .failedInitialization,
                "\(uri): the plugin's instantiate() returned NULL at \(Int(sampleRate)) Hz"
                    + (said.isEmpty ? "" : "; it logged: " + said.joined(separator: " | ")))
        }
        self.raw = raw
        self.features = features
        handle = raw.pointee.lv2_handle
        guard let descriptor = raw.pointee.lv2_descriptor, let run = descriptor.pointee.run, let connect = descriptor.pointee.connect_port else {
            lilv_instance_free(raw)
            throw AudioUnitError(.failedInitialization, "\(uri): the plugin's descriptor has no run() or connect_port()")
        }
        runFunction = run
        connectFunction = connect
        self.urids = AtomURIDs(urids)
        self.sampleRate = sampleRate
        self.maximumFrames = maximumFrames
        self.powerOf2 = powerOf2

        let portCount = layout.ports.count
        controls = .allocate(capacity: max(1, portCount))
        controls.initialize(repeating: 0, count: max(1, portCount))
        stateValues = .allocate(capacity: max(1, portCount))
        stateValues.initialize(repeating: 0, count: max(1, portCount))
        var inputs: [(slot: Int, port: UInt32)] = []
        var outputs: [(slot: Int, port: UInt32)] = []
        var latency = -1
        for (slot, port) in layout.parameterPorts.enumerated() {
            let info = layout.ports[Int(port)]
            controls[Int(port)] = parameters.value(at: slot)
            if info.isInput { inputs.append((slot, port)) } else { outputs.append((slot, port)) }
            if !info.isInput && info.reportsLatency && latency < 0 { latency = slot }
        }
        latencySlot = latency
        inputControls = .allocate(capacity: inputs.count)
        _ = inputControls.initialize(from: inputs)
        outputControls = .allocate(capacity: outputs.count)
        _ = outputControls.initialize(from: outputs)

        func flatten(_ buses: [LV2PortLayout.Bus]) -> (UnsafeMutableBufferPointer<UInt32>, UnsafeMutableBufferPointer<Int>) {
            let ports = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: buses.reduce(0) { $0 + $1.ports.count })
            let starts = UnsafeMutableBufferPointer<Int>.allocate(capacity: buses.count + 1)
            var position = 0
            for (index, bus) in buses.enumerated() {
                starts[index] = position
                for port in bus.ports { ports[position] = port; position += 1 }
            }
            starts[buses.count] = position
            return (ports, starts)
        }
        (inputPorts, inputBusStarts) = flatten(layout.inputBuses)
        (outputPorts, outputBusStarts) = flatten(layout.outputBuses)

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
        atomPorts = .allocate(capacity: atoms.count)
        _ = atomPorts.initialize(from: atoms)
        hasAtomPorts = !atoms.isEmpty
        followsTransport = atoms.contains { $0.isInput && $0.carriesTime }
        sendsMIDI = atoms.contains { !$0.isInput && $0.carriesMIDI }

        cycle = .allocate(capacity: 1)
        cycle.initialize(to: CycleState())
        connected = .allocate(capacity: max(1, portCount))
        connected.initialize(repeating: nil, count: max(1, portCount))
        for port in layout.ports {
            switch port.kind {
            case .control: connect(handle, port.index, controls + Int(port.index))
            case .atom: break
            case .audio, .cv:
                connected[Int(port.index)] = UnsafeMutableRawPointer(port.isInput ? silence : sink)
                connect(handle, port.index, connected[Int(port.index)])
            case .unsupported: connect(handle, port.index, nil)
            }
        }
        for atom in atomPorts { connect(handle, atom.index, atom.sequence.buffer) }

        let workerInterface = descriptor.pointee.extension_data?(LV2URI.workerInterface)
        hasWorker = workerInterface != nil
        features.worker.attach(handle: handle, interface: workerInterface?.assumingMemoryBound(to: LV2_Worker_Interface.self))
    }

    /// Activates the instance (after any state was restored).
    /// - Thread: control.
    func activate() { raw.pointee.lv2_descriptor.pointee.activate?(handle) }

    deinit {
        features.worker.stop()
        raw.pointee.lv2_descriptor.pointee.deactivate?(handle)
        lilv_instance_free(raw)
        features.log.drain()
        controls.deallocate()
        stateValues.deallocate()
        inputControls.deallocate()
        outputControls.deallocate()
        inputPorts.deallocate()
        inputBusStarts.deallocate()
        outputPorts.deallocate()
        outputBusStarts.deallocate()
        for atom in atomPorts { atom.sequence.buffer.deallocate() }
        atomPorts.deallocate()
        silence.deallocate()
        sink.deallocate()
        cycle.deallocate()
        connected.deallocate()
    }

    // MARK: - Render

    /// Connects every audio and CV port to `frames` frames of the caller's buses from `offset`.
    /// - Thread: render.
    @inline(__always)
    func connectAudio(inputs: UnsafeBufferPointer<AudioBuffers>, outputs: UnsafeBufferPointer<AudioBuffers>, offset: Int) {
        for bus in 0..<(inputBusStarts.count - 1) {
            let start = inputBusStarts[bus]
            for channel in 0..<(inputBusStarts[bus + 1] - start) {
                let pointer = bus < inputs.count && channel < inputs[bus].channelCount ? inputs[bus].channelPointers[channel] + offset : silence
                connect(inputPorts[start + channel], to: pointer)
            }
        }
        for bus in 0..<(outputBusStarts.count - 1) {
            let start = outputBusStarts[bus]
            for channel in 0..<(outputBusStarts[bus + 1] - start) {
                let pointer = bus < outputs.count && channel < outputs[bus].channelCount ? outputs[bus].channelPointers[channel] + offset : sink
                connect(outputPorts[start + channel], to: pointer)
            }
        }
    }

    /// Connects an audio or CV port unless it is connected there already.
    /// - Thread: render.
    @inline(__always)
    private func connect(_ port: UInt32, to buffer: UnsafeMutablePointer<Float>) {
        let raw = UnsafeMutableRawPointer(buffer)
        guard connected[Int(port)] != raw else { return }
        connected[Int(port)] = raw
        connectFunction(handle, port, raw)
    }

    /// Fills the control input ports from `parameters` when any input parameter changed
    /// since the last fill.
    /// - Thread: render.
    @inline(__always)
    func copyControlInputs(from parameters: ParameterTable) {
        let changes = parameters.inputChangeCount
        guard cycle.pointee.copiedChanges != changes else { return }
        cycle.pointee.copiedChanges = changes
        for control in inputControls {
            controls[Int(control.port)] = parameters.value(at: control.slot)
        }
    }

    /// Fills the input sequences for a run of `frames` frames starting `offset` frames into
    /// the slice (MIDI events in that window, a time:Position when the transport jumped)
    /// and offers every output sequence its whole capacity.
    /// - Thread: render.
    @inline(__always)
    func prepareAtoms(midi: UnsafeBufferPointer<MIDIEvent>, offset: Int, frames: Int, sampleTime: Double, transport: TransportState) {
        let last = cycle.pointee
        let sendPosition = sampleTime != last.expectedSampleTime || transport.isRolling != last.lastTransport.isRolling
            || transport.beatsPerMinute != last.lastTransport.beatsPerMinute
            || transport.frame != last.lastTransport.frame + Int64(last.lastFrames)
        cycle.pointee.lastTransport = transport
        cycle.pointee.lastFrames = transport.isRolling ? frames : 0
        for atom in atomPorts {
            guard atom.isInput else {
                atom.sequence.prepareOutput(urids)
                continue
            }
            atom.sequence.clear(urids)
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

    /// Runs the plugin for `frames` frames, then delivers worker responses.
    /// - Thread: render. The plugin call is the trust boundary.
    @inline(__always)
    func run(frames: Int) {
        runFunction(handle, UInt32(frames))
        if hasWorker { features.worker.deliverResponses() }
    }

    /// Passes the MIDI the plugin wrote to `ring`, offsets made relative to the slice.
    /// - Thread: render.
    @inline(__always)
    func collectMIDIOutput(offset: Int, into ring: RealTimeRing<MIDIEvent>) {
        for atom in atomPorts where !atom.isInput && atom.carriesMIDI {
            atom.sequence.forEachMIDI(urids) { frames, status, data1, data2 in
                ring.push(MIDIEvent(offset: Int32(frames) + Int32(offset), status: status, data1: data1, data2: data2))
            }
        }
    }
}
