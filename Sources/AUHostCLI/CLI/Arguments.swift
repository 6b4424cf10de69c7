import AUHost
/// The arguments of one command, taken option by option; whatever is left over at
/// ``finish()`` is a usage error naming it.
///
/// Options are `--name VALUE` or `--name=VALUE`; flags are `--name`; `--` ends options.
/// - Thread: [control]
public struct Arguments {
    public let command: String
    private var remaining: [String]
    private var positionalsAfterDashDash: [String] = []

    /// - Thread: [control]
    public init(command: String, _ arguments: [String]) {
        self.command = command
        if let dashes = arguments.firstIndex(of: "--") {
            remaining = Array(arguments[..<dashes])
            positionalsAfterDashDash = Array(arguments[(dashes + 1)...])
        } else {
            remaining = arguments
        }
    }

    /// True (and consumed) when the flag is present.
    /// - Thread: [control]
    public mutating func flag(_ name: String) -> Bool {
        guard let index = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: index)
        return true
    }

    /// The value of a single-valued option, or nil; giving it twice is a usage error.
    /// - Thread: [control]
    public mutating func option(_ name: String) throws(CLIError) -> String? {
        let values = try options(name)
        guard values.count <= 1 else { throw .usage("\(name) is given \(values.count) times", command: command) }
        return values.first
    }

    /// Every value of a repeatable option, in order.
    /// - Thread: [control]
    public mutating func options(_ name: String) throws(CLIError) -> [String] {
        var values: [String] = []
        var index = 0
        while index < remaining.count {
            let argument = remaining[index]
            if argument == name {
                guard index + 1 < remaining.count else { throw .usage("\(name) needs a value", command: command) }
                values.append(remaining[index + 1])
                remaining.removeSubrange(index...(index + 1))
            } else if argument.hasPrefix(name + "=") {
                values.append(String(argument.dropFirst(name.count + 1)))
                remaining.remove(at: index)
            } else {
                index += 1
            }
        }
        return values
    }

    /// An option parsed by `parse`, which returns nil for a bad value.
    /// - Thread: [control]
    public mutating func option<T>(_ name: String, expected: String, _ parse: (String) -> T?) throws(CLIError) -> T? {
        guard let text = try option(name) else { return nil }
        guard let value = parse(text) else { throw .usage("\(name) takes \(expected), not '\(text)'", command: command) }
        return value
    }

    /// The positional arguments, once every option has been taken; an unknown option is a
    /// usage error. `count` bounds how many there may be.
    /// - Thread: [control]
    public mutating func finish(positionals count: ClosedRange<Int> = 0...0, names: String = "arguments") throws(CLIError) -> [String] {
        if let unknown = remaining.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
            throw .usage("unknown option '\(unknown)' for '\(command)'", command: command)
        }
        let positionals = remaining + positionalsAfterDashDash
        remaining = []
        guard count.contains(positionals.count) else {
            if positionals.count < count.lowerBound {
                throw .usage("'\(command)' needs \(names)", command: command)
            }
            throw .usage("unexpected argument '\(positionals[count.upperBound])' for '\(command)'", command: command)
        }
        return positionals
    }
}
