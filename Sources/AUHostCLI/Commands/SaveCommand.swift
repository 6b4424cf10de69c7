import AUHost
import Foundation

/// `auhost save`: loads a chain preset (with `--set` overrides), captures the chain as its
/// units are then, and writes it as a new preset file, atomically and never over an
/// existing file unless `--force`.
/// - Thread: [control]
enum SaveCommand: Command {
    static let name = "save"
    static let summary = "load a chain preset, apply --set overrides, and save it as a new preset"
    static let help = """
        usage: auhost save (PRESET.json | UNIT) OUTPUT.json [--set NODE.PARAM=VALUE]... [--name NAME] [--all] [--force]

        PRESET.json may also be a UNIT (lv2:URI, type:subtype:manufacturer or a name) that is
        no file: a chain of that one unit, whose parameters --set PARAM=VALUE sets.

        Loads the chain (every problem reported at once), applies the overrides, captures
        each unit as it is (parameters that differ from their defaults, the factory preset,
        bypass, and state when the unit keeps more than its parameters) and writes the
        chain to OUTPUT.json in the stable preset layout (docs/PRESETS.md). The file is
        written to a temporary file beside it and moved into place: a reader never sees
        half a preset, and a failed save leaves nothing behind.

          --set N.P=V   set a parameter before saving (repeatable)
          --name NAME   the saved chain's name (default: the preset's)
          --all         record every writable parameter, not only those off their defaults
          --force       replace OUTPUT.json when it exists (default: refuse)

        Exits 0 on success; 1 when the preset does not load or OUTPUT.json exists (without
        --force) or cannot be written; 64 for usage errors.

        """

    static func run(_ arguments: inout Arguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        let force = arguments.flag("--force")
        let all = arguments.flag("--all")
        let newName = try arguments.option("--name")
        let sets = try arguments.options("--set")
        let files = try arguments.finish(positionals: 2...2, names: "a PRESET.json and an OUTPUT.json")
        let (file, destination) = (files[0], files[1])
        if let newName, newName.isEmpty { throw .usage("--name takes a non-empty name", command: name) }

        let loaded = try PresetCommandSupport.load(file, sets: sets, context: context)
        defer { loaded.dispose() }
        var preset: ChainPreset
        do {
            let folder = URL(fileURLWithPath: destination).deletingLastPathComponent()
            preset = try loaded.capture(PresetCapture(parameters: all ? .all : .changedFromDefaults, folder: folder))
        } catch {
            throw CLIError(PresetCommandSupport.lines(error, file: file))
        }
        if let newName { preset.name = newName }
        do {
            try PresetWriter.save(preset, to: destination, force: force, inputs: [file])
        } catch {
            throw CLIError(PresetCommandSupport.lines(error, file: destination))
        }
        let count = preset.nodes.count
        context.output.line("saved \(destination): '\(preset.name)', \(count) node\(count == 1 ? "" : "s")")
        return 0
    }

}
