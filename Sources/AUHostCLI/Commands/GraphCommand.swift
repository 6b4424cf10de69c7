import AUHost
import Foundation

/// `auhost graph`: a chain preset built into an initialized graph and shown the way
/// Core Audio's `CAShow` shows an AUGraph, or as Graphviz DOT, or drawn as SVG by Graphviz.
/// - Thread: [control]
enum GraphCommand: Command {
    static let name = "graph"
    static let summary = "show a chain preset's graph: a CAShow-like dump, Graphviz DOT or SVG"
    static let help = """
        usage: auhost graph (PRESET.json | UNIT) [--dot | --svg FILE] [--sample-rate R] [--threads N]
                            [--live [--period N] [--pipeline]] [--set NODE.PARAM=VALUE]...

        PRESET.json may also be a UNIT (lv2:URI, type:subtype:manufacturer or a name) that is
        no file: a chain of that one unit, whose parameters --set PARAM=VALUE sets.

        Loads the chain (with the overrides), builds and initializes its graph as 'auhost
        render' does (1024-frame blocks, its render threads: a serial chain pipelined)
        without rendering anything, and prints it:

          (default)     the graph's state dump, like Core Audio's CAShow: every node with
                        its unit, formats and latency, every connection, the graph's latency,
                        render order, and how many threads render it and why ('Threads: N
                        (...)', with its branches or pipeline stages)
          --dot         the graph in Graphviz DOT, on standard output
          --svg FILE    the graph drawn by Graphviz ('dot -Tsvg') into FILE, written
                        atomically (a temporary file beside it, then renamed into place);
                        never over a device, a FIFO or PRESET.json; needs Graphviz installed

          --sample-rate R  the rate to initialize at (default: the preset's sampleRate, else 48000)
          --threads N      the threads that may render, as 'auhost render --threads N', 1...64
                           (default: as many as the cores; 1: one thread)
          --live           the plan and latency 'auhost run' uses (with the same --threads
                           and --pipeline): periods of --period N frames (default \(defaultPeriod)),
                           a serial chain pipelined only with --pipeline
          --set N.P=V      set a parameter before building (repeatable)

        Exits 0 on success; 1 when the preset does not load, the graph cannot be built or
        Graphviz is missing or fails; 64 for usage errors.

        """

    /// The rate a chain is initialized at when neither the preset nor `--sample-rate` names one.
    static let defaultSampleRate = 48_000.0
    /// `--live`'s period when `--period` names none (jackd's default), and the periods it takes.
    static let defaultPeriod = 1024
    static let periods = 16...8192

    static func run(_ arguments: inout Arguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        let dot = arguments.flag("--dot")
        let svg = try arguments.option("--svg")
        let rate = try arguments.option("--sample-rate", expected: "a sample rate in \(ChainPreset.sampleRateRange) Hz, such as 48000") { text in
            Double(text).flatMap { ChainPreset.sampleRates.contains($0) ? $0 : nil }
        }
        let threads = try ThreadsOption.parse(&arguments)
        let live = arguments.flag("--live")
        let pipeline = arguments.flag("--pipeline")
        let period = try arguments.option("--period", expected: "a period in \(periods) frames, such as 256") { text in
            Int(text).flatMap { periods.contains($0) ? $0 : nil }
        }
        let sets = try arguments.options("--set")
        let file = try arguments.finish(positionals: 1...1, names: "a PRESET.json")[0]
        if dot && svg != nil { throw .usage("--dot and --svg are two different outputs; give one", command: name) }
        if !live && (period != nil || pipeline) { throw .usage("--period and --pipeline describe the live plan; add --live", command: name) }
        if pipeline && threads.threads < 2 { throw .usage("--pipeline needs at least 2 threads (--threads 2 or more)", command: name) }
        var parallelism = live ? threads : threads.pipeliningOverEveryThread
        if pipeline { parallelism.pipelineStages = 2 }
        // Everything that can fail before the (slow) load: the destination, Graphviz.
        var drawing: (file: AtomicFile, graphviz: URL)?
        if let svg {
            let output: AtomicFile
            do throws(AtomicFileFailure) {
                output = try AtomicFile(destination: svg, overwrite: true, inputs: [file])
            } catch {
                throw CLIError(AudioUnitError.output(svg, error).message)
            }
            guard let dot = graphvizExecutable() else {
                throw CLIError(
                    "\(svg): cannot draw the SVG: Graphviz ('dot') is not installed",
                    hint: "install the graphviz package (make deps does), or use --dot and draw it elsewhere")
            }
            drawing = (output, dot)
        }

        let loaded = try PresetCommandSupport.load(file, sets: sets, context: context)
        let chain = try build(loaded, file: file, sampleRate: rate, parallelism: parallelism, registry: context.registry, period: live ? period ?? defaultPeriod : nil)
        defer { chain.dispose() }
        if let svg, let drawing {
            try draw(chain.graph.dotGraph(), with: drawing.graphviz, into: drawing.file, path: svg)
            context.output.line("wrote \(svg)")
        } else if dot {
            context.output.write(chain.graph.dotGraph())
        } else {
            let hasInput = loaded.connections.contains { if case .graphInput = $0.source { true } else { false } }
            let inputs = hasInput ? "\(chain.inputChannels) ch in" : "no audio input"
            context.output.line("\(file): '\(loaded.preset.name)' at \(formatRate(chain.sampleRate)) Hz, \(inputs), \(chain.outputChannels) ch out")
            context.output.write(chain.graph.dump())
        }
        return 0
    }

    /// The chain's graph as `auhost render` builds it — or, with a `period`, as `auhost run`
    /// does on a server of that period (blocks up to 4096 frames, the plugins told the period,
    /// one silent cycle so that they report their latency) — initialized at `sampleRate`, the
    /// preset's rate or 48 kHz, on `parallelism`'s threads; a unit that refuses is an error
    /// naming the file. The graph owns the loaded units afterwards.
    /// - Thread: [control]
    static func build(
        _ loaded: LoadedPreset, file: String, sampleRate: Double?, parallelism: RenderParallelism, registry: ComponentRegistry, period: Int? = nil
    ) throws(CLIError) -> ChainGraph {
        let rate = sampleRate ?? loaded.preset.sampleRate ?? defaultSampleRate
        do throws(AudioUnitError) {
            guard let period else {
                return try ChainGraph(loaded, registry: registry, sampleRate: rate, maximumFrames: RenderSettings().blockSize, parallelism: parallelism)
            }
            let chain = try ChainGraph(loaded, registry: registry, sampleRate: rate, maximumFrames: max(4096, period), nominalFrames: period, parallelism: parallelism)
            do throws(AudioUnitError) {
                try LatencyPriming.prime(chain, blockSize: period)
            } catch {
                chain.dispose()
                throw error
            }
            return chain
        } catch {
            loaded.dispose()
            throw CLIError("\(file): the chain cannot be built: \(error.message)")
        }
    }

    private static func formatRate(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(rate)
    }

    /// The `dot` program on PATH, if any.
    static func graphvizExecutable() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = String(folder) + "/dot"
            if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        return nil
    }

    /// Runs Graphviz (`dot -Tsvg`) over `text`, its drawing going straight into `file` (the
    /// atomic output for `path`), committed only when Graphviz succeeded. The DOT text goes
    /// through a temporary file (no pipe to break).
    private static func draw(_ text: String, with dot: URL, into file: AtomicFile, path: String) throws(CLIError) {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-graph-\(UUID().uuidString).dot")
        defer { try? FileManager.default.removeItem(at: source) }
        let process = Process()
        process.executableURL = dot
        process.arguments = ["-Tsvg", source.path]
        let errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(fileDescriptor: file.descriptor, closeOnDealloc: false)
        process.standardError = errors
        do {
            try Data(text.utf8).write(to: source)
            try process.run()
        } catch {
            throw CLIError("\(path): cannot run Graphviz (\(dot.path)): \(error.localizedDescription)")
        }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let firstLine = String(decoding: message, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "no message"
            throw CLIError("\(path): Graphviz failed (exit \(process.terminationStatus)): \(firstLine)")
        }
        do throws(AtomicFileFailure) {
            try file.commit()
        } catch {
            throw CLIError(AudioUnitError.output(path, error).message)
        }
    }
}
