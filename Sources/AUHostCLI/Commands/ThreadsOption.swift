import AUHost

/// `--threads N`, shared by `render`, `run`, `play` and `graph`: how many threads may render
/// a chain, the one that calls its render included (1: single-threaded; default: as many as
/// the cores). The plan compiler still decides whether a chain's branches pay for them.
/// - Thread: [control]
enum ThreadsOption {
    static let range = 1...64
    /// The option's lines in `run`'s help.
    static let help = """
        --threads N       the threads that render, JACK's process thread included, \(range.lowerBound)...\(range.upperBound)
                            (default: as many as the cores; 1: JACK's thread alone); the others
                            take its real-time priority and are used when the chain has
                            branches worth it
        """

    static func parse(_ arguments: inout Arguments) throws(CLIError) -> RenderParallelism {
        try parseGiven(&arguments) ?? .machineDefault
    }

    /// `--threads N` when given, nil otherwise.
    static func parseGiven(_ arguments: inout Arguments) throws(CLIError) -> RenderParallelism? {
        try arguments.option("--threads", expected: "the number of threads that render, counted from 1 (one thread) to \(range.upperBound)") { text in
            Int(text).flatMap { range.contains($0) ? RenderParallelism(threads: $0) : nil }
        }
    }
}
