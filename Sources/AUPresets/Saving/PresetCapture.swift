import AUCore
import Foundation

/// Builds a ``ChainPreset`` from live units, for `auhost save` and the live `save`
/// command: each node's unit reference, parameter values, factory preset, bypass and state.
///
/// What a node records:
/// - `preset`: the factory preset the unit reports as present (`PresentPreset` number ≥ 0).
/// - `parameters` (``ParameterSelection``): by default only the values that differ from the
///   baseline a load starts from — the parameter's default, or, when a factory preset is
///   recorded, every writable parameter (the preset moved the baseline, and its values are
///   not known without loading it). `.all` records every writable parameter. Values are
///   saved as the shortest decimal that reads back to the same Float.
/// - `bypass`: `true` when bypassed, left out otherwise.
/// - `state`: the unit's `ClassInfo` without parameter values (``AudioUnit/saveState(parameterValues:)``)
///   when the unit keeps state beyond its parameters
///   (``AudioUnit/saveCustomState()`` returns data: an LV2 plugin's properties through its
///   state interface, without port values) that its parameters and property
///   parameters do not say (``AudioUnit/parametersHoldCustomState``: a native unit whose state
///   is only its parameter values, a sampler's bank and instrument written as `soundbank`,
///   `bank`, `program`), else left out, so that deleting a parameter from the file returns
///   it to its default; ``StateSelection`` changes that.
/// - property parameters: each writable one with a value, in `parameters` (or as the
///   node's own key: `soundbank`, `bank`, `program`).
/// - Thread: [control]
public struct PresetCapture: Sendable {
    /// Which parameter values a captured node records.
    /// - Thread: [control]
    public enum ParameterSelection: Sendable {
        /// Values that differ from the defaults (every value when a factory preset is recorded).
        case changedFromDefaults
        /// Every writable parameter.
        case all
    }

    /// When a captured node records its `ClassInfo` state.
    /// - Thread: [control]
    public enum StateSelection: Sendable {
        /// When the unit has state beyond its parameters.
        case whenCustom
        case always
        case never
    }

    /// A live unit to capture: the id to give it and the reference to write for it.
    /// - Thread: [control]
    public struct Unit: Sendable {
        public var id: String
        public var unit: AudioUnit
        /// The unit reference to write, as the preset or command line gave it.
        public var reference: String
        /// - Thread: [control]
        public init(id: String, unit: AudioUnit, reference: String) {
            self.id = id
            self.unit = unit
            self.reference = reference
        }
    }

    public var parameters: ParameterSelection
    public var state: StateSelection
    /// The folder the preset is saved into: file paths inside a state are written relative
    /// to it (nil: as each unit's ``AudioUnit/stateFolder`` has them).
    public var folder: URL?

    /// - Thread: [control]
    public init(parameters: ParameterSelection = .changedFromDefaults, state: StateSelection = .whenCustom, folder: URL? = nil) {
        self.parameters = parameters
        self.state = state
        self.folder = folder
    }

    /// A whole chain; `routing` is written in the `chain` form when it is a simple chain
    /// (see ``PresetRouting/compacted(nodeIDs:)``).
    /// - Thread: [control]
    public func chain(
        name: String, description: String? = nil, sampleRate: Double? = nil, units: [Unit], routing: PresetRouting
    ) throws(PresetError) -> ChainPreset {
        var nodes: [PresetNode] = []
        var problems: [PresetProblem] = []
        for unit in units {
            do {
                nodes.append(try node(unit))
            } catch {
                problems += error.problems
            }
        }
        if !problems.isEmpty { throw PresetError(problems) }
        let ids = units.map(\.id)
        return ChainPreset(name: name, description: description, sampleRate: sampleRate, nodes: nodes, routing: routing.compacted(nodeIDs: ids))
    }

    /// One node from a live unit.
    /// - Thread: [control]
    public func node(_ captured: Unit) throws(PresetError) -> PresetNode {
        let unit = captured.unit
        func fail(_ message: String) -> PresetError {
            PresetError([PresetProblem(.captureFailed, file: "", path: "node '\(captured.id)'", message: message)])
        }
        var node = PresetNode(id: captured.id, unit: captured.reference)
        do {
            let present = try unit.value(of: .presentPreset)
            if present.number >= 0 { node.preset = present.name }
            if try unit.value(of: .bypassEffect) { node.bypass = true }
            let keepsCustomState = try unit.saveCustomState() != nil && !unit.parametersHoldCustomState
            if state == .always || (state == .whenCustom && keepsCustomState) {
                let kept = unit.stateFolder
                defer { unit.stateFolder = kept }
                if let folder { unit.stateFolder = folder }
                node.state = try unit.saveState(parameterValues: false)
            }
        } catch {
            throw fail("cannot read the state of '\(unit.name)': \(error.message)")
        }
        let everything = parameters == .all || node.preset != nil
        var seen: Set<String> = []
        for (index, info) in unit.parameters.infos.enumerated() where info.isWritable && seen.insert(info.identifier).inserted {
            let value = unit.parameters.value(at: index)
            guard everything || value != info.defaultValue else { continue }
            if let name = info.valueString(for: value), info.unit == .indexed, info.value(named: name) == value {
                node.parameters.append(PresetParameter(key: info.identifier, value: .named(name)))
            } else {
                node.parameters.append(PresetParameter(key: info.identifier, value: .number(decimalDouble(value))))
            }
        }
        for info in unit.propertyParameters where info.isWritable {
            if let value = unit.propertyParameterValue(info.identifier) {
                node.parameters.append(PresetParameter(key: info.identifier, value: PropertyCheck.presetValue(value)))
            }
        }
        return node
    }
}

extension LoadedPreset {
    /// The preset as the loaded units are now (after live edits), with the file's name,
    /// description, sample rate, references and routing.
    /// - Thread: [control]
    public func capture(_ capture: PresetCapture = PresetCapture()) throws(PresetError) -> ChainPreset {
        var problems: [PresetProblem] = []
        var nodes: [PresetNode] = []
        for node in self.nodes {
            do {
                nodes.append(try capture.node(PresetCapture.Unit(id: node.id, unit: node.unit, reference: node.reference)))
            } catch {
                problems += error.problems
            }
        }
        if !problems.isEmpty { throw PresetError(problems) }
        // A file the unit reads as the file named it (a path relative to the preset's folder,
        // gm), when it is still that file.
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        for (index, node) in self.nodes.enumerated() {
            for (parameterIndex, parameter) in nodes[index].parameters.enumerated() {
                guard let original = preset.nodes[index].value(of: parameter.key), original != parameter.value,
                      let resolved = try? PropertyCheck.resolve(key: parameter.key, value: original, unit: node.unit, folder: folder),
                      PropertyCheck.presetValue(resolved.value) == parameter.value
                else { continue }
                nodes[index].parameters[parameterIndex].value = original
            }
        }
        var result = preset
        result.nodes = nodes
        return result
    }
}
