import AUCore
import Foundation

/// Checks each node against the registry and makes its instance: the id (well formed,
/// unique), the unit reference (resolved through ``ComponentRegistry/resolve(_:)``), the
/// factory preset, the saved state and every parameter, applying each to the new instance
/// as it goes. What fails is reported and left out; the rest is still checked.
/// - Thread: [control]
struct NodeValidator {
    let registry: ComponentRegistry
    /// The folder the preset's relative file paths start from (its own).
    let folder: URL
    /// Where nodes without an `"isolation"` key run, and what isolates one.
    var isolation = UnitIsolation.none
    var isolator: (any ComponentIsolator)?
    var isolationOfComponent: (@Sendable (Component) -> UnitIsolation)?

    /// A node as far as it got: its component and instance when they could be made.
    struct Result {
        var component: Component?
        var unit: AudioUnit?
        var settings = NodeSettings()
    }

    func validate(_ decoded: DecodedPreset, problems: inout ProblemCollector) -> [Result] {
        let nodesPath = JSONPath.root.key("nodes")
        var firstWithID: [String: Int] = [:]
        var results: [Result] = []
        // Each usable node's unit reference resolved once: by the isolator's start and by the node's validation.
        let resolutions = decoded.preset.nodes.indices.map { index in
            decoded.isNodeUsable[index] ? Swift.Result { () throws(AudioUnitError) in try registry.resolve(decoded.preset.nodes[index].unit) } : nil
        }
        prepareIsolation(of: decoded.preset.nodes, resolutions)
        for (index, node) in decoded.preset.nodes.enumerated() {
            let path = nodesPath.index(index)
            guard decoded.isNodeUsable[index] else {
                results.append(Result())
                continue
            }
            if !Self.isValidID(node.id) {
                problems.add(.invalidValue, path.key("id"),
                             "expected a node id of ASCII letters, digits, '_' and '-' (not \"input\" or \"output\"), found \(quoted(node.id))")
            } else if let earlier = firstWithID[node.id] {
                problems.add(.duplicateNodeID, path.key("id"), "duplicate node id \(quoted(node.id)); expected a unique id (\(nodesPath.index(earlier)) has it too)")
            } else {
                firstWithID[node.id] = index
            }
            results.append(validate(node, resolutions[index]!, at: path, problems: &problems))
        }
        return results
    }

    /// Where `node` runs, when it is isolated: built-in units are the host's own code and
    /// always run in its process.
    private func isolationMode(of node: PresetNode, _ component: Component) -> UnitIsolation? {
        guard component.format != .builtin, case let mode = node.isolation ?? isolationOfComponent?(component) ?? isolation, mode != .none else { return nil }
        return mode
    }

    /// Has the isolator start every isolated node's child before the first is made, so that
    /// a `per-unit` chain's start-ups (about 90 ms of CPU each here) overlap on the machine's cores.
    private func prepareIsolation(of nodes: [PresetNode], _ resolutions: [Swift.Result<Component, AudioUnitError>?]) {
        guard let isolator else { return }
        for (node, resolution) in zip(nodes, resolutions) {
            guard let component = try? resolution?.get(), component.brokenReason == nil, let mode = isolationMode(of: node, component) else { continue }
            isolator.prepare(node: node.id, reference: node.unit, mode: mode)
        }
    }

    /// ASCII letters, digits, `_` and `-` (easy to type in `--set` and shells), not empty,
    /// not one of the graph's ends.
    static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id != PresetEndpoint.inputName && id != PresetEndpoint.outputName
            && id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }

    private func validate(
        _ node: PresetNode, _ resolution: Swift.Result<Component, AudioUnitError>, at path: JSONPath, problems: inout ProblemCollector
    ) -> Result {
        var result = Result()
        guard var component = component(resolution, reference: node.unit, at: path.key("unit"), problems: &problems) else { return result }
        if let isolator, let mode = isolationMode(of: node, component) {
            component = isolator.isolated(component, node: node.id, reference: node.unit, mode: mode)
        }
        result.component = component
        if let reason = component.brokenReason {
            problems.add(.unitUnavailable, path.key("unit"), "'\(component.name)' is known not to work: \(reason)")
            return result
        }
        let unit: AudioUnit
        do {
            unit = try component.instantiate()
        } catch {
            problems.add(.unitUnavailable, path.key("unit"), "'\(component.name)' could not be created: \(error.message)")
            return result
        }
        result.unit = unit
        unit.stateFolder = folder
        result.settings.stateFolder = folder
        if let state = node.state {
            do {
                try unit.setValue(state, for: .classInfo)
                result.settings.state = state
            } catch {
                problems.add(.badState, path.key("state"), "expected the saved state of '\(unit.name)', found state it refuses: \(error.message)")
            }
        }
        if let name = node.preset {
            let presets = unit.factoryPresets
            if let preset = presets.first(where: { $0.name == name })
                ?? presets.first(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) {
                do {
                    try unit.setValue(preset, for: .presentPreset)
                    result.settings.factoryPreset = preset
                } catch {
                    problems.add(.unknownFactoryPreset, path.key("preset"), "'\(unit.name)' could not load factory preset \(quoted(name)): \(error.message)")
                }
            } else if presets.isEmpty {
                problems.add(.unknownFactoryPreset, path.key("preset"), "\(quoted(name)) is not a factory preset; '\(unit.name)' has none")
            } else {
                problems.add(.unknownFactoryPreset, path.key("preset"),
                             "\(quoted(name)) is not a factory preset of '\(unit.name)'; expected one of: \(listing(presets.map(\.name)))")
            }
        }
        for parameter in node.parameters {
            let parameterPath = PresetNode.propertyKeys.contains(parameter.key) ? path.key(parameter.key) : path.key("parameters").key(parameter.key)
            do {
                if let property = try PropertyCheck.resolve(key: parameter.key, value: parameter.value, unit: unit, folder: folder) {
                    try property.apply(to: unit)
                    result.settings.properties.append(property)
                    continue
                }
                if PresetNode.propertyKeys.contains(parameter.key) {
                    throw ParameterIssue(kind: .unknownParameter, message: "'\(unit.name)' takes no \(parameter.key == "soundbank" ? "sound bank" : parameter.key); expected a sampler (aumu:samp:AUHs) for soundbank, bank and program")
                }
                let resolved = try ParameterCheck.resolve(key: parameter.key, value: parameter.value, unit: unit)
                try resolved.apply(to: unit)
                result.settings.parameters.append(resolved)
            } catch let issue as ParameterIssue {
                problems.add(issue.kind, parameterPath, issue.message)
            } catch {
                problems.add(.valueOutOfRange, parameterPath, "'\(unit.name)' refused \(parameter.value): \(error)")
            }
        }
        if node.isBypassed {
            do {
                try unit.setValue(true, for: .bypassEffect)
                result.settings.isBypassed = true
            } catch {
                problems.add(.invalidValue, path.key("bypass"), "'\(unit.name)' cannot be bypassed: \(error.message)")
            }
        }
        return result
    }

    /// The component `reference` resolved to, or nil after reporting an unknown or ambiguous one.
    private func component(
        _ resolution: Swift.Result<Component, AudioUnitError>, reference: String, at path: JSONPath, problems: inout ProblemCollector
    ) -> Component? {
        do {
            return try resolution.get()
        } catch {
            switch error.code {
            case .extensionNotFound where reference.count > ComponentRegistry.maximumReferenceLength:
                problems.add(.unknownUnit, path, error.message)
            case .extensionNotFound:
                let matches = registry.closestMatches(to: reference, limit: 3).map(Self.oneLine)
                problems.add(.unknownUnit, path,
                             "no unit matches \(quoted(reference)); expected type:subtype:manufacturer, lv2:URI or an exact name"
                                 + (matches.isEmpty ? " (the registry has no units)" : "; closest matches: \(matches.joined(separator: "; "))"))
            case .invalidPropertyValue:
                let candidates = error.message.split(separator: "\n").dropFirst().map { Self.oneLine(String($0)) }
                problems.add(.ambiguousUnit, path,
                             "\(quoted(reference)) names \(candidates.isEmpty ? "several units" : "\(candidates.count) units"); expected one of: \(candidates.joined(separator: "; "))")
            default:
                problems.add(.unitUnavailable, path, Self.oneLine(error.message))
            }
            return nil
        }
    }

    /// A registry line with its runs of spaces folded: `aufx:splt:AUHs Splitter (builtin: builtin:Splitter)`.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }
}
