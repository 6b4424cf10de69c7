import AUCore

/// Property parameters: the plugin's patch properties, set by `patch:Set` messages through
/// its control atom input and tracked through the `patch:Set` / `patch:Put` it reports.
extension LV2Unit {
    /// Checks `value` (a path: an existing readable file, made absolute) and queues a
    /// `patch:Set` for the plugin's next run, initialized or not.
    /// - Thread: [control]
    func setProperty(_ identifier: String, to value: PropertyParameterValue) throws(AudioUnitError) {
        guard let entry = patchProperties.entry(identifier) else {
            let known = patchProperties.entries.map(\.info.identifier)
            throw AudioUnitError(
                .invalidParameter, "\(name) has no property '\(identifier)'" + (known.isEmpty ? "" : " (it has: \(known.joined(separator: ", ")))"))
        }
        guard entry.info.isWritable else {
            throw AudioUnitError(.propertyNotWritable, "\(name): property '\(identifier)' is read-only (the plugin only reports it)")
        }
        guard let channel = patchChannel, layout.patchInputPort != nil else {
            throw AudioUnitError(.cannotDoInCurrentContext, "\(name): property '\(identifier)': the plugin has no atom input to send it through")
        }
        var sent = value
        if entry.info.valueType == .path {
            let text: String
            switch value {
            case .path(let given), .string(let given): text = given
            default: throw wrongType(entry, value)
            }
            sent = .path(try LV2PropertyFile.checked(text, unit: name, property: identifier, expectsAudio: LV2PropertyFile.expectsAudio(entry.info)))
        }
        guard let message = patchMessage.set(property: entry.urid, to: sent, as: entry.atomType) else { throw wrongType(entry, value) }
        readPropertyReports()
        guard channel.send(message) else {
            throw AudioUnitError(.cannotDoInCurrentContext, "\(name): property '\(identifier)': too many changes wait for the plugin to run")
        }
        propertyValuesSet[identifier] = sent
        propertyValuesReported[identifier] = nil
    }

    /// What the plugin last reported for the property, else what was last set, else its
    /// `lv2:default`; nil when none is known.
    /// - Thread: [control]
    func propertyValue(_ identifier: String) -> PropertyParameterValue? {
        readPropertyReports()
        return propertyValuesReported[identifier] ?? propertyValuesSet[identifier] ?? patchProperties.entry(identifier)?.defaultValue
    }

    /// Whether a property value set has not been reported back by the plugin yet (a file it
    /// is still loading), or a restored state not taken in yet: the offline renderer runs
    /// silent cycles until none is, so that the
    /// first frame of a file already goes through the impulse response it was given.
    /// - Thread: [control]
    public var awaitsPropertyReports: Bool {
        readPropertyReports()
        return awaitsRestoredStateReport || propertyValuesSet.keys.contains { propertyValuesReported[$0] == nil }
    }

    /// Reads what the plugin reported since the last call.
    /// - Thread: [control]
    func readPropertyReports() {
        var reports: [(LV2PatchProperties.Entry, PropertyParameterValue)] = []
        patchChannel?.receive { atom in
            for (property, value) in patchMessage.reported(in: atom) {
                guard let entry = patchProperties.entry(urid: property) else { continue }
                propertyValuesReported[entry.info.identifier] = value
                awaitsRestoredStateReport = false
                reports.append((entry, value))
            }
        }
        for (entry, value) in reports { reassertIfRestoreWon(entry, reported: value) }
    }

    /// How many times a property value set after a restored state is sent again when the
    /// plugin reports another value (a plugin that reports a path its own way gets its
    /// file again at most this often, not forever).
    static let reassertLimit = 2

    /// Sends the value set for `entry` again when the plugin reported another after taking
    /// in a restored state (``reassertsAfterRestore``); stops once it reports the value set.
    private func reassertIfRestoreWon(_ entry: LV2PatchProperties.Entry, reported: PropertyParameterValue) {
        let identifier = entry.info.identifier
        guard let left = reassertsAfterRestore[identifier], let wanted = propertyValuesSet[identifier] else { return }
        guard reported != wanted, left > 0, let message = patchMessage.set(property: entry.urid, to: wanted, as: entry.atomType),
              patchChannel?.send(message) == true
        else {
            reassertsAfterRestore[identifier] = nil
            return
        }
        reassertsAfterRestore[identifier] = left - 1
        propertyValuesReported[identifier] = nil
    }

    /// Before a new instance's first run: the values set again when the last instance kept
    /// no state of its own, and a `patch:Get` so that the plugin reports its values.
    /// - Thread: [control]
    func startPropertyReports(_ instance: LV2Instance) {
        guard let channel = patchChannel, instance.patchInput >= 0 else { return }
        if resendsPropertyValues {
            for entry in patchProperties.entries {
                if let value = propertyValuesSet[entry.info.identifier], let message = patchMessage.set(property: entry.urid, to: value, as: entry.atomType) {
                    _ = channel.send(message)
                }
            }
            resendsPropertyValues = false
        }
        _ = channel.send(patchMessage.getAll())
    }

    private func wrongType(_ entry: LV2PatchProperties.Entry, _ value: PropertyParameterValue) -> AudioUnitError {
        AudioUnitError(.invalidPropertyValue, "\(name): property '\(entry.info.identifier)' takes a \(entry.info.valueType.rawValue), not '\(value)'")
    }
}
