import AUHost

/// `auhost probe-library PATH…` (internal): loads each native unit library in this process
/// and reports one verdict each on its private ``ProbeChannel``. Every ``NativeProvider``
/// runs it in a child process (``NativeProbeRunner``) before loading a new or changed
/// library, so that one that aborts, crashes or hangs takes only the child down.
/// - Thread: [control]
enum ProbeLibraryCommand: Command {
    static let name = NativeProbeRunner.subcommand
    static let summary = "(internal) load native unit libraries once in this process; used before loading them"
    static let help = """
        usage: auhost probe-library PATH [PATH...]

        Loads each native unit library (its constructors, entry function, ABI check and
        factory init) and reads its unit list, then reports `auhost-probe begin N` and
        `auhost-probe verdict N works|not-a-unit-library|fails [reason]` (N counting the
        paths from 0) on the pipe it was given as standard output, which auhost takes for
        its own lines first: what a library prints goes to standard error. A library that crashes ends this
        process; the host records the crash and probes the rest in a new child.

        """

    static func run(_ arguments: inout Arguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        let paths = try arguments.finish(positionals: 1...Int.max, names: "library paths")
        guard let descriptor = context.output.fileDescriptor else { throw CLIError("\(name) writes its verdicts to a file descriptor") }
        let channel = ProbeChannel(descriptor: descriptor)
        for (index, path) in paths.enumerated() {
            channel.begin(index)
            channel.verdict(index, NativeLibraryProbe.probe(path).words)
        }
        return 0
    }
}
