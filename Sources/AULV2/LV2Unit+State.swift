import AUCore
import CLilv
import Foundation

/// State (the `ClassInfo` custom data), LV2 presets as factory presets, and saving the
/// current state as an LV2 preset bundle.
extension LV2Unit {
    // MARK: - ClassInfo

    /// The plugin's own state as Turtle, as the unit was given it (the last `ClassInfo`
    /// restored), not as the running plugin would report it now: a saved preset says the
    /// same whatever the moment, live or offline, and a plugin's own defaults (a reverb's
    /// preset name) and what its property parameters say are not repeated. File URIs under
    /// ``stateFolder`` are written relative to it. Nil when the unit was given no state with
    /// properties.
    /// - Thread: [control]
    func savePluginState() throws(AudioUnitError) -> Data? {
        guard let givenState, givenState.propertyCount > 0 else { return nil }
        return try turtle(givenState, base: stateFolder.map(Self.baseURI))
    }

    /// `folder`'s `file:` URI ending in `/`: the base that state file URIs are relative to.
    static func baseURI(_ folder: URL) -> String {
        let uri = folder.standardizedFileURL.absoluteString
        return uri.hasSuffix("/") ? uri : uri + "/"
    }

    /// Restores what ``saveCustomState()`` saved: into the instance now (between cycles),
    /// or when the unit is next initialized. Port values in the state (lilv state from
    /// elsewhere, or saved before states left them out) become parameter values.
    /// - Thread: [control]
    func restorePluginState(_ data: Data) throws(AudioUnitError) {
        // Relative file URIs (a state saved with a ``stateFolder``) start from this unit's.
        let base = stateFolder.map { "@base <\(Self.baseURI($0))> .\n" } ?? ""
        guard let text = String(data: data, encoding: .utf8), let snapshot = LilvStateHandle(turtle: base + text, world: world) else {
            throw AudioUnitError(.invalidPropertyValue, "\(pluginURI): the ClassInfo's LV2 state does not parse as lilv state Turtle")
        }
        guard snapshot.pluginURI == pluginURI else {
            throw AudioUnitError(.invalidPropertyValue, "\(pluginURI): the ClassInfo's LV2 state belongs to \(snapshot.pluginURI ?? "no plugin")")
        }
        for path in snapshot.turtle().map(Self.filePaths(in:)) ?? [] where !FileManager.default.fileExists(atPath: path) {
            throw AudioUnitError(.invalidFilePath, "\(name): the state names the file \(path), which does not exist")
        }
        snapshot.forEachPortValue(setPortValue)
        givenState = snapshot
        // The state replaces the property values set before it; those set after it win.
        propertyValuesSet = [:]
        reassertsAfterRestore = [:]
        if let instance { try restore(snapshot, into: instance) } else { pendingState = snapshot }
    }

    // MARK: - Presets

    /// The plugin's LV2 presets (`pset:Preset`), sorted by label then URI; the number is
    /// the position in that order.
    var presetList: [UnitPreset] {
        presets().enumerated().map { UnitPreset(number: $0.offset, name: $0.element.label) }
    }

    /// The URI of each factory preset, by number.
    /// - Thread: [control]
    public var presetURIs: [String] { presets().map(\.uri) }

    /// Loads an LV2 preset: its port values become the parameter values, and its
    /// properties (if any) are restored into the instance between cycles.
    /// - Thread: [control]
    func applyPreset(_ preset: UnitPreset) throws(AudioUnitError) {
        let list = presets()
        guard list.indices.contains(preset.number) else {
            throw AudioUnitError(.invalidPropertyValue, "\(pluginURI) has no preset number \(preset.number) (it has \(list.count))")
        }
        try loadPreset(uri: list[preset.number].uri)
    }

    /// Loads the LV2 preset with `uri` (any preset the world knows for this plugin).
    /// - Thread: [control]
    public func loadPreset(uri: String) throws(AudioUnitError) {
        guard let snapshot = LilvStateHandle(resource: uri, world: world) else {
            throw AudioUnitError(.invalidPropertyValue, "\(pluginURI): preset \(uri) is not found or does not load")
        }
        guard snapshot.pluginURI == pluginURI else {
            throw AudioUnitError(.invalidPropertyValue, "\(uri) is a preset of \(snapshot.pluginURI ?? "no plugin"), not of \(pluginURI)")
        }
        snapshot.forEachPortValue(setPortValue)
        if snapshot.propertyCount > 0 {
            if let instance { try restore(snapshot, into: instance) } else { pendingState = snapshot }
        }
    }

    /// Saves the current state as an LV2 preset bundle that lilv and jalv load: writes
    /// `manifest.ttl` and `<file>.ttl` into `bundle` (a directory ending in `.lv2`; add its
    /// parent to LV2_PATH). Returns the preset's URI. The unit must be initialized, so that
    /// the plugin's own state is included.
    /// - Thread: [control]
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
        let snapshot = try capture(instance, directory: directory, portValues: true)
        let fileStem = label.map { $0.isLetter || $0.isNumber ? $0 : "_" }.reduce(into: "") { $0.append($1) }
        let fileName = (fileStem.isEmpty ? "preset" : fileStem) + ".ttl"
        let presetURI = uri ?? URL(fileURLWithPath: directory).appendingPathComponent(fileName).absoluteString
        let status = snapshot.save(label: label, uri: presetURI, directory: directory, fileName: fileName)
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
        var found: [(uri: String, label: String)] = []
        for node in plugin.related(world.nodes.preset) {
            world.loadResource(node)
            guard let uri = node.string else { continue }
            found.append((uri, world.value(of: node, world.nodes.rdfsLabel)?.string ?? uri))
        }
        let sorted = found.sorted { ($0.label, $0.uri) < ($1.label, $1.uri) }
        presetCache = sorted
        return sorted
    }

    /// Restores a state into a running instance between cycles.
    func restore(_ snapshot: LilvStateHandle, into instance: LV2Instance) throws(AudioUnitError) {
        instance.gate.withControl { snapshot.restore(into: instance.lilv, features: instance.features.pointer) }
    }

    /// The instance's state now: properties from the plugin, and with `portValues` the
    /// input control ports' values from the parameters.
    func capture(_ instance: LV2Instance, directory: String?, portValues: Bool) throws(AudioUnitError) -> LilvStateHandle {
        let flags = UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue)
        let made = LilvStateHandle(
            capturing: instance.lilv, of: plugin, scratchDirectory: instance.features.scratchDirectory, directory: directory,
            flags: flags, features: instance.features.pointer) { symbol in portValues ? portValue(symbol, instance: instance) : nil }
        guard let made else { throw AudioUnitError(.invalidPropertyValue, "\(pluginURI): lilv could not capture the plugin's state") }
        return made
    }

    /// The paths of the `file:` URIs in a state's Turtle (written absolute, without a base).
    static func filePaths(in turtle: String) -> [String] {
        turtle.split(separator: "<").compactMap { piece -> String? in
            guard piece.hasPrefix("file://"), let end = piece.firstIndex(of: ">") else { return nil }
            return URL(string: String(piece[..<end]))?.path
        }
    }

    private func turtle(_ snapshot: LilvStateHandle, base: String?) throws(AudioUnitError) -> Data {
        guard let text = snapshot.turtle(base: base) else {
            throw AudioUnitError(.invalidPropertyValue, "\(pluginURI): lilv could not write the state as Turtle")
        }
        return Data(text.utf8)
    }

    /// The current value of the input control port `symbol`, as an atom:Float, for a
    /// state being captured (nil: not an input control port).
    private func portValue(_ symbol: String, instance: LV2Instance) -> LilvStateHandle.PortValue? {
        guard let slot = parameters.index(ofIdentifier: symbol), !parameters.infos[slot].isOutput else { return nil }
        let scratch = instance.stateValues + Int(layout.parameterPorts[slot])
        scratch.pointee = parameters.value(at: slot)
        return (UnsafeRawPointer(scratch), 4, world.urids.map(LV2URI.atomFloat))
    }

    /// A state's port value becomes the parameter's value.
    private func setPortValue(_ symbol: String, _ port: LilvStateHandle.PortValue) {
        let urids = world.urids
        let value = port.value
        let number: Float
        switch port.type {
        case urids.map(LV2URI.atomFloat) where port.size == 4: number = value.load(as: Float.self)
        case urids.map(LV2URI.atomDouble) where port.size == 8: number = Float(value.load(as: Double.self))
        case urids.map(LV2URI.atomInt) where port.size == 4: number = Float(value.load(as: Int32.self))
        case urids.map(LV2URI.atomLong) where port.size == 8: number = Float(value.load(as: Int64.self))
        case urids.map(LV2URI.atomBool) where port.size == 4: number = value.load(as: Int32.self) != 0 ? 1 : 0
        default: return
        }
        guard let slot = parameters.index(ofIdentifier: symbol), !parameters.infos[slot].isOutput else { return }
        let info = parameters.infos[slot]
        parameters.exchangeValue(min(max(number, info.minValue), info.maxValue), at: slot)
    }
}
