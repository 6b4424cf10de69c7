import Foundation
import Synchronization

/// An Audio Unit instance: the life cycle, the properties, the parameters and the render
/// entry points that every backend (LV2, native, built-in) shares. A backend subclasses it
/// and overrides the hooks in ``AudioUnit`` marked `open`.
///
/// Life cycle, as in Core Audio: create (uninitialized) → set properties → ``initialize()``
/// (allocates render resources) → ``render(flags:timestamp:outputBus:buffers:)`` / ``reset()``
/// → ``uninitialize()`` → ``dispose()``. A call made in the wrong state fails with the Core
/// Audio error for it.
///
/// - Thread: [control] for everything but the render entry points, which are render-thread
///   only; parameter values may be read and set from any thread.
open class AudioUnit: @unchecked Sendable {
    // What the render entry points check every cycle comes first, so that it shares the
    // object's first cache line with its header (stored properties are laid out in
    // declaration order): after a plugin's run() each further line is another cache miss.
    // They are atomics stored in the unit itself: reading a class `var` would cost an
    // exclusivity check and a retain, and a separate allocation another line.

    /// The render resources, published on the control thread only while no render runs
    /// (initialize, uninitialize), as the limits below.
    let renderResourcesSlot = RenderSlot<RenderResources>()
    /// MaximumFramesPerSlice in the high 32 bits, the input bus count in the next 16, the
    /// output bus count in the low 16.
    let renderLimits = Atomic<Int>(AudioUnit.defaultMaximumFramesPerSlice << 32)
    /// Where a backend publishes its render-side state (an LV2 unit: its plugin instance),
    /// empty while it has none: read in this first cache line rather than in the subclass's
    /// fields, which come after all of these.
    package let backendRenderState = RenderSlot<AnyObject>()
    /// Events pushed into the four event rings and not yet taken by the render thread
    /// (may dip below zero while a push is being counted): one load tells an idle cycle
    /// that there is nothing to take, without touching the rings.
    let pendingEvents = Atomic<Int>(0)
    let bypassed = Atomic<Bool>(false)
    /// True while parameter ramps are in flight (render thread only).
    let rampsActive = Atomic<Bool>(false)
    let lastRenderError = Atomic<Int32>(0)
    /// Whether ``renderNotifies`` holds any, kept here in the first cache line (the table's
    /// own word is two dependent loads away): a render entry point with none reads only this.
    let hasRenderNotifies = Atomic<Bool>(false)
    /// Whether one of them may change the buffers (not `readsOnly`): the unit renders in no ``UnitRun``.
    let hasWritingRenderNotifies = Atomic<Bool>(false)
    /// The frames of the current render call (since ``renderCycleFromGraph(timestamp:frameCount:inputs:outputs:midi:buffersStamp:)``
    /// began) whose every output sample the unit checked to be finite as it wrote them (a
    /// native unit says so with `AUHOST_EVENT_OUTPUT_FINITE`): the graph does not scan an
    /// output the unit checked whole. 0 for a unit that does not check.
    /// - Thread: [render] only (an atomic for its plain loads and stores: a class's `var`
    /// would pay a run-time exclusivity check in every other module).
    public let checkedOutputFrames = Atomic<Int>(0)
    public let parameters: ParameterTable
    /// Counts the render thread's changes to output parameters (meters): they reach the
    /// listeners by ``dispatchPendingNotifications()`` comparing values, not through the
    /// notification ring, whose push cost cache misses on every metered cycle.
    let outputPublications = Atomic<UInt64>(0)

    public let componentDescription: ComponentDescription
    public let name: String
    public private(set) var state: UnitState = .uninitialized

    /// The buses of the input and output scopes and where each input gets its audio.
    var elements: ElementStore
    /// Where each input bus gets its audio, as the render thread reads it: ``elements``
    /// publishes every change (no render reads the control side's list).
    let renderInputSources = RenderSnapshot<RenderInputSource>()
    var maximumFrames = AudioUnit.defaultMaximumFramesPerSlice
    /// The global SampleRate, for units without buses (MIDI processors); buses carry their own.
    var unitSampleRate = 48_000.0
    var presentPreset = UnitPreset(number: -1, name: "Untitled")

    /// Default for `MaximumFramesPerSlice` (large enough for 4096-frame offline blocks).
    public static let defaultMaximumFramesPerSlice = 4096
    /// How many parameter events and MIDI events one cycle can carry.
    public static let eventCapacity = 512
    /// How many parameter changes (events and ramp steps) one ``process(_:)`` call of a unit
    /// that ``takesTimedParameterChanges`` carries at most.
    public static let parameterChangeCapacity = 4 * eventCapacity
    /// Ramps move in steps of at most this many frames (a slice, or a step event for a unit
    /// that applies parameter events itself).
    public static let rampSliceFrames = 16

    let listeners = ListenerCenter()
    let parameterEvents = SharedProducerRing<ParameterEvent>(minimumCapacity: AudioUnit.eventCapacity)
    let midiEvents = SharedProducerRing<MIDIEvent>(minimumCapacity: AudioUnit.eventCapacity)
    /// Parameter events the render thread hands over for the next call (a graph's; single producer).
    let renderParameterEvents = RealTimeRing<ParameterEvent>(minimumCapacity: AudioUnit.eventCapacity)
    let notifications = RealTimeRing<UnitNotification>(minimumCapacity: 1024)
    /// `AudioUnitAddRenderNotify`'s callbacks, published to the render thread.
    let renderNotifies = RenderNotifyTable()
    /// ``parameters``, ``notifications`` and ``renderParameterEvents`` unretained, for the
    /// render thread: reading a reference from a stored property retains it for the call,
    /// an `Unmanaged` does not.
    let unretainedParameters: Unmanaged<ParameterTable>
    let unretainedNotifications: Unmanaged<RealTimeRing<UnitNotification>>
    let unretainedRenderParameterEvents: Unmanaged<RealTimeRing<ParameterEvent>>
    /// What the listeners last heard of the output parameters.
    let notifiedOutputs: Mutex<NotifiedOutputs>

    /// The output-parameter publication count and values the listeners were last told.
    struct NotifiedOutputs {
        var publications: UInt64 = 0
        var values: [UInt32]
    }

    /// Everything the render thread touches, allocated by `initialize()`.
    var renderResources: RenderResources? {
        didSet {
            renderLimits.store(
                maximumFrames << 32 | (renderResources?.inputs.count ?? 0) << 16 | (renderResources?.outputs.count ?? 0), ordering: .relaxed)
            renderResourcesSlot.publish(renderResources)
        }
    }

    /// The host's transport, read by units that follow tempo and position (LV2
    /// `time:Position`, native transport info). Set before initialize; nil: none.
    /// - Thread: [control] (set); render (read).
    public var hostTransport: HostTransport? {
        didSet { hostTransportSlot.publish(hostTransport) }
    }
    let hostTransportSlot = RenderSlot<HostTransport>()

    /// Whether the unit reads ``hostTransport`` while it renders. A driver publishes the
    /// transport once per cycle, so the plan compiler pipelines no chain with such a unit
    /// (its stage would render a slice of another part of the cycle). False here; units that
    /// may read it say so.
    /// - Thread: [control & initialized]
    open var followsHostTransport: Bool { false }
    /// The properties a subclass declared with IDs from 64000 up (``declareProperty(_:scope:element:initialValue:isWritable:)``).
    var customProperties = CustomPropertyStore()

    /// Creates an uninitialized unit with the given buses and parameters.
    /// - Thread: [control]
    public init(
        description: ComponentDescription, name: String, inputs: [BusConfiguration],
        outputs: [BusConfiguration], parameters: [ParameterInfo]
    ) {
        componentDescription = description
        self.name = name
        elements = ElementStore(inputs: inputs, outputs: outputs, renderSources: renderInputSources)
        let table = ParameterTable(parameters)
        self.parameters = table
        unretainedParameters = Unmanaged.passUnretained(table)
        unretainedNotifications = Unmanaged.passUnretained(notifications)
        unretainedRenderParameterEvents = Unmanaged.passUnretained(renderParameterEvents)
        notifiedOutputs = Mutex(NotifiedOutputs(values: table.outputSlots.map { table.value(at: $0).bitPattern }))
    }

    // MARK: - Hooks for backends

    /// Allocates what the unit needs to render with the current formats and
    /// MaximumFramesPerSlice. Throw to refuse initialization.
    /// - Thread: [control]
    open func allocateRenderResources() throws(AudioUnitError) {}

    /// Frees what ``allocateRenderResources()`` allocated.
    /// - Thread: [control]
    open func deallocateRenderResources() {}

    /// Produces `context.frameCount` frames into every output from the inputs; parameter
    /// values are current for the slice. Returns 0 or an error status.
    /// - Thread: [render] No allocation, no lock, no blocking call.
    open func process(_ context: ProcessContext) -> AudioUnitStatus { 0 }

    /// Clears delay lines, envelopes and other running state.
    /// - Thread: [control] (never concurrently with a render).
    open func resetState() {}

    /// Checks a stream format before it is set on a bus; the default accepts canonical
    /// float formats with the bus's current channel count.
    /// - Thread: [control]
    open func validateFormat(_ format: StreamFormat, scope: Scope, element: Element) throws(AudioUnitError) {
        try format.validate()
        guard format.isFloat, !format.isInterleaved, format.bitsPerChannel == 32 else {
            throw AudioUnitError(.formatNotSupported, "\(name): \(scope) bus \(element) renders 32-bit float non-interleaved, not \(format)")
        }
        let current = try busConfiguration(scope: scope, element: element).format
        guard format.channelsPerFrame == current.channelsPerFrame else {
            throw AudioUnitError(
                .formatNotSupported,
                "\(name): \(scope) bus \(element) has \(current.channelsPerFrame) channel(s), not \(format.channelsPerFrame)")
        }
    }

    /// True for units that send MIDI (an LV2 plugin with a MIDI output port, a native unit
    /// with the MIDI output extension, a MIDI processor): their render calls get a
    /// ``MIDIOutputList`` (``ProcessContext/sendMIDI(_:)``) that the graph routes on.
    /// Read when the unit is initialized.
    /// - Thread: [control]
    open var producesMIDIOutput: Bool { false }

    /// True for units that take MIDI in (instruments, music effects, MIDI processors, and
    /// any unit with a MIDI input port): where a graph's MIDI input goes when nothing says.
    /// - Thread: [control]
    open var acceptsMIDIInput: Bool {
        [ComponentType.musicDevice, ComponentType.musicEffect, ComponentType.midiProcessor].contains(componentDescription.type)
    }

    /// True for units that must render every cycle whole (a plugin that needs fixed block
    /// lengths): parameter events then apply at the cycle's first frame instead of splitting it.
    /// - Thread: [any] (read on the render thread: return a constant).
    open var rendersWholeCycles: Bool { false }

    /// True for units that apply parameter changes at their frames themselves (a native
    /// unit, whose C ABI carries event offsets): the ``ParameterScheduler`` then renders a
    /// cycle in one call and hands the changes over in ``ProcessContext/parameterChanges``
    /// instead of cutting the cycle at each of them.
    /// - Thread: [any] (read on the render thread: return a constant).
    open var takesTimedParameterChanges: Bool { false }

    /// Whether this unit and `next`, when `next` reads this unit's only output and nothing
    /// else reads it, can render in one ``UnitRun`` (two isolated units in one child).
    /// - Thread: [control]
    open func rendersInRun(with next: AudioUnit) -> Bool { false }

    /// A run of this unit and `followers` in order (each ``rendersInRun(with:)`` the one
    /// after it), nil when the unit renders no runs.
    /// - Thread: [control]
    open func makeRun(followedBy followers: [AudioUnit]) -> UnitRun? { nil }

    /// Whether the number of buses in a scope may be changed (a mixer's inputs, say).
    /// - Thread: [control]
    open func canChangeElementCount(scope: Scope) -> Bool { false }

    /// The unit's latency in seconds (the `Latency` property).
    /// - Thread: [control]
    open var latency: Double { 0 }
    /// How long the unit keeps sounding after its input stops, in seconds (`TailTime`).
    /// - Thread: [control]
    open var tailTime: Double { 0 }
    /// The unit's factory presets (`FactoryPresets`).
    /// - Thread: [control]
    open var factoryPresets: [UnitPreset] { [] }

    /// Loads a factory preset's values. The default refuses (the unit has none).
    /// - Thread: [control]
    open func applyFactoryPreset(_ preset: UnitPreset) throws(AudioUnitError) {
        throw AudioUnitError(.invalidPropertyValue, "\(name) has no factory preset \(preset)")
    }

    /// The folder that file paths inside the unit's saved state (``saveCustomState()``,
    /// ``restoreCustomState(_:)``) are relative to: the folder of the preset that holds the
    /// state, so that a preset folder moved or copied as a whole plays its own files. Nil:
    /// paths stay absolute.
    /// - Thread: [control]
    public var stateFolder: URL?

    /// State beyond parameter values (a sample path, a table…), saved in `ClassInfo`.
    /// - Thread: [control]
    open func saveCustomState() throws(AudioUnitError) -> Data? { nil }

    /// Restores what ``saveCustomState()`` saved.
    /// - Thread: [control]
    open func restoreCustomState(_ data: Data) throws(AudioUnitError) {}

    /// The unit's property parameters: files it reads and other values it takes by name
    /// (``PropertyParameterInfo``); none by default.
    /// - Thread: [control]
    open var propertyParameters: [PropertyParameterInfo] { [] }

    /// Sets the property parameter `identifier` to `value` (a path as given: the caller
    /// resolves it against the preset's folder); the error names the unit, the property and
    /// what was wrong (a file that cannot be read, a value of the wrong type).
    /// - Thread: [control]
    open func setPropertyParameter(_ identifier: String, to value: PropertyParameterValue) throws(AudioUnitError) {
        throw AudioUnitError(.invalidParameter, "\(name) has no property '\(identifier)'")
    }

    /// The property parameter's value now (for a plugin, the last it reported), nil when
    /// unset or unknown.
    /// - Thread: [control]
    open func propertyParameterValue(_ identifier: String) -> PropertyParameterValue? { nil }

    /// Whether the parameters and property parameters say everything ``saveCustomState()``
    /// saves (a sampler's bank and instrument; a native unit whose state is only its
    /// parameter values): a saved preset then writes them, not a state blob.
    /// - Thread: [control]
    open var parametersHoldCustomState: Bool { false }

    /// Called after a parameter was set from a control thread (LV2 backends mirror it to ports).
    /// - Thread: [control]
    open func parameterDidChange(_ index: Int, value: Float) {}

    /// Called by ``dispose()`` after the unit is uninitialized, to free the instance.
    /// - Thread: [control]
    open func disposeResources() {}

    // MARK: - Life cycle

    /// Allocates render resources (`AudioUnitInitialize`). Initializing twice is harmless.
    /// - Thread: [control]
    public func initialize() throws(AudioUnitError) {
        RenderThread.assertNotCurrent("AudioUnit.initialize")
        try requireNotDisposed()
        if state == .initialized { return }
        for (scope, buses) in [(Scope.input, elements.inputs), (.output, elements.outputs)] {
            for (element, bus) in buses.enumerated() {
                do {
                    try bus.format.validate()
                } catch {
                    throw AudioUnitError(.failedInitialization, "\(name): \(scope) bus \(element): \(error.message)")
                }
            }
        }
        renderResources = RenderResources(
            inputs: elements.inputs, outputs: elements.outputs, maximumFrames: maximumFrames,
            powerOfTwoBlocks: (self as? BlockSizeConstrained)?.blockSizeRequirement == .powerOfTwo, midiOutput: producesMIDIOutput)
        do {
            try allocateRenderResources()
        } catch {
            renderResources = nil
            throw error
        }
        state = .initialized
    }

    /// Frees render resources (`AudioUnitUninitialize`); properties can be changed again.
    /// - Thread: [control]
    public func uninitialize() {
        RenderThread.assertNotCurrent("AudioUnit.uninitialize")
        guard state == .initialized else { return }
        deallocateRenderResources()
        renderResources = nil
        state = .uninitialized
    }

    /// Clears running state (`AudioUnitReset`): delay lines, ramps in flight, pending events.
    /// - Thread: [control]
    public func reset() throws(AudioUnitError) {
        try requireNotDisposed()
        while parameterEvents.pop() != nil {}
        while midiEvents.pop() != nil {}
        while renderParameterEvents.pop() != nil {}
        pendingEvents.store(0, ordering: .relaxed)
        renderResources?.clearRunningState()
        rampsActive.store(false, ordering: .relaxed)
        resetState()
    }

    /// Uninitializes, drops every listener and frees the instance
    /// (`AudioComponentInstanceDispose`). Every later call fails with InstanceInvalidated.
    /// - Thread: [control]
    public func dispose() {
        guard state != .disposed else { return }
        uninitialize()
        disposeResources()
        listeners.removeAll()
        elements.disconnectInputs()
        state = .disposed
    }

    func requireNotDisposed() throws(AudioUnitError) {
        if state == .disposed {
            throw AudioUnitError(.instanceInvalidated, "\(name) has been disposed")
        }
    }

    func requireUninitialized(_ what: PropertyID) throws(AudioUnitError) {
        if state == .initialized {
            throw AudioUnitError(.initialized, "\(name): \(what) cannot change while the unit is initialized; uninitialize it first")
        }
    }
}
