import AUHost
import Foundation

/// The `auhost` command line: dispatches to a ``Command`` and turns errors into one line
/// on standard error and an exit status (64 for usage, 1 otherwise). Never a stack trace.
/// - Thread: [control]
public enum AUHostCLI {
    public static let version = "0.1.0"

    /// Every subcommand, in the order `--help` lists them.
    /// - Thread: [control]
    public static var commands: [any Command.Type] {
        [ListCommand.self, InfoCommand.self, RunCommand.self, PlayCommand.self, NewUnitCommand.self, ProbeUnitCommand.self, ProbeLibraryCommand.self, RenderCommand.self, BenchCommand.self, GraphCommand.self, SaveCommand.self, MIDICommand.self, ValidateCommand.self]
    }

    /// Runs `auhost` with `arguments` (without the program name) and returns the exit status.
    /// - Thread: [control]
    public static func run(
        _ arguments: [String], output: TextOutput = .standardOutput(), errors: TextOutput = .standardError(),
        makeRegistry: @escaping () -> ComponentRegistry = HostRegistry.make
    ) -> Int32 {
        let context = CommandContext(output: output, errors: errors, makeRegistry: makeRegistry)
        do {
            return try dispatch(arguments, context)
        } catch {
            errors.line("auhost: \(error.message)")
            if let hint = error.hint { errors.line("auhost: \(hint)") }
            return error.status
        }
    }

    private static func dispatch(_ arguments: [String], _ context: CommandContext) throws(CLIError) -> Int32 {
        guard let first = arguments.first else {
            context.errors.write(overview)
            return CLIError.usageStatus
        }
        switch first {
        case "--help", "-h":
            context.output.write(overview)
            return 0
        case "--version", "-V":
            context.output.line("auhost \(version)")
            return 0
        case "help":
            guard arguments.count <= 2 else { throw .usage("'help' takes one command name") }
            guard arguments.count == 2 else {
                context.output.write(overview)
                return 0
            }
            context.output.write(try command(named: arguments[1]).help)
            return 0
        default:
            let command = try command(named: first)
            let rest = Array(arguments.dropFirst())
            if rest.contains("--help") || rest.contains("-h") {
                context.output.write(command.help)
                return 0
            }
            var parsed = Arguments(command: command.name, rest)
            guard let log = try parsed.option("--plugin-log") else { return try command.run(&parsed, context) }
            let others = rest.enumerated().filter { $0.element != "--plugin-log" && rest[max(0, $0.offset - 1)] != "--plugin-log" && !$0.element.hasPrefix("--plugin-log=") }
            let created = try context.output.sendPluginOutput(toFile: log, arguments: others.map(\.element))
            // A log this command made and a failure left empty is not left behind.
            var status = CLIError.failureStatus
            defer { if created && status != 0 { removeIfEmpty(log) } }
            status = try command.run(&parsed, context)
            return status
        }
    }

    private static func removeIfEmpty(_ path: String) {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size == 0 { unlink(path) }
    }

    private static func command(named name: String) throws(CLIError) -> any Command.Type {
        for command in commands where command.name == name { return command }
        throw unknownCommand(name)
    }

    private static func unknownCommand(_ name: String) -> CLIError {
        let close = closeNames(to: name, among: commands.map { $0.name }, limit: 3)
        return CLIError(
            "unknown command '\(name)'" + (close.isEmpty ? "" : "; did you mean \(close.map { "'\($0)'" }.joined(separator: " or "))?"),
            hint: "see 'auhost --help'", status: CLIError.usageStatus)
    }

    /// The `auhost --help` text.
    /// - Thread: [control]
    public static var overview: String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let lines = commands.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
        return """
            auhost \(version): a real-time Audio Unit host for Linux (LV2 and native Swift units)

            usage: auhost COMMAND [OPTIONS] [ARGUMENTS]

            commands:
            \(lines.joined(separator: "\n"))

            options:
              -h, --help         show help (also: auhost help COMMAND)
              -V, --version      show the version
              --plugin-log FILE  (any command) append what plugins print to standard output
                                 to FILE instead of standard error

            Units are named by type:subtype:manufacturer (aufx:dely:AUHs), by LV2 URI, or by exact name.

            """
    }
}
