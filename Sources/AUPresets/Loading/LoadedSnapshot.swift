import AUCore

/// A snapshot checked against the chain's units: each value resolved to its node (by index)
/// and parameter, as `--set` resolves one.
/// - Thread: [control]
public struct LoadedSnapshot: Sendable {
    public let snapshot: PresetSnapshot
    /// Node index in the preset's `nodes`, and the resolved parameter and value.
    public let values: [(nodeIndex: Int, parameter: ResolvedParameter)]

    /// Checks every `NODE.PARAM` of `snapshot` against `nodes`; the problems, at
    /// `path.parameters.KEY`, when any fails.
    /// - Thread: [control]
    static func check(_ snapshot: PresetSnapshot, nodes: [(id: String, unit: AudioUnit)], path: JSONPath, problems: inout ProblemCollector) -> LoadedSnapshot? {
        var values: [(nodeIndex: Int, parameter: ResolvedParameter)] = []
        var failed = false
        for parameter in snapshot.parameters {
            let entryPath = path.key("parameters").key(parameter.key)
            let probe = PresetMIDIMapping(source: .pitchBend, parameter: parameter.key)
            guard !probe.parameterKey.isEmpty, let index = nodes.firstIndex(where: { $0.id == probe.node }) else {
                problems.add(.unknownNode, entryPath, parameter.key.contains(".")
                    ? "unknown node \(quoted(probe.node)); expected one of: \(listing(nodes.map(\.id)))"
                    : "expected \"NODE.PARAM\" (a node id, a dot, a parameter), found \(quoted(parameter.key))")
                failed = true
                continue
            }
            do {
                let resolved = try ParameterCheck.resolve(key: probe.parameterKey, value: parameter.value, unit: nodes[index].unit)
                values.append((index, resolved))
            } catch {
                problems.add(error.kind, entryPath, error.message)
                failed = true
            }
        }
        return failed ? nil : LoadedSnapshot(snapshot: snapshot, values: values)
    }
}
