import AUHost

/// What the commands that take a PRESET.json share: loading it with `--set` overrides,
/// every problem reported at once.
/// - Thread: control.
enum PresetCommandSupport {
    /// Loads `file` against the registry with the `--set` arguments applied; problems become
    /// one error line each.
    static func load(_ file: String, sets: [String], context: CommandContext) throws(CLIError) -> LoadedPreset {
        do {
            let overrides = try ParameterOverride.parse(sets)
            return try PresetLoader(registry: context.registry).load(file: file, overrides: overrides)
        } catch {
            throw CLIError(error.problems.map(\.description).joined(separator: "\nauhost: "))
        }
    }
}
