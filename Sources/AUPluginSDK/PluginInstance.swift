import CAUPluginABI

/// One live unit behind an `auhost_unit` table: the parameter values and their C
/// descriptions, the life-cycle state, and the render loop that cuts a render call into
/// slices at its events. Subclassed once per unit type by ``TypedPluginInstance``, so the
/// C thunks dispatch through a class (no existential, no allocation).
/// - Thread: [any] as each method says; the C table's thread classes apply.
class PluginInstance {
    /// The C table the host holds; `unit_data` points back at this object (retained).
    let table: UnsafeMutablePointer<auhost_unit>
    let parameterCount: Int
    let ids: UnsafeMutablePointer<UInt32>
    let values: UnsafeMutablePointer<Float>
    let minimums: UnsafeMutablePointer<Float>
    let maximums: UnsafeMutablePointer<Float>
    let infos: UnsafeMutablePointer<auhost_parameter_info>
    private let valueStrings: [UnsafeMutablePointer<UnsafePointer<CChar>?>?]
    let presetNames: [UnsafeMutablePointer<CChar>]
    /// The unit declares ``UnitDescriptor/sendsMIDI``: the MIDI output extension is offered.
    let sendsMIDI: Bool
    private(set) var isPrepared = false
    private(set) var maximumFrames = 0

    /// - Thread: [control]
    init(parameters: [PluginParameterInfo], presets: [PluginPreset], sendsMIDI: Bool) {
        self.sendsMIDI = sendsMIDI
        parameterCount = parameters.count
        let capacity = max(1, parameters.count)
        ids = .allocate(capacity: capacity)
        values = .allocate(capacity: capacity)
        minimums = .allocate(capacity: capacity)
        maximums = .allocate(capacity: capacity)
        infos = .allocate(capacity: capacity)
        var valueStrings: [UnsafeMutablePointer<UnsafePointer<CChar>?>?] = []
        for (index, parameter) in parameters.enumerated() {
            ids[index] = parameter.id
            values[index] = parameter.defaultValue
            minimums[index] = parameter.range.lowerBound
            maximums[index] = parameter.range.upperBound
            var strings: UnsafeMutablePointer<UnsafePointer<CChar>?>? = nil
            if !parameter.valueStrings.isEmpty {
                strings = .allocate(capacity: parameter.valueStrings.count)
                for (position, text) in parameter.valueStrings.enumerated() { strings![position] = UnsafePointer(CStrings.copy(text)) }
            }
            valueStrings.append(strings)
            var flags: UInt32 = 0
            if parameter.isOutput { flags |= AUHOST_PARAMETER_IS_OUTPUT }
            if parameter.isLogarithmic { flags |= AUHOST_PARAMETER_IS_LOGARITHMIC }
            (infos + index).initialize(to: auhost_parameter_info(
                id: parameter.id, flags: flags, unit: parameter.unit.rawValue, min_value: parameter.range.lowerBound,
                max_value: parameter.range.upperBound, default_value: parameter.defaultValue,
                identifier: CStrings.copy(parameter.identifier), name: CStrings.copy(parameter.name),
                value_string_count: UInt32(parameter.valueStrings.count), value_strings: strings.map { UnsafePointer($0) }))
        }
        self.valueStrings = valueStrings
        presetNames = presets.map { CStrings.copy($0.name) }
        table = .allocate(capacity: 1)
        table.initialize(to: PluginTable.make())
    }

    deinit {
        for index in 0..<parameterCount {
            CStrings.free(infos[index].identifier)
            CStrings.free(infos[index].name)
            if let strings = valueStrings[index] {
                for position in 0..<Int(infos[index].value_string_count) { CStrings.free(strings[position]) }
                strings.deallocate()
            }
        }
        for name in presetNames { CStrings.free(name) }
        infos.deinitialize(count: parameterCount)
        infos.deallocate()
        ids.deallocate()
        values.deallocate()
        minimums.deallocate()
        maximums.deallocate()
        table.deinitialize(count: 1)
        table.deallocate()
    }

    /// The slot of parameter `id`, or nil.
    /// - Thread: [any]
    @inline(__always)
    final func index(of id: UInt32) -> Int? {
        var index = 0
        while index < parameterCount {
            if ids[index] == id { return index }
            index += 1
        }
        return nil
    }

    /// Stores a clamped value and tells the unit; false for an unknown ID or NaN.
    /// - Thread: [render] or control (never both at once).
    @inline(__always)
    final func store(_ id: UInt32, _ value: Float) -> Bool {
        guard let index = index(of: id), !value.isNaN, infos[index].flags & AUHOST_PARAMETER_IS_OUTPUT == 0 else { return false }
        let clamped = min(max(value, minimums[index]), maximums[index])
        values[index] = clamped
        deliver(id, clamped)
        return true
    }

    /// - Thread: [control]
    final func initialize(_ setup: RenderSetup) throws(PluginError) {
        if isPrepared { unprepareUnit() }
        try prepareUnit(setup)
        maximumFrames = setup.maximumFrames
        isPrepared = true
    }

    /// - Thread: [control]
    final func uninitialize() {
        guard isPrepared else { return }
        unprepareUnit()
        isPrepared = false
    }

    /// Cuts the call into slices at its events, applies each event at its frame, and
    /// processes every slice.
    /// - Thread: [render]
    final func render(_ process: UnsafePointer<auhost_process>) -> Int32 {
        guard isPrepared else { return AUHOST_STATUS_UNINITIALIZED }
        let frames = Int(process.pointee.frame_count)
        guard frames <= maximumFrames else { return AUHOST_STATUS_TOO_MANY_FRAMES }
        process.pointee.output_event_count?.pointee = 0
        let eventCount = Int(process.pointee.event_count)
        let events = process.pointee.events
        var start = 0
        var next = 0
        while start < frames {
            while next < eventCount, Int(events![next].offset) <= start {
                apply(events![next])
                next += 1
            }
            let end = next < eventCount ? min(frames, Int(events![next].offset)) : frames
            processUnit(AudioBlock(process: process, offset: start, frameCount: end - start))
            start = end
        }
        while next < eventCount {
            apply(events![next])
            next += 1
        }
        return AUHOST_STATUS_OK
    }

    @inline(__always)
    private func apply(_ event: auhost_event) {
        if event.kind == AUHOST_EVENT_PARAMETER {
            _ = store(event.id, event.value)
        } else if event.kind == AUHOST_EVENT_MIDI {
            deliverMIDI(PluginMIDIEvent(status: event.midi.0, data1: event.midi.1, data2: event.midi.2))
        }
    }

    /// The whole state: every input parameter and the unit's extra bytes.
    /// - Thread: [control]
    final func saveState() -> [UInt8] {
        var entries: [(id: UInt32, value: Float)] = []
        for index in 0..<parameterCount where infos[index].flags & AUHOST_PARAMETER_IS_OUTPUT == 0 {
            entries.append((ids[index], values[index]))
        }
        return PluginState(values: entries, extra: extraState()).encoded()
    }

    /// Restores ``saveState()``'s bytes; unknown parameter IDs are ignored (a newer version's).
    /// - Thread: [control]
    final func restoreState(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let state = PluginState(decoding: bytes), restoreExtraState(state.extra) else { return false }
        for entry in state.values { _ = store(entry.id, entry.value) }
        return true
    }

    // MARK: - Hooks the typed subclass forwards to the unit

    func deliver(_ id: UInt32, _ value: Float) {}
    func deliverMIDI(_ message: PluginMIDIEvent) {}
    func processUnit(_ block: AudioBlock) {}
    func prepareUnit(_ setup: RenderSetup) throws(PluginError) {}
    func unprepareUnit() {}
    func resetUnit() {}
    var latencyFrames: Int { 0 }
    var tailTime: Double { 0 }
    func extraState() -> [UInt8] { [] }
    func restoreExtraState(_ bytes: [UInt8]) -> Bool { true }
    func presetValues(_ index: Int) -> [(id: UInt32, value: Float)] { [] }
}

/// The instance of one unit type: forwards the hooks to the author's object.
/// - Thread: [any] as ``PluginInstance``.
final class TypedPluginInstance<Unit: PluginUnit>: PluginInstance {
    let unit: Unit

    /// Makes the unit and gives it every default value.
    /// - Thread: [control]
    init() {
        unit = Unit()
        super.init(parameters: Unit.parameters, presets: Unit.factoryPresets, sendsMIDI: Unit.descriptor.sendsMIDI)
        for parameter in Unit.parameters where !parameter.isOutput { unit.setParameter(parameter.id, value: parameter.defaultValue) }
    }

    override func deliver(_ id: UInt32, _ value: Float) { unit.setParameter(id, value: value) }
    override func deliverMIDI(_ message: PluginMIDIEvent) { unit.handleMIDI(message) }
    override func processUnit(_ block: AudioBlock) { unit.process(block) }
    override func prepareUnit(_ setup: RenderSetup) throws(PluginError) { try unit.prepare(setup) }
    override func unprepareUnit() { unit.unprepare() }
    override func resetUnit() { unit.reset() }
    override var latencyFrames: Int { unit.latencyFrames }
    override var tailTime: Double { unit.tailTime }
    override func extraState() -> [UInt8] { unit.saveExtraState() }
    override func restoreExtraState(_ bytes: [UInt8]) -> Bool { unit.restoreExtraState(bytes) }
    override func presetValues(_ index: Int) -> [(id: UInt32, value: Float)] {
        let presets = Unit.factoryPresets
        guard presets.indices.contains(index) else { return [] }
        return presets[index].values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

extension PluginUnit {
    /// A new instance wrapped for the C table.
    /// - Thread: [control]
    static func makeInstance() -> PluginInstance { TypedPluginInstance<Self>() }
}
