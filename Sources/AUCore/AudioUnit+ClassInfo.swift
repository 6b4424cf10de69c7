import Foundation

/// `ClassInfo` and presets: the unit's whole state as a document, and the factory and
/// present preset.
extension AudioUnit {
    /// The whole state as `ClassInfo` data: identity, parameter values, custom state.
    /// Without `parameterValues` the parameters are left out (a saved preset lists them
    /// itself: restoring the state must not bring back one deleted from the file).
    /// - Thread: [control]
    public func saveState(parameterValues: Bool = true) throws(AudioUnitError) -> Data {
        var values: [String: Float] = [:]
        for (index, info) in parameters.infos.enumerated() where parameterValues && !info.isOutput {
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
    /// - Thread: [control]
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

    func setClassInfo(_ data: Data, scope: Scope) throws(AudioUnitError) -> [PropertyChange] {
        try requireScope(.classInfo, scope, in: [.global])
        try restoreState(data)
        return [PropertyChange(id: .classInfo, scope: scope, element: 0), PropertyChange(id: .presentPreset, scope: .global, element: 0)]
    }

    /// Sets `PresentPreset`: a factory preset's number loads it (listeners hear of every
    /// parameter); a user preset (number < 0) only names the state.
    func setPresentPreset(_ preset: UnitPreset, scope: Scope) throws(AudioUnitError) -> [PropertyChange] {
        try requireScope(.presentPreset, scope, in: [.global])
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
        return [PropertyChange(id: .presentPreset, scope: scope, element: 0)]
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
