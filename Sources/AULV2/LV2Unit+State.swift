import AUCore
import CLilv
import Foundation

/// State (the `ClassInfo` custom data), LV2 presets as factory presets, and saving the
/// current state as an LV2 preset bundle.
extension LV2Unit {
    // MARK: - ClassInfo

    /// The plugin's state as Turtle (port values and the plugin's own properties through
    /// its state interface); the pending state when the unit has no instance.
    /// - Thread: control.
    func savePluginState() throws(AudioUnitError) -> Data? {
        guard let instance else { return try pendingState.map(turtle) }
        let snapshot = try capture(instance, directory: nil)
        return try turtle(snapshot)
    }

    /// Restores what ``saveCustomState()`` saved: into the instance now (between cycles),
    /// or when the unit is next initialized.
    /// - Thread: control.
    func restorePluginState(_ data: Data) throws(AudioUnitError) {
        guard let text = String(data: data, encoding: .utf8), let snapshot = LV2StateSnapshot(turtle: text, world: world) else {
            throw AudioUnitError(.invalidPropertyValue, "\(pluginURI): the ClassInfo's LV2 state does not parse as lilv state Turtle")
        }
        guard snapshot.pluginURI == pluginURI else {
            throw AudioUnitError(.invalidPropertyValue, "\(pluginURI): the ClassInfo's LV2 state belongs to \(snapshot.pluginURI ?? "no plugin")")
        }
        lilv_state_emit_port_values(snapshot.raw, LV2Unit.setPortValue, Unmanaged.passUnretained(self).toOpaque())
        if let instance { try restore(snapshot, into: instance) } else { pendingState = snapshot }
    }

    // MARK: - Presets

    /// The plugin's LV2 presets (`pset:Preset`), sorted by label then URI; the number is
    /// the position in that order.
    var presetList: [UnitPreset] {
        presets().enumerated().map { UnitPreset(number: $0.offset, name: $0.element.label) }
    }

    /// The URI of each factory preset, by number.
    public var presetURIs: [String] { presets().map(\.uri) }

    /// Loads an LV2 preset: its port values become the parameter values, and its
    /// properties (if any) are restored into the instance between cycles.
    /// - Thread: control.
    func applyPreset(_ preset: UnitPreset) throws(AudioUnitError) {
        let list = presets()
        guard list.indices.contains(preset.number) else {
            throw AudioUnitError(.invalidPropertyValue, "\(pluginURI) has no preset number \(preset.number) (it has \(list.count))")
        }
        try loadPreset(uri: list[preset.number].uri)
    }

    /// Loads the LV2 preset with `uri` (any preset the world knows for this plugin).
    /// - Thread: control.
    public func loadPreset(uri: String) throws(AudioUnitError) {
        guard let snapshot = LV2StateSnapshot(resource: uri, world: world) else {
            throw AudioUnitError(.invalidPropertyValue, "\(pluginURI): preset \(uri) is not found or does not load")
        }
        guard snapshot.pluginURI == pluginURI else {
            throw AudioUnitError(.invalidPropertyValue, "\(uri) is a preset of \(snapshot.pluginURI ?? "no plugin"), not of \(pluginURI)")
        }
        lilv_state_emit_port_values(snapshot.raw, LV2Unit.setPortValue, Unmanaged.passUnretained(self).toOpaque())
        if snapshot.propertyCount > 0 {
            if let instance { try restore(snapshot, into: instance) } else { pendingState = snapshot }
        }
    }

    /// Saves the current state as an LV2 preset bundle that lilv and jalv load: writes
    /// `manifest.ttl` and `<file>.ttl` into `bundle` (a directory ending in `.lv2`; add its
    /// parent to LV2_PATH). Returns the preset's URI. The unit must be initialized, so that
    /// the plugin's own state is included.
    /// - Thread: control.
    @discardableResult
    public func savePreset(label: String, bundle: URL, uri: String? = nil) throws(AudioUnitError) -> String {
        guard let instance else {
            throw AudioUnitError(.uninitialized, "\(pluginURI): initialize the unit before saving a preset, so the plugin's state is included")
        }
        do {
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        } catch {
            throw AudioUnitError(.invalidFilePath, "\(pluginURI): cannot create the preset bundle \(bundle.path)", underlying: error)
        }
        let directory = bundle.path
        let snapshot = try capture(instance, directory: directory)
        let fileStem = label.map { $0.isLetter || $0.isNumber ? $0 : "_" }.reduce(into: "") { $0.append($1) }
        let fileName = (fileStem.isEmpty ? "preset" : fileStem) + ".ttl"
        let presetURI = uri ?? URL(fileURLWithPath: directory).appendingPathComponent(fileName).absoluteString
        let status = world.withLock { () -> Int32 in
            lilv_state_set_label(snapshot.raw, label)
            return lilv_state_save(world.raw, world.urids.mapFeatureData, world.urids.unmapFeatureData, snapshot.raw, presetURI, directory, fileName)
        }
        guard status == 0 else {
            throw AudioUnitError(.invalidFilePath, "\(pluginURI): lilv could not save the preset '\(label)' into \(directory) (status \(status))")
        }
        presetCache = nil
        return presetURI
    }

    // MARK: - Internals

    /// The presets, loaded from the world on first use.
    func presets() -> [(uri: String, label: String)] {
        if let presetCache { return presetCache }
        let found: [(uri: String, label: String)] = world.withLock {
            let related = lilv_plugin_get_related(plugin, world.nodes.preset)
            defer { lilv_nodes_free(related) }
            var list: [(uri: String, label: String)] = []
            forEachNode(related) { node in
                lilv_world_load_resource(world.raw, node)
                guard let uri = LV2Node.string(node) else { return }
                let label = LV2Node(owning: lilv_world_get(world.raw, node, world.nodes.rdfsLabel, nil)).string ?? uri
                list.append((uri, label))
            }
            return list
        }
        let sorted = found.sorted { ($0.label, $0.uri) < ($1.label, $1.uri) }
        presetCache = sorted
        return sorted
    }

    /// Restores a state into a running instance between cycles.
    func restore(_ snapshot: LV2StateSnapshot, into instance: LV2Instance) throws(AudioUnitError) {
        world.withLock {
            instance.gate.withControl {
                lilv_state_restore(snapshot.raw, instance.raw, nil, nil, 0, instance.features.pointer)
            }
        }
    }

    /// The instance's state now: port values from the parameters, properties from the plugin.
    private func capture(_ instance: LV2Instance, directory: String?) throws(AudioUnitError) -> LV2StateSnapshot {
        let flags = UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue)
        let made: OpaquePointer? = world.withLock {
            lilv_state_new_from_instance(
                plugin, instance.raw, world.urids.mapFeatureData, instance.features.scratchDirectory, directory, directory, directory,
                LV2Unit.portValue, Unmanaged.passUnretained(self).toOpaque(), flags, instance.features.pointer)
        }
        guard let made else { throw AudioUnitError(.invalidPropertyValue, "\(pluginURI): lilv could not capture the plugin's state") }
        return LV2StateSnapshot(owning: made)
    }

    private func turtle(_ snapshot: LV2StateSnapshot) throws(AudioUnitError) -> Data {
        guard let text = snapshot.turtle(world: world) else {
            throw AudioUnitError(.invalidPropertyValue, "\(pluginURI): lilv could not write the state as Turtle")
        }
        return Data(text.utf8)
    }

    /// `LilvGetPortValueFunc`: the current value of an input control port, as an atom:Float.
    private static let portValue: LilvGetPortValueFunc = { symbol, userData, size, type in
        guard let symbol, let userData, let size, let type else { return nil }
        let unit = Unmanaged<LV2Unit>.fromOpaque(userData).takeUnretainedValue()
        let name = String(cString: symbol)
        guard let slot = unit.parameters.index(ofIdentifier: name), !unit.parameters.infos[slot].isOutput,
              let instance = unit.instance else { return nil }
        let port = Int(unit.layout.parameterPorts[slot])
        let scratch = instance.stateValues + port
        scratch.pointee = unit.parameters.value(at: slot)
        size.pointee = 4
        type.pointee = unit.world.urids.map(LV2URI.atomFloat)
        return UnsafeRawPointer(scratch)
    }

    /// `LilvSetPortValueFunc`: a state's port value becomes the parameter's value.
    private static let setPortValue: LilvSetPortValueFunc = { symbol, userData, value, size, type in
        guard let symbol, let userData, let value else { return }
        let unit = Unmanaged<LV2Unit>.fromOpaque(userData).takeUnretainedValue()
        let urids = unit.world.urids
        let number: Float
        switch type {
        case urids.map(LV2URI.atomFloat) where size == 4: number = value.load(as: Float.self)
        case urids.map(LV2URI.atomDouble) where size == 8: number = Float(value.load(as: Double.self))
        case urids.map(LV2URI.atomInt) where size == 4: number = Float(value.load(as: Int32.self))
        case urids.map(LV2URI.atomLong) where size == 8: number = Float(value.load(as: Int64.self))
        case urids.map(LV2URI.atomBool) where size == 4: number = value.load(as: Int32.self) != 0 ? 1 : 0
        default: return
        }
        guard let slot = unit.parameters.index(ofIdentifier: String(cString: symbol)), !unit.parameters.infos[slot].isOutput else { return }
        let info = unit.parameters.infos[slot]
        unit.parameters.exchangeValue(min(max(number, info.minValue), info.maxValue), at: slot)
    }
}
