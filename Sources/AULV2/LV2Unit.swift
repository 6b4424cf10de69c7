import AUCore
import Foundation

/// An LV2 plugin as an Audio Unit: audio ports become buses, control ports parameters
/// (outputs read-only), atom ports carry MIDI and transport. The lilv instance is made in
/// ``allocateRenderResources()`` (when the sample rate is known) and freed in
/// ``deallocateRenderResources()``.
/// - Thread: [control] for everything but ``process(_:)`` (render).
public final class LV2Unit: AudioUnit, RunReportedLatency, @unchecked Sendable {
    /// The plugin's URI.
    public let pluginURI: String
    /// How the unit renders: live (worker thread) or offline (immediate worker,
    /// deterministic). Set before ``initialize()``.
    public var renderMode: LV2RenderMode = .live
    /// The block length `run()` will usually get (`buf-size:nominalBlockLength`: a live
    /// host's period); nil: MaximumFramesPerSlice. Set before ``initialize()``. A plugin that
    /// prepares for the nominal length and meets another one reconfigures on its first run
    /// (Guitarix's convolvers do it in their worker, racing their own run()).
    /// - Thread: [control]
    public var nominalBlockLength: Int?
    /// Tempo sent in `time:Position` to plugins that follow the transport when the host
    /// gives no ``AudioUnit/hostTransport`` (a unit rendered on its own, outside a chain).
    public var beatsPerMinute: Double = 120
    /// The block length a plugin that requires `bufsz:fixedBlockLength` runs at; a graph
    /// gives it exactly such blocks (through a buffer adding that much latency). Set before
    /// ``initialize()``.
    public var fixedBlockFrames = 64
    /// Whether the plugin requires every `run()` to be ``fixedBlockFrames`` long.
    public let requiresFixedBlocks: Bool
    /// A fixed-block plugin gets whole cycles: its parameter changes apply at a block's start.
    /// - Thread: [any] (read on the render thread).
    public override var rendersWholeCycles: Bool { requiresFixedBlocks }
    /// Whether the plugin's errors and warnings are echoed on standard error.
    public var echoesPluginLog = true

    let world: LV2World
    let plugin: LilvPluginHandle
    let info: LV2PluginInfo
    let layout: LV2PortLayout
    /// The instance while initialized (control side owns it).
    var instance: LV2Instance?
    /// State waiting for an instance: restored right after instantiation.
    var pendingState: LilvStateHandle?
    /// The state last given through `ClassInfo`: what ``saveCustomState()`` saves.
    var givenState: LilvStateHandle?
    /// The factory presets, read on first use.
    var presetCache: [(uri: String, label: String)]?
    /// The plugin's patch properties (its property parameters) and the channel their
    /// messages travel on (nil: none, or no atom port to send them through).
    let patchProperties: LV2PatchProperties
    let patchChannel: LV2PatchChannel?
    let patchMessage: PatchMessage

    /// True when the plugin takes `time:Position` on an atom input (then it gets the
    /// transport every run).
    /// - Thread: [control & initialized]
    public override var followsHostTransport: Bool { instance?.followsTransport ?? false }

    /// The property values last set and last reported by the plugin, by identifier.
    var propertyValuesSet: [String: PropertyParameterValue] = [:]
    var propertyValuesReported: [String: PropertyParameterValue] = [:]
    /// The last instance had no state interface: the next gets the values set again.
    var resendsPropertyValues = false
    /// Property values set after a state that a new instance restored, with how many times
    /// each may still be sent again: the plugin may take the state in after the value (x42
    /// convoLV2 loads a restored file on its next run, dropping a file set meanwhile), so a
    /// report of another value sends the explicit one again (the value set always wins).
    var reassertsAfterRestore: [String: Int] = [:]
    /// A new instance took in a state with properties and has not reported a property
    /// since: the offline renderer waits, as for a value set (``awaitsPropertyReports``).
    var awaitsRestoredStateReport = false

    /// Makes an uninitialized unit of the plugin `reading` read.
    /// - Thread: [control]
    init(world: LV2World, reading: LV2PluginReading, info: LV2PluginInfo, description: ComponentDescription) throws(AudioUnitError) {
        let missing = LV2HostFeatures.missing(info.requiredFeatures)
        guard missing.isEmpty else {
            throw AudioUnitError(
                .unsupportedType,
                "\(info.uri) requires the host feature\(missing.count > 1 ? "s" : "") \(missing.joined(separator: ", ")), which AUHost does not provide")
        }
        if let binary = info.binaryPath, !FileManager.default.fileExists(atPath: binary) {
            throw AudioUnitError(.unsupportedType, "\(info.uri): its binary \(binary) does not exist")
        }
        let ports = reading.ports
        for port in ports {
            if case .unsupported(let classes) = port.kind, !port.isOptional {
                throw AudioUnitError(.unsupportedType, "\(info.uri): port '\(port.symbol)' has a type AUHost cannot connect (\(classes))")
            }
        }
        let layout = LV2PortLayout(ports: ports, sampleRate: 48_000)
        for bus in layout.inputBuses + layout.outputBuses where bus.ports.count > 64 {
            throw AudioUnitError(.unsupportedType, "\(info.uri): bus '\(bus.name)' has \(bus.ports.count) channels; at most 64 are supported")
        }
        pluginURI = info.uri
        self.world = world
        plugin = reading.plugin
        self.info = info
        self.layout = layout
        requiresFixedBlocks = info.requiredFeatures.contains(LV2URI.bufSizeFixedBlockLength)
        patchProperties = LV2PatchProperties(reading.patchProperties, urids: world.urids)
        patchChannel = patchProperties.entries.isEmpty || !layout.ports.contains { $0.kind == .atom } ? nil : LV2PatchChannel()
        patchMessage = PatchMessage(urids: PatchMessage.URIDs(world.urids))
        super.init(
            description: description, name: info.name, inputs: layout.configurations(layout.inputBuses, sampleRate: 48_000),
            outputs: layout.configurations(layout.outputBuses, sampleRate: 48_000), parameters: layout.parameters)
    }

    deinit { dispose() }

    // MARK: - Life cycle

    /// - Thread: [control]
    public override func allocateRenderResources() throws(AudioUnitError) {
        // A unit without buses reads the global rate as AUCore's untyped default; use 48 kHz then.
        let sampleRate = (try? value(of: .sampleRate)) ?? 48_000
        let maximumFrames = try value(of: .maximumFramesPerSlice)
        let sequenceSize = max(8192, layout.ports.map(\.minimumSize).max() ?? 0)
        let mentions = info.requiredFeatures + info.optionalFeatures
        let powerOf2 = mentions.contains(LV2URI.bufSizePowerOf2BlockLength)
        let features = LV2HostFeatures(
            urids: world.urids, pluginURI: pluginURI, sampleRate: sampleRate, maximumFrames: maximumFrames,
            nominalFrames: min(maximumFrames, nominalBlockLength ?? maximumFrames), sequenceSize: sequenceSize, mode: renderMode, powerOf2: powerOf2, fixedBlock: requiresFixedBlocks ? fixedBlockFrames : nil,
            echoLog: echoesPluginLog)
        let made = try LV2Instance(
            plugin: plugin, uri: pluginURI, layout: layout, features: features, urids: world.urids, sampleRate: sampleRate,
            maximumFrames: maximumFrames, sequenceSize: sequenceSize, powerOf2: powerOf2, parameters: parameters, patch: patchChannel)
        instance = made
        if let pending = pendingState {
            try restore(pending, into: made)
            pendingState = nil
            reassertsAfterRestore = propertyValuesSet.mapValues { _ in Self.reassertLimit }
            awaitsRestoredStateReport = patchChannel != nil && pending.propertyCount > 0
        } else if mentions.contains(LV2URI.stateLoadDefaultState), let defaults = LilvStateHandle(resource: pluginURI, world: world) {
            try restore(defaults, into: made)
        }
        startPropertyReports(made)
        made.activate()
        // The render thread finds the instance through the unit's first cache line.
        backendRenderState.publish(made)
    }

    /// Frees the instance, keeping the plugin's own state (its properties, through its state
    /// interface) for the next instance: an AudioUnit keeps its state across uninitialize and
    /// initialize, and a host that instantiates again (the offline renderer after its
    /// latency-priming cycle) would otherwise start over without the restored state — Calf
    /// Fluidsynth without its soundfont, rendering silence.
    /// - Thread: [control]
    public override func deallocateRenderResources() {
        backendRenderState.publish(nil)
        if let instance, instance.hasStateInterface, pendingState == nil { pendingState = try? capture(instance, directory: nil, portValues: false) }
        if let instance, !instance.hasStateInterface, !propertyValuesSet.isEmpty { resendsPropertyValues = true }
        instance = nil
    }

    /// - Thread: [control]
    public override func resetState() {
        guard let instance else { return }
        instance.gate.withControl {
            instance.deactivate()
            instance.activate()
            instance.cycle.pointee.expectedSampleTime = -.infinity
        }
    }

    /// - Thread: [control]
    public override func disposeResources() {
        instance = nil
        pendingState = nil
    }

    /// The latency the plugin reports on its `lv2:reportsLatency` output, in seconds.
    /// - Thread: [control]
    public override var latency: Double {
        let slot = layout.latencySlot
        guard slot >= 0 else { return 0 }
        let rate = (try? value(of: .sampleRate)) ?? 48_000
        return Double(parameters.value(at: slot)) / rate
    }

    // MARK: - State and presets (LV2Unit+State.swift)

    /// - Thread: [control]
    public override func saveCustomState() throws(AudioUnitError) -> Data? { try savePluginState() }
    /// - Thread: [control]
    public override func restoreCustomState(_ data: Data) throws(AudioUnitError) { try restorePluginState(data) }
    /// - Thread: [control]
    public override var factoryPresets: [UnitPreset] { presetList }
    /// - Thread: [control]
    public override func applyFactoryPreset(_ preset: UnitPreset) throws(AudioUnitError) { try applyPreset(preset) }

    // MARK: - Property parameters (LV2Unit+Properties.swift)

    /// The plugin's `patch:writable` and `patch:readable` properties.
    /// - Thread: [control]
    public override var propertyParameters: [PropertyParameterInfo] { patchProperties.entries.map(\.info) }
    /// Sends the plugin a `patch:Set` (a path is checked first: an existing, readable regular file).
    /// - Thread: [control]
    public override func setPropertyParameter(_ identifier: String, to value: PropertyParameterValue) throws(AudioUnitError) {
        try setProperty(identifier, to: value)
    }
    /// What the plugin last reported for the property, else what was last set, else its default.
    /// - Thread: [control]
    public override func propertyParameterValue(_ identifier: String) -> PropertyParameterValue? { propertyValue(identifier) }

    /// True when the plugin reports its latency on a control output (`lv2:reportsLatency`),
    /// which it writes only when it runs: ``AudioUnit/latency`` is 0 until the first cycle.
    /// - Thread: [control]
    public var reportsLatencyWhenRun: Bool { layout.latencySlot >= 0 }

    /// The output parameter that holds the plugin's latency in frames (its latency output),
    /// nil when it has none (its latency is then 0).
    /// - Thread: [any]
    public var latencyParameter: Int? { layout.latencySlot >= 0 ? layout.latencySlot : nil }

    /// What the plugin's latency output holds (frames), nil when it has none: what it last
    /// reported, or what ``seedReportedLatency(_:)`` set.
    /// - Thread: [control]
    public var reportedLatency: Float? { reportsLatencyWhenRun ? parameters.value(at: layout.latencySlot) : nil }

    /// Sets the latency output to `frames` before the first cycle, for a host that knows the
    /// latency from another instance made the same way, so that a graph compensates it from
    /// the start (AUHost's `ReportedLatencies`; the plugin writes it again when it runs).
    /// Nothing for a plugin without a latency output.
    /// - Thread: [control]
    public func seedReportedLatency(_ frames: Float) {
        if reportsLatencyWhenRun { parameters.storeValue(frames, at: layout.latencySlot) }
    }

    /// True when the plugin has an atom output port that supports `midi:MidiEvent`.
    /// - Thread: [control]
    public override var producesMIDIOutput: Bool {
        layout.ports.contains { $0.kind == .atom && !$0.isInput && $0.supportsMIDI }
    }

    /// True when the plugin has an atom input port that supports `midi:MidiEvent` (or is
    /// an instrument, music effect or MIDI processor by type).
    /// - Thread: [control]
    public override var acceptsMIDIInput: Bool {
        super.acceptsMIDIInput || layout.ports.contains { $0.kind == .atom && $0.isInput && $0.supportsMIDI }
    }

    /// What the plugin logged recently (`level: text`, oldest first).
    /// - Thread: [control]
    public var pluginLog: [String] {
        guard let instance else { return [] }
        instance.features.log.drain()
        return instance.features.log.recentMessages
    }

    /// How often the plugin asked, from `run()`, for a URID the host had not mapped yet.
    /// - Thread: [control]
    public var renderThreadURIDMisses: Int { world.urids.renderThreadMisses }

    // MARK: - Render

    /// - Thread: [render] No allocation, no lock: silent for a cycle while the control side holds the
    ///   instance's gate.
    public override func process(_ context: ProcessContext) -> AudioUnitStatus {
        guard let published = backendRenderState.reference(as: LV2Instance.self) else { return AudioUnitErrorCode.uninitialized.rawValue }
        // Not retained: the unit holds the instance for as long as it is published here.
        return published._withUnsafeGuaranteedRef { instance in
            guard instance.gate.enterRender() else {
                for output in context.outputs { output.clear() }
                return 0
            }
            defer { instance.gate.leaveRender() }
            render(instance, context)
            return 0
        }
    }

    /// Fills the input sequences for one run: MIDI and, for a plugin that follows it, the
    /// transport. Kept out of line: inlined, the read of the transport's stored properties
    /// made the optimizer begin an exclusivity-checked access before every run, whether
    /// the plugin needs atoms or not.
    /// - Thread: [render]
    @inline(never)
    private func prepareAtoms(_ instance: LV2Instance, _ context: ProcessContext, offset: Int, frames: Int) {
        instance.prepareAtoms(
            midi: context.midiEvents, offset: offset, frames: frames, sampleTime: context.timestamp.sampleTime + Double(offset),
            transport: instance.followsTransport ? transport(at: context.timestamp, offset: offset, sampleRate: instance.sampleRate) : TransportState())
    }

    /// One cycle of the plugin: control inputs in, `run()` (in power-of-two pieces when the
    /// plugin wants them), control outputs and MIDI out.
    /// - Thread: [render]
    @inline(__always)
    private func render(_ instance: LV2Instance, _ context: ProcessContext) {
        let parameters = self.parameters
        instance.copyControlInputs(from: parameters)
        let previousLatency = instance.publishesOutputs && instance.latencySlot >= 0 ? parameters.value(at: instance.latencySlot) : 0
        var start = 0
        while start < context.frameCount {
            var frames = context.frameCount - start
            if instance.powerOf2 { frames = 1 << (Int.bitWidth - 1 - frames.leadingZeroBitCount) }
            instance.connectAudio(inputs: context.inputs, outputs: context.outputs, offset: start, stamp: context.buffersStamp)
            if instance.followsTransport || (instance.hasAtomPorts && !context.midiEvents.isEmpty) || instance.hasPatchToSend {
                prepareAtoms(instance, context, offset: start, frames: frames)
            }
            instance.run(frames: frames)
            if instance.hasAtomPorts {
                if instance.sendsMIDI, let output = context.midiOutput { instance.collectMIDIOutput(offset: start, into: output) }
                instance.collectPatchReports()
                instance.resetAtoms()
            }
            start += frames
        }
        guard instance.publishesOutputs else { return }
        for control in instance.outputControls {
            setParameterFromRender(at: control.slot, value: instance.controls[Int(control.port)])
        }
        if instance.latencySlot >= 0 && parameters.value(at: instance.latencySlot) != previousLatency {
            notifyPropertyChangeFromRender(.latency)
        }
    }
}

extension LV2PortLayout {
    /// The parameter slot of the first `lv2:reportsLatency` output, or -1.
    var latencySlot: Int {
        for (slot, port) in parameterPorts.enumerated() where !ports[Int(port)].isInput && ports[Int(port)].reportsLatency {
            return slot
        }
        return -1
    }
}

extension LV2Unit {
    /// The transport `frames` into the cycle: the host's (JACK transport) when it gives one,
    /// else a rolling 4/4 transport at ``beatsPerMinute`` counted from the sample time.
    /// - Thread: [render]
    @inline(__always)
    func transport(at timestamp: RenderTimestamp, offset: Int, sampleRate: Double) -> TransportState {
        if let host = currentTransport {
            var state = host
            guard state.isRolling, offset > 0 else { return state }
            let beats = Double(offset) / sampleRate * state.beatsPerMinute / 60
            state.frame += Int64(offset)
            state.beat += beats
            state.beatInBar += beats
            while state.beatInBar >= state.beatsPerBar {
                state.beatInBar -= state.beatsPerBar
                state.bar += 1
            }
            return state
        }
        var state = TransportState.counted(sampleTime: timestamp.sampleTime + Double(offset), sampleRate: sampleRate, beatsPerMinute: beatsPerMinute)
        state.isRolling = timestamp.rateScalar != 0
        return state
    }
}

extension LV2Unit: BlockSizeConstrained {
    /// `fixed(fixedBlockFrames)` for plugins that require `bufsz:fixedBlockLength`, else any
    /// (power-of-two plugins are split inside ``process(_:)``).
    /// - Thread: [control]
    public var blockSizeRequirement: BlockSizeRequirement {
        requiresFixedBlocks ? .fixed(fixedBlockFrames) : .any
    }
}
