import AUHost

/// What the commands that take a PRESET.json share: loading it with `--set` overrides,
/// every problem reported at once.
/// - Thread: [control]
enum PresetCommandSupport {
    /// The most problems printed for one preset (a file can hold thousands of bad
    /// connections); a last line counts the rest.
    static let maximumProblemLines = 50

    /// Loads `file` against the registry with the `--set` arguments applied; problems become
    /// one error line each.
    static func load(_ file: String, sets: [String], context: CommandContext) throws(CLIError) -> LoadedPreset {
        do {
            let overrides = try ParameterOverride.parse(sets)
            return try PresetLoader(registry: context.registry).load(file: file, overrides: overrides)
        } catch {
            throw CLIError(lines(error, file: file))
        }
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
