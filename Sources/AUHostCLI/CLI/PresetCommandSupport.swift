import AUHost

/// What the commands that take a PRESET.json share: loading it with `--set` overrides,
/// every problem reported at once.
/// - Thread: [control]
enum PresetCommandSupport {
    /// The most problems printed for one preset (a file can hold thousands of bad
    /// connections); a last line counts the rest.
    static let maximumProblemLines = 50

    /// Loads `given` (a file, or a shipped preset's name: ``installedPreset(_:)``) against the
    /// registry with the `--set` arguments applied; problems become one error line each. A
    /// `file` that does not exist and does not end in `.json` may name
    /// a unit (`lv2:URI`, `type:subtype:manufacturer` or a name): it becomes a chain of that
    /// one unit (``oneUnitChain(_:_:)``), whose parameters `--set PARAM=VALUE` sets.
    /// `isolation` is where nodes without an `"isolation"` key run (`--isolation`); a node
    /// isolated either way runs in a unit-host child, whose faults are one line each on
    /// standard error when `live` (with how to reload the node; offline, the file that
    /// failed says it).
    /// `isolationOfComponent`, when given, says it for each node without a key instead.
    static func load(
        _ given: String, sets: [String], context: CommandContext, isolation: UnitIsolation = .none, live: Bool = false,
        isolationOfComponent: (@Sendable (Component) -> UnitIsolation)? = nil
    ) throws(CLIError) -> LoadedPreset {
        let file = installedPreset(given) ?? given
        let unit = try oneUnitChain(file, context)
        do throws(PresetError) {
            let nodeSets = unit.map { chain in sets.map { $0.split(separator: "=", maxSplits: 1).first?.contains(".") == true ? $0 : "\(chain.nodes[0].id).\($0)" } }
            let overrides = try ParameterOverride.parse(nodeSets ?? sets)
            var loader = PresetLoader(registry: context.registry)
            loader.isolation = isolation
            loader.isolationOfComponent = isolationOfComponent
            let errors = context.errors
            // Offline, the failed file's own line names the fault.
            loader.isolator = BridgeIsolator { fault in if live { errors.line("auhost: " + fault.liveLine) } }
            if let unit { return try loader.load(unit, file: file, overrides: overrides) }
            return try loader.load(file: file, overrides: overrides)
        } catch {
            throw CLIError(lines(error, file: file))
        }
    }

    /// The shipped preset a bare name gives (`vocal`: `PREFIX/share/auhost/presets/vocal.json`
    /// of an installed auhost) when no file has that name; nil otherwise.
    static func installedPreset(_ name: String) -> String? {
        guard !name.contains("/"), AtomicFile.NodeKind(path: name) == .missing, let prefix = PluginSearchPath.installPrefix() else { return nil }
        let file = prefix + "/share/auhost/presets/" + (name.lowercased().hasSuffix(".json") ? name : name + ".json")
        return AtomicFile.NodeKind(path: file) == .missing ? nil : file
    }

    /// The one-node chain `reference` names when it is no file but a unit (nil for a file or
    /// a `.json` name); its node's id is the unit's subtype code in lower case (`gain`), else
    /// `unit`. Neither a file nor a unit is one error with the closest units.
    static func oneUnitChain(_ reference: String, _ context: CommandContext) throws(CLIError) -> ChainPreset? {
        guard AtomicFile.NodeKind(path: reference) == .missing, !reference.lowercased().hasSuffix(".json") else { return nil }
        let component: Component
        do {
            component = try context.registry.resolve(reference)
        } catch {
            throw CLIError("'\(reference)' is neither a preset file nor a unit: \(error.message)")
        }
        let code = String(describing: component.description.subtype).lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        let id = code.isEmpty || code == "input" || code == "output" ? "unit" : code
        var node = PresetNode(id: id, unit: reference)
        // The sampler alone plays the system's General MIDI bank, not silence (--set soundbank=… changes it).
        if component.description == SamplerUnits.description, SamplerUnit.defaultGeneralMIDIBank != nil {
            node.parameters.append(PresetParameter(key: "soundbank", value: .named("gm")))
        }
        return ChainPreset(name: component.name, nodes: [node], routing: .chain([id]))
    }

    /// One line per problem, at most ``maximumProblemLines`` and a count of the rest; a
    /// problem without a file is reported under `file`.
    static func lines(_ error: PresetError, file: String) -> String {
        var lines = error.problems.prefix(maximumProblemLines).map { problem in
            problem.file.isEmpty ? "\(file): \(problem.description)" : problem.description
        }
        let hidden = error.problems.count - maximumProblemLines
        if hidden > 0 {
            lines.append("\(file): \(hidden) more problem\(hidden == 1 ? "" : "s") not shown; expected at most \(maximumProblemLines) at once (fix these and run again)")
        }
        return lines.joined(separator: "\nauhost: ")
    }
}
