import AUHost

/// One `auhost` subcommand: its name, a one-line summary, its help text, and its work.
/// Each command lives in its own file under Commands/ and is listed in ``AUHostCLI/commands``.
/// - Thread: [control]
public protocol Command {
    /// The word after `auhost`.
    static var name: String { get }
    /// One line for `auhost --help`.
    static var summary: String { get }
    /// The full `auhost help NAME` text: usage line first.
    static var help: String { get }
    /// Runs the command; returns the exit status, or throws a ``CLIError``.
    static func run(_ arguments: inout Arguments, _ context: CommandContext) throws(CLIError) -> Int32
}

/// What a running command may use: its output streams and the unit registry.
/// - Thread: [control]
public final class CommandContext {
    public let output: TextOutput
    public let errors: TextOutput
    private let makeRegistry: () -> ComponentRegistry
    private var cachedRegistry: ComponentRegistry?

    /// - Thread: [control]
    public init(output: TextOutput, errors: TextOutput, makeRegistry: @escaping () -> ComponentRegistry) {
        self.output = output
        self.errors = errors
        self.makeRegistry = makeRegistry
    }

    /// Every unit on the machine, discovered on first use.
    /// - Thread: [control]
    public var registry: ComponentRegistry {
        if let cachedRegistry { return cachedRegistry }
        let registry = makeRegistry()
        cachedRegistry = registry
        return registry
    }

    /// Prints discovery problems as warnings on standard error, one line each.
    /// - Thread: [control]
    public func reportDiscoveryProblems() {
        for problem in registry.problems {
            errors.line("auhost: warning: \(problem.format.rawValue): \(problem)")
        }
    }
}

