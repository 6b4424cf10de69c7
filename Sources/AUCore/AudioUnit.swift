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
/// - Thread: control for everything but the render entry points, which are render-thread
///   only; parameter values may be read and set from any thread.
open class AudioUnit: @unchecked Sendable {
    // What the render entry points check every cycle comes first, so that it shares the
    // object's first cache line with its header (stored properties are laid out in
    // declaration order): after a plugin's run() each further line is another cache miss.
    // They are atomics stored in the unit itself: reading a class `var` would cost an
    // exclusivity check and a retain, and a separate allocation another line.

    /// The render resources' address, 0 while uninitialized. With the one below, written on
    /// the control thread only while no render runs (initialize, uninitialize).
    private let renderResourcesBits = Atomic<UInt>(0)
    /// MaximumFramesPerSlice in the high 32 bits, the input bus count in the next 16, the
    /// output bus count in the low 16.
    private let renderLimits = Atomic<Int>(AudioUnit.defaultMaximumFramesPerSlice << 32)
    /// Where a backend keeps its render-side state (an LV2 unit: its plugin instance), as
    /// an address, 0 while it has none: read in this first cache line rather than in the
    /// subclass's fields, which come after all of these.
    public let backendRenderState = Atomic<UInt>(0)
    /// Events pushed into the three event rings and not yet taken by the render thread
    /// (may dip below zero while a push is being counted): one load tells an idle cycle
    /// that there is nothing to take, without touching the rings.
    private let pendingEvents = Atomic<Int>(0)
    private let bypassed = Atomic<Bool>(false)
    /// True while parameter ramps are in flight (render thread only).
    private let rampsActive = Atomic<Bool>(false)
    private let lastRenderError = Atomic<Int32>(0)
    public let parameters: ParameterTable
    /// Counts the render thread's changes to output parameters (meters): they reach the
    /// listeners by ``dispatchPendingNotifications()`` comparing values, not through the
    /// notification ring, whose push cost cache misses on every metered cycle.
    private let outputPublications = Atomic<UInt64>(0)

    public let componentDescription: ComponentDescription
    public let name: String
    public private(set) var state: UnitState = .uninitialized

    private var inputBuses: [BusConfiguration]
    private var outputBuses: [BusConfiguration]
    private var inputSources: [InputSource]
    private var maximumFrames = AudioUnit.defaultMaximumFramesPerSlice
    /// The global SampleRate, for units without buses (MIDI processors); buses carry their own.
    private var unitSampleRate = 48_000.0
    private var presentPreset = UnitPreset(number: -1, name: "Untitled")

    /// Default for `MaximumFramesPerSlice` (large enough for 4096-frame offline blocks).
    public static let defaultMaximumFramesPerSlice = 4096
    /// How many parameter events and MIDI events one cycle can carry.
    public static let eventCapacity = 512
    /// Ramps are applied in slices of at most this many frames.
    public static let rampSliceFrames = 16

    private let listeners = ListenerCenter()
    private let parameterEvents = SharedProducerRing<ParameterEvent>(minimumCapacity: AudioUnit.eventCapacity)
    private let midiEvents = SharedProducerRing<MIDIEvent>(minimumCapacity: AudioUnit.eventCapacity)
    /// MIDI a driver hands over on the render thread for the next cycle (single producer).
    private let renderMIDIEvents = RealTimeRing<MIDIEvent>(minimumCapacity: AudioUnit.eventCapacity)
    private let notifications = RealTimeRing<UnitNotification>(minimumCapacity: 1024)
    /// What the listeners last heard of the output parameters.
    private let notifiedOutputs: Mutex<NotifiedOutputs>

    /// The output-parameter publication count and values the listeners were last told.
    private struct NotifiedOutputs {
        var publications: UInt64 = 0
        var values: [UInt32]
    }

    /// Everything the render thread touches, allocated by `initialize()`.
    private var renderResources: RenderResources? {
        didSet {
            renderLimits.store(
                maximumFrames << 32 | (renderResources?.inputs.count ?? 0) << 16 | (renderResources?.outputs.count ?? 0), ordering: .relaxed)
            renderResourcesBits.store(renderResources.map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) } ?? 0, ordering: .releasing)
        }
    }

    /// The render resources without retaining them, nil while uninitialized.
    /// - Thread: render.
    @inline(__always)
    private var renderResourcesReference: Unmanaged<RenderResources>? {
        let bits = renderResourcesBits.load(ordering: .acquiring)
        return bits == 0 ? nil : Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
    }

    /// Creates an uninitialized unit with the given buses and parameters.
    /// - Thread: control.
    public init(
        description: ComponentDescription, name: String, inputs: [BusConfiguration],
        outputs: [BusConfiguration], parameters: [ParameterInfo]
    ) {
        componentDescription = description
        self.name = name
        inputBuses = inputs
        outputBuses = outputs
        inputSources = Array(repeating: .none, count: inputs.count)
        let table = ParameterTable(parameters)
        self.parameters = table
        notifiedOutputs = Mutex(NotifiedOutputs(values: table.outputSlots.map { table.value(at: $0).bitPattern }))
    }

    // MARK: - Hooks for backends

    /// Allocates what the unit needs to render with the current formats and
    /// MaximumFramesPerSlice. Throw to refuse initialization.
    /// - Thread: control.
    open func allocateRenderResources() throws(AudioUnitError) {}

    /// Frees what ``allocateRenderResources()`` allocated.
    /// - Thread: control.
    open func deallocateRenderResources() {}

    /// Produces `context.frameCount` frames into every output from the inputs; parameter
    /// values are current for the slice. Returns 0 or an error status.
    /// - Thread: render. No allocation, no lock, no blocking call.
    open func process(_ context: ProcessContext) -> AudioUnitStatus { 0 }

    /// Clears delay lines, envelopes and other running state.
    /// - Thread: control (never concurrently with a render).
    open func resetState() {}

    /// Checks a stream format before it is set on a bus; the default accepts canonical
    /// float formats with the bus's current channel count.
    /// - Thread: control.
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

    /// True for units that must render every cycle whole (a plugin that needs fixed block
    /// lengths): parameter events then apply at the cycle's first frame instead of splitting it.
    open var rendersWholeCycles: Bool { false }

    /// Whether the number of buses in a scope may be changed (a mixer's inputs, say).
    open func canChangeElementCount(scope: Scope) -> Bool { false }

    /// The unit's latency in seconds (the `Latency` property).
    open var latency: Double { 0 }
    /// How long the unit keeps sounding after its input stops, in seconds (`TailTime`).
    open var tailTime: Double { 0 }
    /// The unit's factory presets (`FactoryPresets`).
    open var factoryPresets: [UnitPreset] { [] }

    /// Loads a factory preset's values. The default refuses (the unit has none).
    /// - Thread: control.
    open func applyFactoryPreset(_ preset: UnitPreset) throws(AudioUnitError) {
        throw AudioUnitError(.invalidPropertyValue, "\(name) has no factory preset \(preset)")
    }

    /// State beyond parameter values (a sample path, a table…), saved in `ClassInfo`.
    /// - Thread: control.
    open func saveCustomState() throws(AudioUnitError) -> Data? { nil }

    /// Restores what ``saveCustomState()`` saved.
    /// - Thread: control.
    open func restoreCustomState(_ data: Data) throws(AudioUnitError) {}

    /// Called after a parameter was set from a control thread (LV2 backends mirror it to ports).
    /// - Thread: control.
    open func parameterDidChange(_ index: Int, value: Float) {}

    /// Called by ``dispose()`` after the unit is uninitialized, to free the instance.
    /// - Thread: control.
    open func disposeResources() {}

    // MARK: - Life cycle

    /// Allocates render resources (`AudioUnitInitialize`). Initializing twice is harmless.
    /// - Thread: control.
    public func initialize() throws(AudioUnitError) {
        RenderThread.assertNotCurrent("AudioUnit.initialize")
        try requireNotDisposed()
        if state == .initialized { return }
        for (scope, buses) in [(Scope.input, inputBuses), (.output, outputBuses)] {
            for (element, bus) in buses.enumerated() {
                do {
                    try bus.format.validate()
                } catch {
                    throw AudioUnitError(.failedInitialization, "\(name): \(scope) bus \(element): \(error.message)")
                }
            }
        }
        renderResources = RenderResources(inputs: inputBuses, outputs: outputBuses, maximumFrames: maximumFrames)
        do {
            try allocateRenderResources()
        } catch {
            renderResources = nil
            throw error
        }
        state = .initialized
    }

    /// Frees render resources (`AudioUnitUninitialize`); properties can be changed again.
    /// - Thread: control.
    public func uninitialize() {
        RenderThread.assertNotCurrent("AudioUnit.uninitialize")
        guard state == .initialized else { return }
        deallocateRenderResources()
        renderResources = nil
        state = .uninitialized
    }

    /// Clears running state (`AudioUnitReset`): delay lines, ramps in flight, pending events.
    /// - Thread: control.
    public func reset() throws(AudioUnitError) {
        try requireNotDisposed()
        while parameterEvents.pop() != nil {}
        while midiEvents.pop() != nil {}
        while renderMIDIEvents.pop() != nil {}
        pendingEvents.store(0, ordering: .relaxed)
        renderResources?.clearRunningState()
        rampsActive.store(false, ordering: .relaxed)
        resetState()
    }

    /// Uninitializes, drops every listener and frees the instance
    /// (`AudioComponentInstanceDispose`). Every later call fails with InstanceInvalidated.
    /// - Thread: control.
    public func dispose() {
        guard state != .disposed else { return }
        uninitialize()
        disposeResources()
        listeners.removeAll()
        inputSources = inputSources.map { _ in .none }
        state = .disposed
    }

    private func requireNotDisposed() throws(AudioUnitError) {
        if state == .disposed {
            throw AudioUnitError(.instanceInvalidated, "\(name) has been disposed")
        }
    }

    private func requireUninitialized(_ what: PropertyID) throws(AudioUnitError) {
        if state == .initialized {
            throw AudioUnitError(.initialized, "\(name): \(what) cannot change while the unit is initialized; uninitialize it first")
        }
    }

    // MARK: - Buses

    /// How many buses a scope has (global: 1).
    public func elementCount(_ scope: Scope) -> Int {
        switch scope {
        case .global: 1
        case .input: inputBuses.count
        case .output: outputBuses.count
        case .group: 0
        }
    }

    /// The configuration of one bus; errors name the scope and element.
    public func busConfiguration(scope: Scope, element: Element) throws(AudioUnitError) -> BusConfiguration {
        let buses: [BusConfiguration]
        switch scope {
        case .input: buses = inputBuses
        case .output: buses = outputBuses
        case .global, .group:
            throw AudioUnitError(.invalidScope, "\(name): buses live in the input and output scopes, not \(scope)")
        }
        guard buses.indices.contains(element) else {
            throw AudioUnitError(.invalidElement, "\(name): \(scope) scope has \(buses.count) bus(es); there is no element \(element)")
        }
        return buses[element]
    }

    private func setBus(_ bus: BusConfiguration, scope: Scope, element: Element) {
        if scope == .input { inputBuses[element] = bus } else { outputBuses[element] = bus }
    }

    /// The formats of every bus in a scope.
    public func formats(_ scope: Scope) -> [StreamFormat] {
        (scope == .input ? inputBuses : scope == .output ? outputBuses : []).map(\.format)
    }

    // MARK: - Properties

    /// Reads a property (`AudioUnitGetProperty`).
    /// - Thread: control.
    public func value<Value>(of key: PropertyKey<Value>, scope: Scope = .global, element: Element = 0) throws(AudioUnitError) -> Value {
        try requireNotDisposed()
        let value = try propertyValue(key.id, scope: scope, element: element)
        guard let typed = value as? Value else {
            throw AudioUnitError(.invalidProperty, "\(name): \(key) is not a \(Value.self)")
        }
        return typed
    }

    /// Sets a property (`AudioUnitSetProperty`) and calls its listeners once.
    /// - Thread: control.
    public func setValue<Value>(_ value: Value, for key: PropertyKey<Value>, scope: Scope = .global, element: Element = 0) throws(AudioUnitError) {
        RenderThread.assertNotCurrent("AudioUnit.setValue")
        try requireNotDisposed()
        let changes = try setPropertyValue(value, id: key.id, scope: scope, element: element)
        for change in changes { listeners.propertyChanged(change) }
    }

    /// Size and writability of a property (`AudioUnitGetPropertyInfo`).
    /// - Thread: control.
    public func info<Value>(for key: PropertyKey<Value>, scope: Scope = .global, element: Element = 0) throws(AudioUnitError) -> PropertyInfo {
        try requireNotDisposed()
        let value = try propertyValue(key.id, scope: scope, element: element)
        let size: Int
        switch value {
        case let array as [ParameterID]: size = array.count * MemoryLayout<ParameterID>.size
        case let array as [UnitPreset]: size = array.count * MemoryLayout<UnitPreset>.size
        case let array as [String]: size = array.count * MemoryLayout<String>.size
        case let data as Data: size = data.count
        default: size = MemoryLayout<Value>.size
        }
        return PropertyInfo(size: size, isWritable: isWritable(key.id, scope: scope))
    }

    private func isWritable(_ id: PropertyID, scope: Scope) -> Bool {
        switch id {
        case .classInfo, .presentPreset, .bypassEffect, .maximumFramesPerSlice, .sampleRate, .streamFormat, .elementName:
            return true
        case .makeConnection, .setRenderCallback:
            return scope == .input
        case .elementCount:
            return canChangeElementCount(scope: scope)
        default:
            return false
        }
    }

    private func requireScope(_ id: PropertyID, _ scope: Scope, in allowed: Set<Scope>) throws(AudioUnitError) {
        guard allowed.contains(scope) else {
            let names = Scope.allCases.filter(allowed.contains).map(\.description).joined(separator: " or ")
            throw AudioUnitError(.invalidScope, "\(name): \(id) lives in the \(names) scope, not \(scope)")
        }
    }

    private func requireGlobalElement(_ id: PropertyID, _ element: Element) throws(AudioUnitError) {
        guard element == 0 else {
            throw AudioUnitError(.invalidElement, "\(name): \(id) in the global scope has element 0 only, not \(element)")
        }
    }

    private func propertyValue(_ id: PropertyID, scope: Scope, element: Element) throws(AudioUnitError) -> Any {
        switch id {
        case .streamFormat:
            try requireScope(id, scope, in: [.input, .output])
            return try busConfiguration(scope: scope, element: element).format
        case .sampleRate:
            if scope == .global {
                try requireGlobalElement(id, element)
                return (outputBuses.first ?? inputBuses.first)?.format.sampleRate ?? unitSampleRate
            }
            return try busConfiguration(scope: scope, element: element).format.sampleRate
        case .elementName:
            return try busConfiguration(scope: scope, element: element).name
        case .elementCount:
            return elementCount(scope)
        case .maximumFramesPerSlice:
            try requireScope(id, scope, in: [.global])
            return maximumFrames
        case .parameterList:
            return parameters.infos.filter { $0.address.scope == scope && ($0.address.scope == .global || $0.address.element == element) }.map(\.id)
        case .parameterInfo, .parameterValueStrings:
            let info = try parameterInfo(ParameterAddress(ParameterID(truncatingIfNeeded: element), scope: scope))
            if id == .parameterInfo { return info }
            guard let strings = info.valueStrings else {
                throw AudioUnitError(.propertyNotInUse, "\(name): parameter '\(info.identifier)' has no value strings")
            }
            return strings
        case .latency, .tailTime, .lastRenderError, .classInfo, .factoryPresets, .presentPreset, .bypassEffect:
            try requireScope(id, scope, in: [.global])
            try requireGlobalElement(id, element)
            switch id {
            case .latency: return latency
            case .tailTime: return tailTime
            case .lastRenderError: return lastRenderError.load(ordering: .relaxed)
            case .classInfo: return try saveState()
            case .factoryPresets: return factoryPresets
            case .presentPreset: return presentPreset
            default: return bypassed.load(ordering: .relaxed)
            }
        case .makeConnection, .setRenderCallback:
            try requireScope(id, scope, in: [.input])
            _ = try busConfiguration(scope: .input, element: element)
            switch inputSources[element] {
            case .connection(let connection) where id == .makeConnection: return connection
            case .callback(let callback) where id == .setRenderCallback: return Optional(callback) as Any
            default:
                if id == .setRenderCallback { return RenderCallback?.none as Any }
                return UnitConnection(sourceUnit: nil, sourceOutputBus: 0, destinationInputBus: element)
            }
        default:
            throw AudioUnitError(.invalidProperty, "\(name) has no property \(id)")
        }
    }

    private func cast<Value>(_ value: Any, _ id: PropertyID) throws(AudioUnitError) -> Value {
        guard let typed = value as? Value else {
            throw AudioUnitError(.invalidPropertyValue, "\(name): \(id) takes a \(Value.self), not a \(type(of: value))")
        }
        return typed
    }

    /// Applies a property change and returns the changes to announce.
    private func setPropertyValue(_ value: Any, id: PropertyID, scope: Scope, element: Element) throws(AudioUnitError) -> [PropertyChange] {
        let change = PropertyChange(id: id, scope: scope, element: element)
        switch id {
        case .streamFormat:
            try requireScope(id, scope, in: [.input, .output])
            var bus = try busConfiguration(scope: scope, element: element)
            let format: StreamFormat = try cast(value, id)
            if format == bus.format { return [change] }
            try requireUninitialized(id)
            try validateFormat(format, scope: scope, element: element)
            bus.format = format
            setBus(bus, scope: scope, element: element)
            return [change]
        case .sampleRate:
            let rate: Double = try cast(value, id)
            let probe = StreamFormat.canonical(sampleRate: rate, channels: 1)
            try probe.validate()
            try requireUninitialized(id)
            if scope == .global { try requireGlobalElement(id, element) }
            // Every bus is checked before any changes, so a refusal leaves the unit as it was.
            var updates: [(scope: Scope, element: Element, configuration: BusConfiguration)] = []
            for busScope in [Scope.input, .output] where scope == .global || scope == busScope {
                let elements = scope == .global ? Array(0..<elementCount(busScope)) : [element]
                for bus in elements {
                    var configuration = try busConfiguration(scope: busScope, element: bus)
                    configuration.format.sampleRate = rate
                    try validateFormat(configuration.format, scope: busScope, element: bus)
                    updates.append((busScope, bus, configuration))
                }
            }
            var changes: [PropertyChange] = []
            for update in updates {
                setBus(update.configuration, scope: update.scope, element: update.element)
                changes.append(PropertyChange(id: .sampleRate, scope: update.scope, element: update.element))
                changes.append(PropertyChange(id: .streamFormat, scope: update.scope, element: update.element))
            }
            if scope == .global {
                unitSampleRate = rate
                changes.insert(change, at: 0)
            }
            return changes
        case .elementName:
            var bus = try busConfiguration(scope: scope, element: element)
            bus.name = try cast(value, id)
            setBus(bus, scope: scope, element: element)
            return [change]
        case .elementCount:
            let count: Int = try cast(value, id)
            guard canChangeElementCount(scope: scope) else {
                throw AudioUnitError(.propertyNotWritable, "\(name): the number of \(scope) buses is fixed at \(elementCount(scope))")
            }
            try requireUninitialized(id)
            guard (0...1024).contains(count) else {
                throw AudioUnitError(.invalidPropertyValue, "\(name): \(count) is not a bus count in 0...1024")
            }
            var buses = scope == .input ? inputBuses : outputBuses
            let template = buses.last ?? .canonical(channels: 2, name: "\(scope)")
            while buses.count < count { buses.append(BusConfiguration(format: template.format, name: "\(scope) \(buses.count)")) }
            buses.removeLast(buses.count - count)
            if scope == .input {
                inputBuses = buses
                inputSources = (0..<count).map { $0 < inputSources.count ? inputSources[$0] : .none }
            } else {
                outputBuses = buses
            }
            return [change]
        case .maximumFramesPerSlice:
            try requireScope(id, scope, in: [.global])
            let frames: Int = try cast(value, id)
            guard (1...65_536).contains(frames) else {
                throw AudioUnitError(.invalidPropertyValue, "\(name): MaximumFramesPerSlice \(frames) is not in 1...65536")
            }
            try requireUninitialized(id)
            maximumFrames = frames
            return [change]
        case .bypassEffect:
            try requireScope(id, scope, in: [.global])
            bypassed.store(try cast(value, id), ordering: .relaxed)
            return [change]
        case .classInfo:
            try requireScope(id, scope, in: [.global])
            try restoreState(try cast(value, id))
            return [change, PropertyChange(id: .presentPreset, scope: .global, element: 0)]
        case .presentPreset:
            try requireScope(id, scope, in: [.global])
            let preset: UnitPreset = try cast(value, id)
            if preset.number >= 0 {
                guard let factory = factoryPresets.first(where: { $0.number == preset.number }) else {
                    let known = factoryPresets.map(\.description).joined(separator: ", ")
                    throw AudioUnitError(.invalidPropertyValue, "\(name) has no factory preset number \(preset.number)\(known.isEmpty ? "" : "; it has \(known)")")
                }
                try applyFactoryPreset(factory)
                presentPreset = factory
                announceAllParameters()
            } else {
                presentPreset = preset
            }
            return [change]
        case .makeConnection:
            try requireScope(id, scope, in: [.input])
            let connection: UnitConnection = try cast(value, id)
            _ = try busConfiguration(scope: .input, element: element)
            if let source = connection.sourceUnit {
                let sourceFormat = try source.busConfiguration(scope: .output, element: connection.sourceOutputBus).format
                let format = try busConfiguration(scope: .input, element: element).format
                guard sourceFormat.channelsPerFrame == format.channelsPerFrame, sourceFormat.sampleRate == format.sampleRate else {
                    throw AudioUnitError(
                        .formatNotSupported,
                        "cannot connect \(source.name) output \(connection.sourceOutputBus) (\(sourceFormat)) to \(name) input \(element) (\(format)): a format converter is needed")
                }
                inputSources[element] = .connection(connection)
            } else {
                inputSources[element] = .none
            }
            return [change]
        case .setRenderCallback:
            try requireScope(id, scope, in: [.input])
            let callback: RenderCallback? = try cast(value, id)
            _ = try busConfiguration(scope: .input, element: element)
            inputSources[element] = callback.map { .callback($0) } ?? .none
            return [change]
        case .latency, .tailTime, .lastRenderError, .factoryPresets, .parameterList, .parameterInfo, .parameterValueStrings:
            _ = try propertyValue(id, scope: scope, element: element)
            throw AudioUnitError(.propertyNotWritable, "\(name): \(id) is read-only")
        default:
            throw AudioUnitError(.invalidProperty, "\(name) has no property \(id)")
        }
    }

    // MARK: - Listeners

    /// Calls `handler` once after every change of property `id` (in `scope` / `element`
    /// when given), whatever made it. Never on the render thread.
    /// - Thread: control.
    @discardableResult
    public func addPropertyListener(_ id: PropertyID, scope: Scope? = nil, element: Element? = nil, _ handler: @escaping PropertyListener) -> ListenerToken {
        listeners.addProperty(id, scope: scope, element: element, handler)
    }

    /// Calls `handler` once after every parameter change, whatever made it. Never on the
    /// render thread: changes made there arrive through ``dispatchPendingNotifications()``.
    /// - Thread: control.
    @discardableResult
    public func addParameterListener(_ handler: @escaping ParameterListener) -> ListenerToken {
        listeners.addParameter(handler)
    }

    /// Removes a listener; false when the token was not registered.
    /// - Thread: control.
    @discardableResult
    public func removeListener(_ token: ListenerToken) -> Bool { listeners.remove(token) }

    /// Tells listeners about a change a subclass made to one of its own properties.
    /// - Thread: control.
    public func announcePropertyChange(_ id: PropertyID, scope: Scope = .global, element: Element = 0) {
        listeners.propertyChanged(PropertyChange(id: id, scope: scope, element: element))
    }

    /// Delivers the changes the render thread made since the last call (output parameters,
    /// scheduled parameter events, render errors, latency) to the listeners, and returns
    /// how many were delivered. Hosts call it from a timer or after each offline block.
    /// - Thread: control.
    @discardableResult
    public func dispatchPendingNotifications() -> Int {
        var delivered = 0
        while let note = notifications.pop() {
            delivered += 1
            if note.isParameter {
                let index = Int(note.identity)
                listeners.parameterChanged(parameters.infos[index].address, value: note.value)
            } else {
                listeners.propertyChanged(
                    PropertyChange(id: PropertyID(rawValue: note.identity), scope: Scope(rawValue: note.scope) ?? .global, element: Int(note.element)))
            }
        }
        for (slot, value) in changedOutputs() {
            delivered += 1
            listeners.parameterChanged(parameters.infos[slot].address, value: value)
        }
        return delivered
    }

    /// The output parameters whose values differ from what the listeners last heard, when
    /// the render thread published any since: a meter's listener hears its latest value
    /// once per dispatch, however many cycles changed it.
    /// - Thread: control.
    private func changedOutputs() -> [(slot: Int, value: Float)] {
        let publications = outputPublications.load(ordering: .acquiring)
        return notifiedOutputs.withLock { notified in
            guard notified.publications != publications else { return [] }
            notified.publications = publications
            var changed: [(slot: Int, value: Float)] = []
            for (position, slot) in parameters.outputSlots.enumerated() {
                let value = parameters.value(at: slot)
                if value.bitPattern != notified.values[position] {
                    notified.values[position] = value.bitPattern
                    changed.append((slot, value))
                }
            }
            return changed
        }
    }

    private func announceAllParameters() {
        for (index, info) in parameters.infos.enumerated() where !info.isOutput {
            listeners.parameterChanged(info.address, value: parameters.value(at: index))
        }
    }

    // MARK: - Parameters

    /// The description of one parameter; the error names the address and lists none-such.
    /// - Thread: any.
    public func parameterInfo(_ address: ParameterAddress) throws(AudioUnitError) -> ParameterInfo {
        guard let index = parameters.index(of: address) else {
            throw AudioUnitError(.invalidParameter, "\(name) has no parameter \(address)")
        }
        return parameters.infos[index]
    }

    /// The current value of a parameter (`AudioUnitGetParameter`).
    /// - Thread: any.
    public func parameterValue(_ id: ParameterID, scope: Scope = .global, element: Element = 0) throws(AudioUnitError) -> Float {
        try requireNotDisposed()
        guard let index = parameters.index(of: ParameterAddress(id, scope: scope, element: element)) else {
            throw AudioUnitError(.invalidParameter, "\(name) has no parameter \(ParameterAddress(id, scope: scope, element: element))")
        }
        return parameters.value(at: index)
    }

    /// Sets a parameter (`AudioUnitSetParameter`): at once when `bufferOffset` is 0 or the
    /// unit is not rendering, else at that frame of the next cycle. Listeners are told once.
    /// - Thread: control (any thread but the render thread).
    public func setParameter(_ id: ParameterID, value: Float, scope: Scope = .global, element: Element = 0, bufferOffset: Int = 0) throws(AudioUnitError) {
        let address = ParameterAddress(id, scope: scope, element: element)
        if bufferOffset == 0 || state != .initialized {
            let index = try writableIndex(address, value)
            parameters.exchangeValue(value, at: index)
            parameterDidChange(index, value: value)
            listeners.parameterChanged(address, value: value)
        } else {
            try scheduleParameters([ScheduledParameterEvent(address, .immediate(offset: bufferOffset, value: value))])
        }
    }

    /// Schedules parameter events into the next cycle (`AudioUnitScheduleParameters`).
    /// Values are checked now; listeners are told when each event is applied.
    /// - Thread: control (any thread but the render thread).
    public func scheduleParameters(_ events: [ScheduledParameterEvent]) throws(AudioUnitError) {
        try requireNotDisposed()
        var prepared: [ParameterEvent] = []
        for event in events {
            switch event.kind {
            case .immediate(let offset, let value):
                let index = try writableIndex(event.address, value)
                guard offset >= 0, offset < maximumFrames else {
                    throw AudioUnitError(.invalidParameterValue, "\(name): buffer offset \(offset) is not in 0..<\(maximumFrames)")
                }
                prepared.append(ParameterEvent(index: Int32(index), offset: Int32(offset), duration: 0, startValue: .nan, value: value))
            case .ramped(let offset, let duration, let start, let end):
                let index = try writableIndex(event.address, end)
                if let start { try parameters.infos[index].validate(start) }
                guard offset >= 0, offset < maximumFrames, duration > 0, duration <= Int(Int32.max) else {
                    throw AudioUnitError(.invalidParameterValue, "\(name): a ramp needs an offset in 0..<\(maximumFrames) and a positive duration")
                }
                prepared.append(ParameterEvent(index: Int32(index), offset: Int32(offset), duration: Int32(duration), startValue: start ?? .nan, value: end))
            }
        }
        guard parameterEvents.count + prepared.count <= AudioUnit.eventCapacity else {
            throw AudioUnitError(.cannotDoInCurrentContext, "\(name): more than \(AudioUnit.eventCapacity) parameter events are waiting for the next cycle")
        }
        if state != .initialized {
            for event in prepared {
                parameters.exchangeValue(event.value, at: Int(event.index))
                parameterDidChange(Int(event.index), value: event.value)
                listeners.parameterChanged(parameters.infos[Int(event.index)].address, value: event.value)
            }
            return
        }
        for event in prepared where parameterEvents.push(event) { pendingEvents.wrappingAdd(1, ordering: .releasing) }
    }

    private func writableIndex(_ address: ParameterAddress, _ value: Float) throws(AudioUnitError) -> Int {
        try requireNotDisposed()
        guard let index = parameters.index(of: address) else {
            let known = parameters.infos.filter { !$0.isOutput }.map(\.identifier).joined(separator: ", ")
            throw AudioUnitError(.invalidParameter, "\(name) has no parameter \(address); its parameters are: \(known)")
        }
        try parameters.infos[index].validate(value)
        return index
    }

    /// Queues a MIDI event for the next cycle (`MusicDeviceMIDIEvent`).
    /// - Thread: control (any thread but the render thread).
    public func sendMIDIEvent(_ event: MIDIEvent) throws(AudioUnitError) {
        try requireNotDisposed()
        guard event.offset >= 0, Int(event.offset) < maximumFrames else {
            throw AudioUnitError(.invalidPropertyValue, "\(name): MIDI offset \(event.offset) is not in 0..<\(maximumFrames)")
        }
        guard midiEvents.push(event) else {
            throw AudioUnitError(.cannotDoInCurrentContext, "\(name): more than \(AudioUnit.eventCapacity) MIDI events are waiting for the next cycle")
        }
        pendingEvents.wrappingAdd(1, ordering: .releasing)
    }

    /// Hands MIDI events to the unit's next cycle from the render thread (a JACK driver's
    /// MIDI input, before the graph renders): offsets are within that cycle. Events beyond
    /// the queue's capacity are dropped; returns how many were taken.
    /// - Thread: render. No allocation, no lock.
    @discardableResult
    public func sendMIDIEventsFromRender(_ events: UnsafeBufferPointer<MIDIEvent>) -> Int {
        var taken = 0
        for event in events where renderMIDIEvents.push(event) { taken += 1 }
        pendingEvents.wrappingAdd(taken, ordering: .releasing)
        return taken
    }

    /// The host's transport, read by units that follow tempo and position (LV2
    /// `time:Position`, native transport info). Set before initialize; nil: none.
    /// - Thread: control (set); render (read).
    public var hostTransport: HostTransport? {
        didSet { hostTransportReference = hostTransport.map { Unmanaged.passUnretained($0) } }
    }
    private var hostTransportReference: Unmanaged<HostTransport>?

    /// The host's transport at the top of this cycle, nil when the host gives none.
    /// - Thread: render. No retain.
    public var currentTransport: TransportState? {
        hostTransportReference?._withUnsafeGuaranteedRef { $0.state }
    }

    /// Publishes a value the unit produced (a meter, a reported latency) to an output
    /// parameter; listeners hear of it through ``dispatchPendingNotifications()``, which
    /// gives them the latest value of each output that changed since the last dispatch.
    /// - Thread: render. An unchanged value costs one relaxed load: the render thread is the
    ///   only writer of what it publishes, so it needs no atomic exchange.
    public func publishOutputParameter(at index: Int, value: Float) {
        let old = parameters.value(at: index)
        guard old != value && !(old.isNaN && value.isNaN) else { return }
        parameters.storeValue(value, at: index)
        if parameters.isOutput[index] {
            // The render thread is the only writer: a load and a store, not a locked add.
            outputPublications.store(outputPublications.load(ordering: .relaxed) &+ 1, ordering: .releasing)
        } else {
            notifications.push(UnitNotification(identity: UInt32(index), isParameter: true, scope: 0, element: 0, value: value))
        }
    }

    /// Tells listeners, through the notification ring, that a property changed on the render thread.
    /// - Thread: render.
    public func notifyPropertyChangeFromRender(_ id: PropertyID, scope: Scope = .global, element: Element = 0) {
        notifications.push(UnitNotification(identity: id.rawValue, isParameter: false, scope: scope.rawValue, element: Int32(element), value: 0))
    }

    // MARK: - State

    /// The whole state as `ClassInfo` data: identity, parameter values, custom state.
    /// - Thread: control.
    public func saveState() throws(AudioUnitError) -> Data {
        var values: [String: Float] = [:]
        for (index, info) in parameters.infos.enumerated() where !info.isOutput {
            values[info.identifier] = parameters.value(at: index)
        }
        let state = SavedUnitState(
            version: 1, type: componentDescription.type.description, subtype: componentDescription.subtype.description,
            manufacturer: componentDescription.manufacturer.description, name: name, preset: presentPreset.name,
            parameters: values, custom: try saveCustomState())
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(state)
        } catch {
            throw AudioUnitError(.invalidPropertyValue, "\(name): state could not be encoded", underlying: error)
        }
    }

    /// Restores ``saveState()``'s data; the identity must match. Listeners hear of every
    /// parameter it sets.
    /// - Thread: control.
    public func restoreState(_ data: Data) throws(AudioUnitError) {
        let saved: SavedUnitState
        do {
            saved = try JSONDecoder().decode(SavedUnitState.self, from: data)
        } catch {
            throw AudioUnitError(.invalidPropertyValue, "\(name): ClassInfo is not a saved AUHost unit state", underlying: error)
        }
        guard saved.version == 1 else {
            throw AudioUnitError(.invalidPropertyValue, "\(name): state version \(saved.version) is not supported (expected 1)")
        }
        let identity = "\(saved.type):\(saved.subtype):\(saved.manufacturer)"
        guard identity == componentDescription.description else {
            throw AudioUnitError(.invalidPropertyValue, "\(name): the state belongs to \(identity), not \(componentDescription)")
        }
        var updates: [(Int, Float)] = []
        for (identifier, value) in saved.parameters.sorted(by: { $0.key < $1.key }) {
            guard let index = parameters.index(ofIdentifier: identifier) else {
                throw AudioUnitError(.invalidParameter, "\(name): the state sets unknown parameter '\(identifier)'")
            }
            try parameters.infos[index].validate(value)
            updates.append((index, value))
        }
        if let custom = saved.custom { try restoreCustomState(custom) }
        for (index, value) in updates {
            parameters.exchangeValue(value, at: index)
            parameterDidChange(index, value: value)
            listeners.parameterChanged(parameters.infos[index].address, value: value)
        }
        presentPreset = UnitPreset(number: -1, name: saved.preset)
    }

    // MARK: - Render

    /// Renders `buffers.frameCount` frames of one output bus (`AudioUnitRender`), pulling
    /// each input from its connection or render callback first. Pulling another bus of the
    /// same cycle (same sample time) returns what the cycle produced without processing again.
    /// - Thread: render. No allocation, no lock.
    public func render(flags: inout RenderFlags, timestamp: RenderTimestamp, outputBus: Element, buffers: AudioBuffers) -> AudioUnitStatus {
        RenderThread.run {
            guard let reference = renderResourcesReference else { return AudioUnitErrorCode.uninitialized.rawValue }
            let frames = buffers.frameCount
            guard frames <= renderLimits.load(ordering: .relaxed) >> 32 else { return AudioUnitErrorCode.tooManyFramesToProcess.rawValue }
            return reference._withUnsafeGuaranteedRef { resources in
                self.render(resources, flags: &flags, timestamp: timestamp, outputBus: outputBus, buffers: buffers)
            }
        }
    }

    /// ``render(flags:timestamp:outputBus:buffers:)`` once the unit is known to be
    /// initialized and the cycle short enough.
    /// - Thread: render.
    private func render(_ resources: RenderResources, flags: inout RenderFlags, timestamp: RenderTimestamp, outputBus: Element, buffers: AudioBuffers) -> AudioUnitStatus {
        let frames = buffers.frameCount
        guard outputBus >= 0, outputBus < resources.outputs.count else { return AudioUnitErrorCode.invalidElement.rawValue }
        if !(resources.lastSampleTime == timestamp.sampleTime && resources.lastFrameCount == frames) {
            for bus in 0..<resources.inputs.count {
                let status = pullInput(bus, flags: &flags, timestamp: timestamp, into: resources.inputs[bus].buffers(frameCount: frames))
                if status != 0 { return status }
            }
            resources.prepareViews(frameCount: frames)
            // Already inside the render mark, initialized and within MaximumFramesPerSlice.
            let status = renderCycle(
                resources, timestamp: timestamp, frameCount: frames, inputs: UnsafeBufferPointer(resources.inputViews),
                outputs: UnsafeBufferPointer(resources.outputViews), midi: UnsafeBufferPointer(start: nil, count: 0),
                buffersStamp: resources.viewsStamp)
            if status != 0 { return status }
            resources.lastSampleTime = timestamp.sampleTime
            resources.lastFrameCount = frames
        }
        buffers.copy(from: resources.outputs[outputBus].buffers(frameCount: frames))
        return 0
    }

    /// Fills `buffers` from input bus `bus`'s source: its render callback or the unit it is
    /// connected to (`AUBase::PullInput`). I/O units call it from their device callback.
    /// - Thread: render. No allocation, no lock (beyond what the source does).
    public func pullInput(_ bus: Int, flags: inout RenderFlags, timestamp: RenderTimestamp, into buffers: AudioBuffers) -> AudioUnitStatus {
        guard bus >= 0, bus < inputSources.count else { return AudioUnitErrorCode.invalidElement.rawValue }
        switch inputSources[bus] {
        case .none:
            return AudioUnitErrorCode.noConnection.rawValue
        case .callback(let callback):
            return callback.body(&flags, timestamp, bus, buffers)
        case .connection(let connection):
            guard let source = connection.sourceUnit else { return AudioUnitErrorCode.noConnection.rawValue }
            return source.render(flags: &flags, timestamp: timestamp, outputBus: connection.sourceOutputBus, buffers: buffers)
        }
    }

    /// Runs one cycle over buffers the caller owns (the graph's entry point): takes the
    /// pending parameter and MIDI events, applies them at their frames (splitting the cycle
    /// there and into ramp slices), and calls ``process(_:)`` for each slice; when bypassed,
    /// copies each input bus to the output bus of the same number instead. `midi` adds
    /// events the caller already has (sorted, offsets within the cycle).
    /// - Thread: render. No allocation, no lock.
    public func renderCycle(
        timestamp: RenderTimestamp, frameCount: Int, inputs: UnsafeBufferPointer<AudioBuffers>,
        outputs: UnsafeBufferPointer<AudioBuffers>, midi: UnsafeBufferPointer<MIDIEvent>
    ) -> AudioUnitStatus {
        RenderThread.run {
            renderCycleInsideRender(timestamp: timestamp, frameCount: frameCount, inputs: inputs, outputs: outputs, midi: midi)
        }
    }

    /// ``renderCycle(timestamp:frameCount:inputs:outputs:midi:)`` for a caller that is itself
    /// inside ``RenderThread/run(_:)`` (a graph renders every node of a cycle in one such
    /// call), which saves marking the thread again for each unit.
    /// - Thread: render, inside `RenderThread.run`.
    /// `buffersStamp` is passed on in ``ProcessContext/buffersStamp`` for a cycle processed
    /// whole (0 for the slices of a cycle split at parameter events).
    public func renderCycleInsideRender(
        timestamp: RenderTimestamp, frameCount: Int, inputs: UnsafeBufferPointer<AudioBuffers>,
        outputs: UnsafeBufferPointer<AudioBuffers>, midi: UnsafeBufferPointer<MIDIEvent>, buffersStamp: UInt64 = 0
    ) -> AudioUnitStatus {
        assert(RenderThread.isCurrent, "renderCycleInsideRender called outside RenderThread.run")
        guard let reference = renderResourcesReference else { return AudioUnitErrorCode.uninitialized.rawValue }
        let limits = renderLimits.load(ordering: .relaxed)
        guard frameCount <= limits >> 32 else { return AudioUnitErrorCode.tooManyFramesToProcess.rawValue }
        guard inputs.count << 16 | outputs.count == limits & 0xFFFF_FFFF else { return AudioUnitErrorCode.invalidElement.rawValue }
        return reference._withUnsafeGuaranteedRef { resources in
            renderCycle(resources, timestamp: timestamp, frameCount: frameCount, inputs: inputs, outputs: outputs, midi: midi, buffersStamp: buffersStamp)
        }
    }

    /// ``renderCycle(timestamp:frameCount:inputs:outputs:midi:)`` once the unit is known to be
    /// initialized, the cycle short enough and the bus counts its own.
    /// - Thread: render.
    @inline(__always)
    private func renderCycle(
        _ resources: RenderResources, timestamp: RenderTimestamp, frameCount: Int, inputs: UnsafeBufferPointer<AudioBuffers>,
        outputs: UnsafeBufferPointer<AudioBuffers>, midi: UnsafeBufferPointer<MIDIEvent>, buffersStamp: UInt64
    ) -> AudioUnitStatus {
        if bypassed.load(ordering: .relaxed) {
            for bus in 0..<outputs.count {
                if bus < inputs.count { outputs[bus].copy(from: inputs[bus]) } else { outputs[bus].clear() }
            }
            return 0
        }
        var status: AudioUnitStatus = 0
        if pendingEvents.load(ordering: .acquiring) == 0 && midi.isEmpty && !rampsActive.load(ordering: .relaxed) {
            // The common cycle: nothing to apply.
            status = process(ProcessContext(
                frameCount: frameCount, timestamp: timestamp, inputs: inputs, outputs: outputs,
                midiEvents: UnsafeBufferPointer(start: nil, count: 0), buffersStamp: buffersStamp))
        } else {
            let eventCount = resources.takeParameterEvents(from: parameterEvents)
            let midiCount = resources.takeMIDIEvents(from: midiEvents, renderRing: renderMIDIEvents, adding: midi, frameCount: frameCount)
            pendingEvents.wrappingSubtract(eventCount + midiCount - min(midi.count, AudioUnit.eventCapacity), ordering: .relaxed)
            if eventCount == 0 && resources.activeRampCount == 0 || rendersWholeCycles {
                if eventCount > 0 || resources.activeRampCount > 0 { applyAtCycleStart(resources, eventCount: eventCount, frameCount: frameCount) }
                status = process(ProcessContext(
                    frameCount: frameCount, timestamp: timestamp, inputs: inputs, outputs: outputs,
                    midiEvents: UnsafeBufferPointer(start: resources.midi, count: midiCount), buffersStamp: buffersStamp))
            } else {
                status = renderSlices(resources, timestamp: timestamp, frameCount: frameCount, inputs: inputs, outputs: outputs, eventCount: eventCount, midiCount: midiCount)
            }
            rampsActive.store(resources.activeRampCount > 0, ordering: .relaxed)
        }
        if status != 0 && status != lastRenderError.load(ordering: .relaxed) {
            lastRenderError.store(status, ordering: .relaxed)
            notifyPropertyChangeFromRender(.lastRenderError)
        }
        return status
    }

    /// Applies a cycle's parameter events at its first frame and moves ramps on by the
    /// whole cycle (for units that render whole cycles only).
    /// - Thread: render.
    private func applyAtCycleStart(_ resources: RenderResources, eventCount: Int, frameCount: Int) {
        for index in 0..<eventCount { apply(resources.events[index], resources) }
        if resources.activeRampCount > 0 {
            resources.advanceRamps(frames: frameCount) { slot, value in applyFromRender(slot, value) }
        }
    }

    /// Applies one parameter event: a jump cancels the slot's ramp and sets the value; a ramp
    /// starts from its start value (the current value when that is NaN).
    /// - Thread: render.
    @inline(__always)
    private func apply(_ event: ParameterEvent, _ resources: RenderResources) {
        let slot = Int(event.index)
        if event.duration == 0 {
            resources.cancelRamp(slot: slot)
            applyFromRender(slot, event.value)
        } else {
            let from = event.startValue.isNaN ? parameters.value(at: slot) : event.startValue
            resources.startRamp(slot: slot, from: from, to: event.value, frames: Int(event.duration))
        }
    }

    /// Processes a cycle in slices bounded by event offsets and ramp steps.
    private func renderSlices(
        _ resources: RenderResources, timestamp: RenderTimestamp, frameCount: Int, inputs: UnsafeBufferPointer<AudioBuffers>,
        outputs: UnsafeBufferPointer<AudioBuffers>, eventCount: Int, midiCount: Int
    ) -> AudioUnitStatus {
        var start = 0
        var nextEvent = 0
        var nextMIDI = 0
        while start < frameCount {
            while nextEvent < eventCount && Int(resources.events[nextEvent].offset) <= start {
                apply(resources.events[nextEvent], resources)
                nextEvent += 1
            }
            var end = nextEvent < eventCount ? Int(resources.events[nextEvent].offset) : frameCount
            if resources.activeRampCount > 0 {
                end = min(end, start + AudioUnit.rampSliceFrames)
                resources.advanceRamps(frames: end - start) { slot, value in applyFromRender(slot, value) }
            }
            end = min(end, frameCount)
            let midiStart = nextMIDI
            while nextMIDI < midiCount && Int(resources.midi[nextMIDI].offset) < end {
                resources.midi[nextMIDI].offset -= Int32(start)
                nextMIDI += 1
            }
            var sliceTime = timestamp
            sliceTime.sampleTime += Double(start)
            let status = process(ProcessContext(
                frameCount: end - start, timestamp: sliceTime,
                inputs: resources.sliceViews(of: inputs, input: true, offset: start, frames: end - start),
                outputs: resources.sliceViews(of: outputs, input: false, offset: start, frames: end - start),
                midiEvents: UnsafeBufferPointer(start: resources.midi + midiStart, count: nextMIDI - midiStart)))
            if status != 0 { return status }
            start = end
        }
        return 0
    }

    @inline(__always)
    private func applyFromRender(_ index: Int, _ value: Float) {
        let old = parameters.exchangeValue(value, at: index)
        if old != value {
            notifications.push(UnitNotification(identity: UInt32(index), isParameter: true, scope: 0, element: 0, value: value))
        }
    }
}

/// The `ClassInfo` document.
private struct SavedUnitState: Codable {
    var version: Int
    var type: String
    var subtype: String
    var manufacturer: String
    var name: String
    var preset: String
    var parameters: [String: Float]
    var custom: Data?
}
