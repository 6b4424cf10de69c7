import AUCore
import CAUPluginABI
import Foundation
import Synchronization

/// An instance of a native unit: an ``AudioUnit`` over the unit library's C function
/// table. Parameter values live in the host's ``ParameterTable``; while the unit renders,
/// every change reaches it as a parameter event at the frame it was scheduled for (the
/// render call carries the event's offset; the host does not cut the call there), and its
/// output parameters come back through the render call's output event list, with the MIDI
/// it sends when it offers the MIDI output extension (ABI version 2).
///
/// Calls into the library are the trust boundary: the host cannot check what they do.
/// - Thread: [control] for everything but ``process(_:)``, which is render-thread only.
public final class NativeUnit: AudioUnit, @unchecked Sendable {
    /// The library the unit comes from (kept loaded for the unit's life and beyond).
    public let library: NativeLibrary
    /// Written on the control thread only before the unit renders or after it stopped
    /// (create, dispose), read by every ``process(_:)``: not checked for exclusive access,
    /// which would cost the render thread a runtime call per read.
    @exclusivity(unchecked) private var table: UnsafePointer<auhost_unit>?
    /// The unit's function table, copied when it was created: a version-1 table ends before
    /// `get_extension`, which then stays NULL here.
    private let functions: auhost_unit
    /// Whether the unit offers AUHOST_EXTENSION_MIDI_OUTPUT (asked once, at creation).
    private let sendsMIDI: Bool
    private let parameterIDs: [UInt32]
    private let outputSlots: [Bool]
    private var renderState: NativeRenderState? {
        didSet { renderStateSlot.publish(renderState) }
    }
    /// ``renderState`` unretained, for ``process(_:)``: binding the optional itself would
    /// retain and release it every cycle.
    private let renderStateSlot = RenderSlot<NativeRenderState>()
    /// Set while the unit is not initialized; read by ``process(_:)`` (unchecked, as ``table``).
    @exclusivity(unchecked) private var sampleRate = 48_000.0

    /// True: the ABI hands a native unit the transport on every call, and the host cannot
    /// tell whether it reads it.
    /// - Thread: [control]
    public override var followsHostTransport: Bool { true }

    /// Makes an uninitialized instance of unit `entry.index` of `library`.
    /// - Thread: [control]
    init(library: NativeLibrary, entry: NativeLibrary.UnitEntry) throws(AudioUnitError) {
        guard let table = library.createUnit(entry.index) else {
            throw AudioUnitError(.failedInitialization, "\(library.path): the factory could not create \(entry.description) (\(entry.name))")
        }
        let copied = Self.functionTable(table, abiVersion: library.abiVersion)
        guard let functions = copied, functions.parameter_count != nil,
            functions.parameter_info != nil, functions.initialize != nil, functions.uninitialize != nil, functions.render != nil,
            functions.destroy != nil
        else {
            copied?.destroy?(table)
            throw AudioUnitError(.failedInitialization, "\(library.path): \(entry.description) (\(entry.name)) returned an incomplete function table")
        }
        var infos: [ParameterInfo] = []
        for index in 0..<functions.parameter_count!(table) {
            var info = auhost_parameter_info()
            guard functions.parameter_info!(table, index, &info) else { continue }
            infos.append(Self.parameterInfo(info))
        }
        self.library = library
        self.table = table
        self.functions = functions
        sendsMIDI = functions.get_extension.map { getExtension in
            guard let found = getExtension(table, AUHOST_EXTENSION_MIDI_OUTPUT) else { return false }
            return found.load(as: UInt32.self) >= UInt32(MemoryLayout<auhost_midi_output_extension>.size)
        } ?? false
        parameterIDs = infos.map(\.id)
        outputSlots = infos.map(\.isOutput)
        super.init(
            description: entry.description, name: entry.name,
            inputs: entry.inputChannels.enumerated().map { .canonical(channels: $1, name: entry.inputChannels.count == 1 ? "Input" : "Input \($0 + 1)") },
            outputs: entry.outputChannels.enumerated().map { .canonical(channels: $1, name: entry.outputChannels.count == 1 ? "Output" : "Output \($0 + 1)") },
            parameters: infos)
    }

    deinit {
        if let table { functions.destroy!(table) }
    }

    /// The size of a version-1 `auhost_unit`: everything before `get_extension`.
    static let version1TableSize = MemoryLayout<auhost_unit>.offset(of: \.get_extension)!

    /// A copy of the unit's table, reading no further than its `struct_size` and, for a
    /// version-1 library, than version 1's fields (the rest stays NULL); nil when the table is
    /// shorter than version 1's.
    static func functionTable(_ table: UnsafePointer<auhost_unit>, abiVersion: UInt32) -> auhost_unit? {
        let declared = Int(UnsafeRawPointer(table).load(as: UInt32.self))
        guard declared >= version1TableSize else { return nil }
        let readable = abiVersion >= 2 ? min(declared, MemoryLayout<auhost_unit>.size) : version1TableSize
        var copy = auhost_unit()
        withUnsafeMutableBytes(of: &copy) { $0.copyMemory(from: UnsafeRawBufferPointer(start: table, count: readable)) }
        return copy
    }

    /// A host parameter description of a C one.
    static func parameterInfo(_ info: auhost_parameter_info) -> ParameterInfo {
        var flags: ParameterFlags = info.flags & AUHOST_PARAMETER_IS_OUTPUT != 0 ? [.isOutput, .isReadable] : .readWrite
        if info.flags & AUHOST_PARAMETER_IS_LOGARITHMIC != 0 { flags.insert(.isLogarithmic) }
        if info.flags & AUHOST_PARAMETER_CAN_RAMP != 0 { flags.insert(.canRamp) }
        var strings: [String]? = nil
        if info.value_string_count > 0, let values = info.value_strings {
            strings = (0..<Int(info.value_string_count)).map { values[$0].map { String(cString: $0) } ?? "" }
        }
        let identifier = info.identifier.map { String(cString: $0) } ?? "p\(info.id)"
        return ParameterInfo(
            id: info.id, identifier: identifier, name: info.name.map { String(cString: $0) } ?? identifier,
            unit: ParameterUnit(pluginABIValue: info.unit), min: info.min_value, max: info.max_value,
            default: info.default_value, flags: flags, valueStrings: strings)
    }

    // MARK: - Life cycle

    /// Any channel count per bus (32-bit float, non-interleaved); the unit decides in `initialize`.
    /// - Thread: [control]
    override public func validateFormat(_ format: StreamFormat, scope: Scope, element: Element) throws(AudioUnitError) {
        try format.validate()
        guard format.isFloat, !format.isInterleaved, format.bitsPerChannel == 32, (1...Int(AUHOST_MAX_CHANNELS)).contains(format.channelsPerFrame) else {
            throw AudioUnitError(.formatNotSupported, "\(name): \(scope) bus \(element) renders 1 to \(AUHOST_MAX_CHANNELS) channels of 32-bit float non-interleaved, not \(format)")
        }
    }

    /// - Thread: [control]
    override public func allocateRenderResources() throws(AudioUnitError) {
        let inputs = formats(.input), outputs = formats(.output)
        sampleRate = try value(of: .sampleRate)
        let maximumFrames = try value(of: .maximumFramesPerSlice)
        var setup = auhost_render_setup()
        setup.sample_rate = sampleRate
        setup.maximum_frames = UInt32(maximumFrames)
        setup.input_bus_count = UInt32(inputs.count)
        setup.output_bus_count = UInt32(outputs.count)
        withUnsafeMutableBytes(of: &setup.input_channels) { raw in
            for (bus, format) in inputs.enumerated() { raw.storeBytes(of: UInt32(format.channelsPerFrame), toByteOffset: bus * 4, as: UInt32.self) }
        }
        withUnsafeMutableBytes(of: &setup.output_channels) { raw in
            for (bus, format) in outputs.enumerated() { raw.storeBytes(of: UInt32(format.channelsPerFrame), toByteOffset: bus * 4, as: UInt32.self) }
        }
        var message = [CChar](repeating: 0, count: 512)
        let status = message.withUnsafeMutableBufferPointer { functions.initialize!(table, &setup, $0.baseAddress, UInt32($0.count)) }
        guard status == 0 else {
            let reason = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw AudioUnitError(
                AudioUnitErrorCode(rawValue: status) ?? .failedInitialization,
                "\(name) (\(library.path)) refused to initialize" + (reason.isEmpty ? " (status \(status))" : ": \(reason)"))
        }
        renderState = NativeRenderState(
            inputChannels: inputs.map(\.channelsPerFrame), outputChannels: outputs.map(\.channelsPerFrame),
            parameterCount: parameterIDs.count, midiOutputCapacity: sendsMIDI ? AudioUnit.eventCapacity : 0, eventCapacity: AudioUnit.parameterChangeCapacity + AudioUnit.eventCapacity + parameterIDs.count)
    }

    /// - Thread: [control]
    override public func deallocateRenderResources() {
        functions.uninitialize!(table)
        renderState = nil
    }

    /// - Thread: [control]
    override public func resetState() {
        functions.reset?(table)
    }

    /// - Thread: [control]
    override public func disposeResources() {
        guard let table else { return }
        functions.destroy!(table)
        self.table = nil
    }

    // MARK: - Render

    /// A native unit applies parameter events at their frames itself (the C ABI carries
    /// their offsets): its render call is not cut at them.
    /// - Thread: [any] (read on the render thread).
    override public var takesTimedParameterChanges: Bool { true }

    /// A unit that offers AUHOST_EXTENSION_MIDI_OUTPUT sends MIDI: what it writes into the
    /// render call's output events goes to ``ProcessContext/sendMIDI(_:)``.
    /// - Thread: [control]
    override public var producesMIDIOutput: Bool { sendsMIDI }

    /// Sends the parameter values that changed outside the cycle's events (an immediate
    /// `setParameter`) as events at frame 0, then the cycle's parameter changes and MIDI at
    /// their own frames, renders, publishes the output parameters the unit reported and
    /// sends on the MIDI it sent.
    /// - Thread: [render] No allocation, no lock; the call into the unit is the trust boundary.
    override public func process(_ context: ProcessContext) -> AudioUnitStatus {
        guard let reference = renderStateSlot.reference, let table, let render = functions.render else { return AudioUnitErrorCode.uninitialized.rawValue }
        return reference._withUnsafeGuaranteedRef { state in process(context, state, table, render) }
    }

    /// ``process(_:)`` once the unit is known to be initialized.
    /// - Thread: [render]
    @inline(__always)
    private func process(
        _ context: ProcessContext, _ state: NativeRenderState, _ table: UnsafePointer<auhost_unit>,
        _ render: @convention(c) (UnsafePointer<auhost_unit>?, UnsafePointer<auhost_process>?) -> Int32
    ) -> AudioUnitStatus {
        var count = 0
        // After a parameter was written (the call's own changes count too), the values at the
        // call's start: the table's, except that a slot the call changes had the value its
        // first change replaced; those differing from the values sent go at frame 0.
        if state.parameterCursor.advance(over: parameters) {
            for slot in 0..<parameterIDs.count { state.startValues[slot] = parameters.value(at: slot) }
            var change = context.parameterChanges.count
            while change > 0 {
                change -= 1
                state.startValues[Int(context.parameterChanges[change].slot)] = context.parameterChanges[change].previous
            }
            for slot in 0..<parameterIDs.count where !outputSlots[slot] {
                let value = state.startValues[slot]
                if value.bitPattern != state.sentValues[slot].bitPattern {
                    state.sentValues[slot] = value
                    state.events[count] = auhost_event(offset: 0, kind: AUHOST_EVENT_PARAMETER, id: parameterIDs[slot], value: value, midi: (0, 0, 0, 0))
                    count += 1
                }
            }
        }
        // The changes and the MIDI events, merged in offset order (changes first at a tie).
        let frames = UInt32(context.frameCount)
        let changes = context.parameterChanges, midi = context.midiEvents
        var nextChange = 0, nextMIDI = 0
        while count < state.events.count && (nextChange < changes.count || nextMIDI < midi.count) {
            let midiOffset = nextMIDI < midi.count ? min(UInt32(max(0, midi[nextMIDI].offset)), frames == 0 ? 0 : frames - 1) : .max
            if nextChange < changes.count && UInt32(changes[nextChange].offset) <= midiOffset {
                let change = changes[nextChange]
                state.sentValues[Int(change.slot)] = change.value
                state.events[count] = auhost_event(
                    offset: UInt32(change.offset), kind: AUHOST_EVENT_PARAMETER, id: parameterIDs[Int(change.slot)], value: change.value, midi: (0, 0, 0, 0))
                nextChange += 1
            } else {
                let event = midi[nextMIDI]
                state.events[count] = auhost_event(offset: midiOffset, kind: AUHOST_EVENT_MIDI, id: 0, value: 0, midi: (event.status, event.data1, event.data2, 0))
                nextMIDI += 1
            }
            count += 1
        }
        let buses = state.bind(inputs: context.inputs, outputs: context.outputs, stamp: context.buffersStamp)
        state.outputEventCount.pointee = 0
        let transport = currentTransport ?? TransportState.counted(sampleTime: context.timestamp.sampleTime, sampleRate: sampleRate)
        state.transport.pointee = auhost_transport(
            flags: transport.isRolling ? AUHOST_TRANSPORT_ROLLING : 0, beat_unit: UInt32(transport.beatUnit),
            beats_per_minute: transport.beatsPerMinute, beat: transport.beat, beats_per_bar: transport.beatsPerBar,
            beat_in_bar: transport.beatInBar, bar: Int64(transport.bar), frame: transport.frame)
        var process = auhost_process(
            frame_count: frames, reserved: 0, sample_time: context.timestamp.sampleTime,
            input_bus_count: UInt32(buses.inputs), output_bus_count: UInt32(buses.outputs),
            inputs: UnsafePointer(state.inputBuses.baseAddress), outputs: UnsafePointer(state.outputBuses.baseAddress),
            event_count: UInt32(count), events: UnsafePointer(state.events.baseAddress),
            output_event_capacity: UInt32(state.outputEvents.count), output_events: state.outputEvents.baseAddress,
            output_event_count: state.outputEventCount, transport: UnsafePointer(state.transport))
        let status = render(table, &process)
        let reported = min(Int(state.outputEventCount.pointee), state.outputEvents.count)
        var checkedFrames = 0
        for index in 0..<reported {
            let event = state.outputEvents[index]
            if event.kind == AUHOST_EVENT_OUTPUT_FINITE {
                checkedFrames += Int(event.id)
            } else if event.kind == AUHOST_EVENT_PARAMETER {
                var slot = 0
                while slot < parameterIDs.count && !(parameterIDs[slot] == event.id && outputSlots[slot]) { slot += 1 }
                if slot < parameterIDs.count { setParameterFromRender(at: slot, value: event.value) }
            } else if event.kind == AUHOST_EVENT_MIDI && sendsMIDI {
                let offset = Int32(min(event.offset, frames == 0 ? 0 : frames - 1))
                context.sendMIDI(MIDIEvent(offset: offset, status: event.midi.0, data1: event.midi.1, data2: event.midi.2))
            }
        }
        // A call the unit checked whole counts towards the render call's checked frames.
        // (A load and a store: only the render thread touches it, no locked instruction.)
        if status == 0 && checkedFrames >= Int(frames) {
            checkedOutputFrames.store(checkedOutputFrames.load(ordering: .relaxed) + Int(frames), ordering: .relaxed)
        }
        return status
    }

    // MARK: - Parameters, presets, state, latency

    /// While the unit does not render, a change goes straight to it.
    /// - Thread: [control]
    override public func parameterDidChange(_ index: Int, value: Float) {
        guard state != .initialized, let table, !outputSlots[index] else { return }
        _ = functions.set_parameter?(table, parameterIDs[index], value)
    }

    /// - Thread: [control]
    override public var latency: Double {
        guard let table, let latency = functions.latency else { return 0 }
        return Double(latency(table)) / sampleRate
    }

    /// - Thread: [control]
    override public var tailTime: Double {
        guard let table, let tail = functions.tail_time else { return 0 }
        return tail(table)
    }

    /// - Thread: [control]
    override public var factoryPresets: [UnitPreset] {
        guard let table, let count = functions.preset_count else { return [] }
        return (0..<count(table)).map { index in
            UnitPreset(number: Int(index), name: functions.preset_name?(table, index).map { String(cString: $0) } ?? "Preset \(index)")
        }
    }

    /// Sets the preset's values in the host's table: they reach the unit as events.
    /// - Thread: [control]
    override public func applyFactoryPreset(_ preset: UnitPreset) throws(AudioUnitError) {
        guard let table, let presetValues = functions.preset_values, preset.number >= 0 else {
            throw AudioUnitError(.invalidPropertyValue, "\(name) has no factory preset \(preset)")
        }
        let count = Int(presetValues(table, UInt32(preset.number), nil, 0))
        var values = [auhost_parameter_value](repeating: auhost_parameter_value(), count: count)
        _ = values.withUnsafeMutableBufferPointer { presetValues(table, UInt32(preset.number), $0.baseAddress, UInt32(count)) }
        for entry in values {
            guard let slot = parameterIDs.firstIndex(of: entry.id), !outputSlots[slot] else { continue }
            let clamped = min(max(entry.value, parameters.infos[slot].minValue), parameters.infos[slot].maxValue)
            parameters.exchangeValue(clamped, at: slot)
            parameterDidChange(slot, value: clamped)
        }
    }

    /// - Thread: [control]
    override public func saveCustomState() throws(AudioUnitError) -> Data? {
        guard let table, let save = functions.save_state else { return nil }
        var size = save(table, nil, 0)
        for _ in 0..<4 {
            guard size >= 0 else { break }
            var bytes = [UInt8](repeating: 0, count: Int(size))
            let written = bytes.withUnsafeMutableBufferPointer { save(table, $0.baseAddress, UInt64($0.count)) }
            if written >= 0 && written <= size { return Data(bytes.prefix(Int(written))) }
            size = written
        }
        throw AudioUnitError(.invalidPropertyValue, "\(name) (\(library.path)) could not save its state")
    }

    /// Whether the unit's saved state is only its parameter values: the SDK's layout
    /// (`"AUHS"`, version 1, the parameter count, `(id, value)` pairs, then the length of the
    /// unit's extra state) with no extra state. A saved preset then writes the parameters
    /// alone (auhost_plugin.h's `save_state`).
    /// - Thread: [control]
    override public var parametersHoldCustomState: Bool {
        guard let bytes = try? saveCustomState(), bytes.count >= 16, bytes.prefix(4) == Data("AUHS".utf8) else { return false }
        func word(_ offset: Int) -> Int {
            (0..<4).reduce(0) { $0 | Int(bytes[bytes.startIndex + offset + $1]) << (8 * $1) }
        }
        let count = word(8)
        return word(4) == 1 && bytes.count == 16 + 8 * count && word(12 + 8 * count) == 0
    }

    /// The unit's own state can only be restored while it does not render.
    /// - Thread: [control]
    override public func restoreCustomState(_ data: Data) throws(AudioUnitError) {
        guard let table, let restore = functions.restore_state else { return }
        guard state != .initialized else {
            throw AudioUnitError(.cannotDoInCurrentContext, "\(name): a native unit's state is restored while it is uninitialized; uninitialize it first")
        }
        let restored = data.withUnsafeBytes { raw in
            restore(table, raw.bindMemory(to: UInt8.self).baseAddress, UInt64(raw.count))
        }
        guard restored else {
            throw AudioUnitError(.invalidPropertyValue, "\(name) (\(library.path)) could not read the saved state (\(data.count) bytes)")
        }
    }
}
