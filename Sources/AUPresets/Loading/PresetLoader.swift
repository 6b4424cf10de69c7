import AUCore
import Foundation

/// Loads chain presets: reads the file, checks everything against the registry before any
/// audio is touched, and hands back configured instances (``LoadedPreset``). Every problem
/// is reported at once, one line each, in file order (``PresetError``).
///
/// ```swift
/// let overrides = try ParameterOverride.parse(setArguments)
/// let loaded = try PresetLoader(registry: registry).load(file: "Presets/vocal.json", overrides: overrides)
/// ```
/// - Thread: [control]
public struct PresetLoader: Sendable {
    public let registry: ComponentRegistry
    /// How many buses the graph's `input` and `output` ends have (`input:0` … `input:N-1`).
    public var graphInputBuses: Int
    public var graphOutputBuses: Int
    /// Where a node without an `"isolation"` key runs (`--isolation`).
    public var isolation = UnitIsolation.none
    /// What makes an isolated node's component (AUHost's bridge); nil: every node in process.
    public var isolator: (any ComponentIsolator)?
    /// Where a node without an `"isolation"` key runs, by its component (a batch render's
    /// default for plugins no probe passed); nil: ``isolation``.
    public var isolationOfComponent: (@Sendable (Component) -> UnitIsolation)?

    /// - Thread: [control]
    public init(registry: ComponentRegistry, graphInputBuses: Int = 1, graphOutputBuses: Int = 1) {
        self.registry = registry
        self.graphInputBuses = graphInputBuses
        self.graphOutputBuses = graphOutputBuses
    }

    /// Reads and loads a preset file; `path` is named in problems as given.
    /// - Thread: [control]
    public func load(file path: String, overrides: [ParameterOverride] = []) throws(PresetError) -> LoadedPreset {
        try load(data: try Self.contents(of: path), file: path, overrides: overrides)
    }

    /// Loads a preset from its JSON text; `file` names it in problems.
    /// - Thread: [control]
    public func load(data: Data, file: String, overrides: [ParameterOverride] = []) throws(PresetError) -> LoadedPreset {
        var decoder = PresetDecoder(file: file)
        guard let decoded = decoder.decode(Array(data)) else { throw PresetError(decoder.problems.sortedProblems) }
        return try load(decoded, problems: decoder.problems, overrides: overrides)
    }

    /// Checks and loads a preset made in code (a capture, an edited value); `file` names it
    /// in problems, and paths count nodes and connections by position.
    /// - Thread: [control]
    public func load(_ preset: ChainPreset, file: String, overrides: [ParameterOverride] = []) throws(PresetError) -> LoadedPreset {
        try load(DecodedPreset(preset), problems: ProblemCollector(file: file), overrides: overrides)
    }

    /// Reads a preset file into values, checking its form only (JSON, types, keys, version),
    /// not its units.
    /// - Thread: [control]
    public static func read(file path: String) throws(PresetError) -> ChainPreset {
        try decode(data: try contents(of: path), file: path)
    }

    /// Decodes a preset's JSON text, checking its form only.
    /// - Thread: [control]
    public static func decode(data: Data, file: String) throws(PresetError) -> ChainPreset {
        var decoder = PresetDecoder(file: file)
        guard let decoded = decoder.decode(Array(data)) else { throw PresetError(decoder.problems.sortedProblems) }
        if !decoder.problems.problems.isEmpty { throw PresetError(decoder.problems.sortedProblems) }
        return decoded.preset
    }

    /// The bytes of a regular file; a missing path, a folder, a device or a FIFO (never
    /// opened: reading one may never end) is one problem saying what is there instead.
    private static func contents(of path: String) throws(PresetError) -> Data {
        func problem(_ reason: String) -> PresetError {
            PresetError([PresetProblem(.unreadableFile, file: path, path: "", message: reason)])
        }
        switch AtomicFile.NodeKind(path: path) {
        case .regularFile: break
        case .missing: throw problem("no such file; expected a chain preset (.json)")
        case .folder: throw problem("is a folder; expected a chain preset file")
        case let kind: throw problem("is \(kind), not a preset file; expected a chain preset (.json)")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw problem("cannot be read: \((error as NSError).localizedDescription)")
        }
    }

    /// Starts, before any unit is resolved, the children of `preset`'s LV2 nodes that run
    /// isolated (by their `"isolation"` key, else by `isolation`): an `lv2:` reference is
    /// never a built-in unit, and its child builds only the LV2 registry, so the child's
    /// start-up overlaps the host's own (the registry's discovery, the preset's checks). The
    /// validator starts the other isolated nodes' children once their units are resolved,
    /// and every node's instances join its child.
    private static func prepareLV2Isolation(of preset: ChainPreset, isolation: UnitIsolation, isolator: any ComponentIsolator) {
        for node in preset.nodes where node.unit.hasPrefix("lv2:") {
            let mode = node.isolation ?? isolation
            if mode != .none { isolator.prepare(node: node.id, reference: node.unit, mode: mode) }
        }
    }

    private func load(_ decoded: DecodedPreset, problems: ProblemCollector, overrides: [ParameterOverride]) throws(PresetError) -> LoadedPreset {
        var problems = problems
        var preset = decoded.preset
        if let rate = preset.sampleRate, !ChainPreset.sampleRates.contains(rate) {
            problems.add(.invalidValue, JSONPath.root.key("sampleRate"), "expected a sample rate in \(ChainPreset.sampleRateRange) Hz, found \(formatNumber(rate))")
        }
        let folder = URL(fileURLWithPath: problems.file).deletingLastPathComponent()
        if let isolator { Self.prepareLV2Isolation(of: preset, isolation: isolation, isolator: isolator) }
        var results = NodeValidator(registry: registry, folder: folder, isolation: isolation, isolator: isolator, isolationOfComponent: isolationOfComponent).validate(decoded, problems: &problems)
        var routing = RoutingValidator(
            nodes: zip(preset.nodes, results).map { RoutingValidator.Node(id: $0.id, unit: $1.unit) },
            hasAllNodeIDs: decoded.hasAllNodeIDs, graphInputBuses: graphInputBuses, graphOutputBuses: graphOutputBuses)
        let (connections, midiConnections) = routing.validate(
            preset.routing, paths: decoded.routingPaths, isComplete: decoded.isRoutingComplete, midi: preset.midi, midiPaths: decoded.midiPaths,
            problems: &problems)
        for (index, counts) in routing.elementCounts { results[index].settings.elementCounts = counts }
        let trackDestinations = routing.trackDestinations(preset.tracks, problems: &problems)

        var overrideProblems: [PresetProblem] = []
        for override in overrides {
            guard let index = preset.nodes.firstIndex(where: { $0.id == override.node }) else {
                overrideProblems.append(ParameterOverride.problem(
                    .unknownNode, override.target,
                    "unknown node \(quoted(override.node)); expected one of: \(listing(preset.nodes.map(\.id)))"))
                continue
            }
            guard let unit = results[index].unit else { continue }
            do {
                // A file given on the command line is relative to the current directory.
                if let property = try PropertyCheck.resolve(key: override.parameter, value: override.value, unit: unit, folder: PropertyCheck.currentDirectory) {
                    try property.apply(to: unit)
                    results[index].settings.properties.removeAll { $0.identifier == property.identifier }
                    results[index].settings.properties.append(property)
                    preset.nodes[index].setValue(override.value, of: override.parameter)
                    continue
                }
                let resolved = try override.resolve(against: unit)
                try resolved.apply(to: unit)
                results[index].settings.parameters.removeAll { $0.info.address == resolved.info.address }
                results[index].settings.parameters.append(resolved)
                preset.nodes[index].setValue(override.value, of: override.parameter)
            } catch let error as PresetError {
                overrideProblems += error.problems
            } catch let issue as ParameterIssue {
                overrideProblems.append(ParameterOverride.problem(issue.kind, override.target, issue.message))
            } catch {
                overrideProblems.append(ParameterOverride.problem(.valueOutOfRange, override.target, "'\(unit.name)' refused \(override.value): \(error)"))
            }
        }

        var midiMap: [LoadedMIDIMapping] = []
        let units = zip(preset.nodes, results).compactMap { node, result in result.unit.map { (id: node.id, unit: $0) } }
        if units.count == preset.nodes.count {
            for (index, mapping) in preset.midiMap.enumerated() {
                let path = index < decoded.midiMapPaths.count ? decoded.midiMapPaths[index] : JSONPath.root.key("midiMap").index(index)
                do {
                    midiMap.append(try LoadedMIDIMapping(mapping, nodes: units))
                } catch {
                    problems.add(error.kind, path.key("parameter"), error.message)
                }
            }
        }
        var snapshots: [LoadedSnapshot] = []
        if units.count == preset.nodes.count {
            // Snapshots made in code are found by position, as the file's are.
            for (index, snapshot) in preset.snapshots.enumerated() {
                if let loaded = LoadedSnapshot.check(snapshot, nodes: units, path: JSONPath.root.key("snapshots").index(index), problems: &problems) {
                    snapshots.append(loaded)
                }
            }
        }

        let all = problems.sortedProblems + overrideProblems
        guard all.isEmpty else {
            for result in results { result.unit?.dispose() }
            throw PresetError(all)
        }
        let nodes = preset.nodes.indices.map { index in
            LoadedNode(
                id: preset.nodes[index].id, reference: preset.nodes[index].unit, component: results[index].component!,
                unit: results[index].unit!, settings: results[index].settings)
        }
        var loaded = LoadedPreset(
            file: problems.file, preset: preset, nodes: nodes, connections: connections, midiConnections: midiConnections,
            trackDestinations: trackDestinations)
        loaded.midiMap = midiMap
        loaded.snapshots = snapshots
        return loaded
    }
}
