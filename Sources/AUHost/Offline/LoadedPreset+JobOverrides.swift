import AUCore
import AUPresets

extension LoadedPreset {
    /// A job's `NODE.PARAM=VALUE` settings (``RenderJob/overrides``) checked against the
    /// loaded units, as `--set` checks them: each with the index of its node. An error names
    /// the setting (`gain.nope: unknown parameter of 'Gain'; ...`).
    /// - Thread: [control]
    public func resolveOverrides(_ texts: [String]) throws(AudioUnitError) -> [(index: Int, parameter: ResolvedParameter)] {
        let overrides: [ParameterOverride]
        do throws(PresetError) {
            overrides = try ParameterOverride.parse(texts)
        } catch {
            throw AudioUnitError(error.code, error.problems.map(\.message).joined(separator: "; "))
        }
        var resolved: [(index: Int, parameter: ResolvedParameter)] = []
        for override in overrides {
            guard let index = index(of: override.node) else {
                throw AudioUnitError(.invalidElement, "\(override.target): no node '\(override.node)'; the chain's nodes are: \(nodes.map(\.id).joined(separator: ", "))")
            }
            do throws(PresetError) {
                resolved.append((index, try override.resolve(against: nodes[index].unit)))
            } catch {
                throw AudioUnitError(error.code, "\(override.target): " + error.problems.map(\.message).joined(separator: "; "))
            }
        }
        return resolved
    }
}
