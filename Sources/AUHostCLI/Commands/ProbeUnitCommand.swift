import AUHost
import Foundation

/// `auhost probe-unit URI…` (internal): instantiates and runs each LV2 plugin in this
/// process and reports one verdict each on its private ``ProbeChannel``. `auhost list --probe` runs it in child
/// processes so that a plugin that crashes takes only the child down.
/// - Thread: [control]
enum ProbeUnitCommand: Command {
    static let name = "probe-unit"
    static let summary = "(internal) run LV2 plugins once in this process; used by 'list --probe'"
    static let help = """
        usage: auhost probe-unit URI [URI...]

        Instantiates each LV2 plugin, renders 16 blocks with a sine and a MIDI note, and
        reports `auhost-probe begin N` and then `auhost-probe verdict N works|fails [reason]`
        (N counting the URIs from 0) on the pipe it was given as standard output, which auhost
        takes for its own lines first: what a plugin prints goes to standard error.
        A plugin that crashes ends this process; 'auhost list --probe' runs this command in a
        child process, records the crash and carries on. Verdicts are cached by 'list --probe'.

        """

    static func run(_ arguments: inout Arguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        let uris = try arguments.finish(positionals: 1...Int.max, names: "plugin URIs")
        guard let descriptor = context.output.fileDescriptor else { throw CLIError("\(name) writes its verdicts to a file descriptor") }
        let channel = ProbeChannel(descriptor: descriptor)
        let components = LV2Provider(probeCacheFile: nil).discoverComponents().components
        var byURI: [String: Component] = [:]
        for component in components { byURI[component.identifier] = component }
        for (index, uri) in uris.enumerated() {
            channel.begin(index)
            let verdict = byURI[uri].map(LV2Probe.probe) ?? LV2ProbeVerdict(outcome: .fails, reason: "no LV2 plugin \(uri)")
            channel.verdict(index, verdict.outcome.rawValue + (verdict.reason.map { " " + $0 } ?? ""))
        }
        return 0
    }

    /// Probes LV2 plugins in children that run this command of this executable.
    static let runner = LV2ProbeRunner(executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath())

    /// Probes the LV2 units among `units` in child processes (cached verdicts are reused),
    /// prints a summary on standard error and returns the units marked with their verdicts.
    static func probeAndMark(_ units: [Component], _ context: CommandContext) -> [Component] {
        let uris = units.filter { $0.format == .lv2 }.map { $0.identifier }
        guard !uris.isEmpty else { return units }
        var cache = LV2ProbeCache()
        let verdicts = runner.probe(uris, binaries: LV2Provider().binaryPaths(), cache: &cache)
        let outcomes = uris.compactMap { verdicts[$0]?.outcome }
        context.errors.line(
            "auhost: probed \(uris.count) LV2 plugins: \(outcomes.filter { $0 == .works }.count) work, "
                + "\(outcomes.filter { $0 == .fails }.count) fail, \(outcomes.filter { $0 == .crashed }.count) crashed (host crashes: 0)")
        return units.map { unit in
            guard let verdict = verdicts[unit.identifier], unit.format == .lv2 else { return unit }
            var marked = unit
            marked.brokenReason = verdict.brokenReason
            if verdict.brokenReason != nil { marked.description.componentFlags.insert(.isKnownBroken) }
            return marked
        }
    }
}
