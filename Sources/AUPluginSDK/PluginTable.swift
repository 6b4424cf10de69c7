import CAUPluginABI

/// The `auhost_unit` function table: C-callable thunks that find the ``PluginInstance``
/// behind `unit_data` and call it. Each thunk keeps the thread class the ABI header gives it.
enum PluginTable {
    /// The instance behind a table (unretained: the table holds the reference).
    @inline(__always)
    static func instance(_ unit: UnsafePointer<auhost_unit>?) -> PluginInstance {
        Unmanaged<PluginInstance>.fromOpaque(unit!.pointee.unit_data).takeUnretainedValue()
    }

    /// The instance behind a table, for a call that borrows it without retaining it
    /// (`takeUnretainedValue()` gives the caller a reference it retains for the call).
    @inline(__always)
    static func reference(_ unit: UnsafePointer<auhost_unit>?) -> Unmanaged<PluginInstance> {
        Unmanaged<PluginInstance>.fromOpaque(unit!.pointee.unit_data)
    }

    /// A table of thunks; `unit_data` is filled by ``attach(_:)``.
    /// - Thread: [control]
    static func make() -> auhost_unit {
        auhost_unit(
            struct_size: UInt32(MemoryLayout<auhost_unit>.size),
            unit_data: nil,
            parameter_count: { unit in UInt32(PluginTable.instance(unit).parameterCount) },
            parameter_info: { unit, index, info in
                let instance = PluginTable.instance(unit)
                guard Int(index) < instance.parameterCount, let info else { return false }
                info.pointee = instance.infos[Int(index)]
                return true
            },
            get_parameter: { unit, id in
                let instance = PluginTable.instance(unit)
                return instance.index(of: id).map { instance.values[$0] } ?? .nan
            },
            set_parameter: { unit, id, value in PluginTable.instance(unit).store(id, value) },
            initialize: { unit, setup, message, capacity in
                guard let setup = setup?.pointee else { return AUHOST_STATUS_FAILED_INITIALIZATION }
                let inputs = withUnsafeBytes(of: setup.input_channels) { Array($0.bindMemory(to: UInt32.self).prefix(Int(min(setup.input_bus_count, AUHOST_MAX_BUSES)))) }
                let outputs = withUnsafeBytes(of: setup.output_channels) { Array($0.bindMemory(to: UInt32.self).prefix(Int(min(setup.output_bus_count, AUHOST_MAX_BUSES)))) }
                guard setup.sample_rate > 0, setup.sample_rate.isFinite, setup.maximum_frames > 0 else {
                    CStrings.write("sample rate \(setup.sample_rate) / maximum frames \(setup.maximum_frames) are not usable", to: message, capacity: capacity)
                    return AUHOST_STATUS_FORMAT_NOT_SUPPORTED
                }
                do throws(PluginError) {
                    try PluginTable.instance(unit).initialize(RenderSetup(
                        sampleRate: setup.sample_rate, maximumFrames: Int(setup.maximum_frames),
                        inputChannels: inputs.map(Int.init), outputChannels: outputs.map(Int.init)))
                    return AUHOST_STATUS_OK
                } catch {
                    CStrings.write(error.message, to: message, capacity: capacity)
                    return AUHOST_STATUS_FAILED_INITIALIZATION
                }
            },
            uninitialize: { unit in PluginTable.instance(unit).uninitialize() },
            render: { unit, process in
                guard let process else { return AUHOST_STATUS_INVALID_PROPERTY_VALUE }
                return PluginTable.reference(unit)._withUnsafeGuaranteedRef { $0.render(process) }
            },
            reset: { unit in PluginTable.instance(unit).resetUnit() },
            latency: { unit in UInt32(clamping: PluginTable.instance(unit).latencyFrames) },
            tail_time: { unit in PluginTable.instance(unit).tailTime },
            save_state: { unit, buffer, capacity in
                let bytes = PluginTable.instance(unit).saveState()
                if let buffer, UInt64(bytes.count) <= capacity {
                    bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: bytes.count) }
                }
                return Int64(bytes.count)
            },
            restore_state: { unit, data, size in
                guard let data else { return size == 0 ? PluginTable.instance(unit).restoreState(UnsafeBufferPointer(start: nil, count: 0)) : false }
                return PluginTable.instance(unit).restoreState(UnsafeBufferPointer(start: data, count: Int(size)))
            },
            preset_count: { unit in UInt32(PluginTable.instance(unit).presetNames.count) },
            preset_name: { unit, index in
                let names = PluginTable.instance(unit).presetNames
                return Int(index) < names.count ? UnsafePointer(names[Int(index)]) : nil
            },
            preset_values: { unit, index, values, capacity in
                let entries = PluginTable.instance(unit).presetValues(Int(index))
                if let values {
                    for (position, entry) in entries.prefix(Int(capacity)).enumerated() {
                        values[position] = auhost_parameter_value(id: entry.id, value: entry.value)
                    }
                }
                return UInt32(entries.count)
            },
            destroy: { unit in
                let instance = Unmanaged<PluginInstance>.fromOpaque(unit!.pointee.unit_data)
                instance.takeUnretainedValue().uninitialize()
                instance.release()
            },
            get_extension: { unit, id in PluginExtensions.table(id, for: PluginTable.instance(unit)) })
    }

    /// Points the instance's table back at it, retained until `destroy`.
    /// - Thread: [control]
    static func attach(_ instance: PluginInstance) -> UnsafePointer<auhost_unit> {
        instance.table.pointee.unit_data = Unmanaged.passRetained(instance).toOpaque()
        return UnsafePointer(instance.table)
    }
}
