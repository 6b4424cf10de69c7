import AUHost

/// `--threads N`, shared by `render`, `run` and `play`: the render workers a chain may use
/// beside the thread that renders it (0: single-threaded; default: one fewer than the cores,
/// at least one). The plan compiler still decides whether a chain's branches pay for them.
/// - Thread: [control]
enum ThreadsOption {
    static let range = 0...64
    /// The option's lines in `run`'s and `play`'s help.
    static let help = """
        --threads N       render workers beside JACK's process thread, \(range.lowerBound)...\(range.upperBound) (default:
                                    one fewer than the cores, at least 1; 0: one thread), with its
                                    real-time priority, used when the chain has branches worth it
        """

    static func parse(_ arguments: inout Arguments) throws(CLIError) -> RenderParallelism {
        try arguments.option("--threads", expected: "a number of render workers in \(range)") { text in
            Int(text).flatMap { range.contains($0) ? RenderParallelism(workers: $0) : nil }
        } ?? .machineDefault
    }
}
