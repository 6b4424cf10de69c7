import AUHost

/// `--isolation none|together|per-unit`, shared by `render`, `run` and `play`: where the
/// chain's plugins run (docs/ISOLATION.md); a preset node's `"isolation"` overrides it.
/// - Thread: [control]
enum IsolationOption {
    /// The option's lines in `run`'s and `play`'s help.
    static let help = """
        --isolation I     where the plugins run: none (in this process, the default), together
                            (one child process for all) or per-unit (one each); an isolated
                            node that crashes or hangs goes silent, the rest plays on, and
                            `reload NODE` brings it back; a node that misses half the period
                            is silent for that cycle (docs/ISOLATION.md)
          --node-budget P   warn once per isolated node whose round trip to its child takes
                            more than P percent (0.1...100) of the period, or that misses cycles
        """

    /// `--node-budget PERCENT`, nil when not given.
    static func parseBudget(_ arguments: inout Arguments) throws(CLIError) -> Double? {
        try arguments.option("--node-budget", expected: "a share of the period in percent, 0.1...100") { text in
            Double(text).flatMap { (0.1...100).contains($0) ? $0 : nil }
        }
    }

    static func parse(_ arguments: inout Arguments) throws(CLIError) -> UnitIsolation {
        try parseGiven(&arguments) ?? .none
    }

    /// `--isolation`, nil when not given.
    static func parseGiven(_ arguments: inout Arguments) throws(CLIError) -> UnitIsolation? {
        try arguments.option("--isolation", expected: "one of \(UnitIsolation.choices)") { UnitIsolation(rawValue: $0) }
    }
}
