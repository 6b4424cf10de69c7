import AUHost
import Foundation

/// `auhost render`: audio files through a chain preset, offline.
/// - Thread: [control] (the jobs run on worker threads of their own).
enum RenderCommand: Command {
    static let name = "render"
    static let summary = "render audio files through a chain preset, offline"
    static let help = """
        usage: auhost render (PRESET.json | UNIT) INPUT... (-o OUTPUT | --output-dir DIR)
                             [--format wav|flac|aiff|caf|ogg] [--bit-depth 16|24|32f] [--sample-rate R]
                             [--rate native] [--src-quality best|medium|fast] [--channels N]
                             [--tail SECONDS|auto] [--max-length SECONDS] [--block N] [--jobs N]
                             [--threads N] [--true-peak] [--midi-out FILE.mid] [--isolation none|together|per-unit]
                             [--set NODE.PARAM=VALUE]... [--force | --skip-existing]
                             [--inputs-from FILE|-] [--relative-to ROOT] [--shard I/N] [--manifest ROWS.jsonl]
                             [--results RESULTS.jsonl]

        PRESET.json may also be a UNIT (lv2:URI, type:subtype:manufacturer or a name) that is
        no file: a chain of that one unit, whose parameters --set PARAM=VALUE sets. Without
        either, a MIDI song (SONG.mid first) plays through the General MIDI sampler, as in
        `auhost play`.

        Renders each INPUT (anything libsndfile reads) through the chain and writes the result
        atomically: a temporary file renamed into place, never over an existing file without
        --force, nothing left behind on failure. The chain runs at the preset's sampleRate
        (the rate it was designed at), else the input's (--rate native: always the input's);
        the input is converted to the chain's rate and channel count, and the output back to
        the input's rate (or --sample-rate) with the input's or the chain's channel count,
        whichever is more (or --channels): a mono file through a chain that ends stereo comes
        back stereo. The chain's latency is compensated:
        the output is time-aligned with the input. An output that could not fit (AIFF past
        4 GiB, more than its file system has free, counting the longest tail) is refused
        before rendering; WAV past 4 GiB is RF64. Each file's peak and RMS are printed (and
        its true peak with --true-peak), with a warning when it clips.

          -o, --output OUTPUT  the output file (one INPUT only)
          --output-dir DIR     write DIR/<input name>.<format> for each INPUT (DIR and the
                               folders above it are made when missing)
          --format F           wav, flac, aiff, caf or ogg (default: -o's extension, else the input's, else wav)
          --bit-depth D        16, 24 or 32f (default 24; flac takes no 32f, ogg no bit depth)
          --sample-rate R      the output files' rate in Hz (default: each input's)
          --rate native        run the chain at each audio file's own rate, unconverted
          --src-quality Q      libsamplerate's converter: best (default; sinc, 97% bandwidth),
                               medium (90%, several times faster) or fast (80%)
          --channels N         the output files' channel count, 1...32 (mono is copied to
                               every channel; more are averaged down)
          --tail T             seconds of effect tail after the input's end, or auto (the default):
                               at least the units' reported tail time, then until the output stays
                               below -90 dBFS for 0.5 s, at most 30 s (or the reported tail if longer)
          --max-length S       the longest MIDI song rendered, in seconds (default 3600); a
                               song's length is printed before it renders
          --block N            frames per render cycle, 1...16384 (default 1024)
          --jobs N             files rendered at once, each through its own graph (default 1)
          --threads N          the threads that render each graph, its render thread included,
                               1...64 (default: as many as the cores; 1: one thread), used
                               when the chain has branches worth it, or pipelined when it
                               is a serial chain (its stages one block apart, the latency
                               compensated; `auhost graph` says); the output is the same,
                               sample for sample, whatever N; with 1 the file is also
                               read and written on that thread (no reader or writer thread);
                               without it, a file under 5 s renders as with 1
          --true-peak          also measure each output's true peak (BS.1770, 4x oversampled;
                               about 8 % of a light chain's CPU) and warn when it is above 0 dBTP
          --midi-out FILE      also write what reaches the graph's MIDI output as a Standard
                               MIDI File (format 0, 120 BPM, 960 ticks per quarter; one INPUT only)
          --isolation I        where the plugins run: none (in this process), together (one
                               child process for all) or per-unit (one each); a preset
                               node's "isolation" overrides it. Default: none for one
                               INPUT; for a batch, per-unit for the LV2 plugins that
                               `auhost probe-unit` has not found to work (one without
                               a verdict is probed first, once: cached). A plugin
                               that crashes or hangs in a child fails only the file it was
                               rendering, which is tried once more in a fresh child
                               (docs/ISOLATION.md)
          --set N.P=V          set a parameter before rendering (repeatable)
          --force              replace existing output files
          --skip-existing      leave out the INPUTs whose output exists (a batch rerun after
                               an interruption renders the rest), and say how many
        \(RenderBatchOptions.help)

        A batch (more than one INPUT, or any skipped) ends with one summary line on standard
        output: files rendered, failed and skipped, the audio's length, the time taken and the
        speed as a multiple of real time; then each file that failed is listed with its reason
        on standard error (`auhost: batch: failed: …`). A progress bar (the current file, files done of the
        total, an ETA) is drawn on standard error when it is a terminal. Exits 0 when every
        file rendered; 1 when any failed (the others are still rendered) or the preset does
        not load; 64 for usage errors; 128 + the signal when interrupted (130 for SIGINT, 143
        for SIGTERM, 129 for SIGHUP: the files in progress are abandoned, nothing partial is
        left; an output is an unnamed file until it is complete, so not even SIGKILL leaves
        one behind).

        """

    static func run(_ arguments: inout Arguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        var settings = RenderSettings()
        let shortOutput = try arguments.option("-o")
        let longOutput = try arguments.option("--output")
        if shortOutput != nil, longOutput != nil { throw .usage("-o and --output are the same option; give it once", command: name) }
        let output = shortOutput ?? longOutput
        let outputDirectory = try arguments.option("--output-dir")
        let format = try arguments.option("--format", expected: "one of wav|flac|aiff|caf|ogg") { AudioFileFormat(rawValue: $0.lowercased()) }
        let bitDepth = try arguments.option("--bit-depth", expected: "one of 16|24|32f") { BitDepth(rawValue: $0.lowercased()) }
        settings.outputSampleRate = try arguments.option("--sample-rate", expected: "a whole sample rate in \(ChainPreset.sampleRateRange) Hz") { text in
            Double(text).flatMap { $0 == $0.rounded() && ChainPreset.sampleRates.contains($0) ? $0 : nil }
        }
        settings.tail = try arguments.option("--tail", expected: "a number of seconds in 0...3600 or auto") { TailLength(argument: $0) } ?? .auto
        settings.maximumLength = try arguments.option("--max-length", expected: "a number of seconds in 1...604800") { text in
            Double(text).flatMap { RenderSettings.maximumLengths.contains($0) ? $0 : nil }
        } ?? settings.maximumLength
        settings.blockSize = try arguments.option("--block", expected: "a frame count in \(RenderSettings.blockSizes)") { text in
            Int(text).flatMap { RenderSettings.blockSizes.contains($0) ? $0 : nil }
        } ?? settings.blockSize
        settings.jobs = try arguments.option("--jobs", expected: "a number of jobs in \(RenderSettings.jobCounts)") { text in
            Int(text).flatMap { RenderSettings.jobCounts.contains($0) ? $0 : nil }
        } ?? settings.jobs
        settings.midiOutputFile = try arguments.option("--midi-out")
        settings.runsAtFileRate = try arguments.option("--rate", expected: "native (the chain at each file's rate)") { $0 == "native" ? true : nil } ?? false
        settings.converterQuality = try arguments.option("--src-quality", expected: "best, medium or fast") { text in
            ["best": SampleRateQuality.best, "medium": .medium, "fast": .fastest][text.lowercased()]
        } ?? .best
        settings.outputChannels = try arguments.option("--channels", expected: "a channel count in \(RenderSettings.channelCounts)") { text in
            Int(text).flatMap { RenderSettings.channelCounts.contains($0) ? $0 : nil }
        }
        let givenThreads = try ThreadsOption.parseGiven(&arguments)
        settings.parallelism = (givenThreads ?? .machineDefault).pipeliningOverEveryThread
        settings.threadsAreMachineDefault = givenThreads == nil
        let givenIsolation = try IsolationOption.parseGiven(&arguments)
        settings.overwrite = arguments.flag("--force")
        settings.measuresTruePeak = arguments.flag("--true-peak")
        let skipsExisting = arguments.flag("--skip-existing")
        let givenSets = try arguments.options("--set")
        let batch = try RenderBatchOptions.parse(&arguments)
        let given = try arguments.finish(positionals: 1...Int.max, names: "a PRESET.json and at least one INPUT")
        // A MIDI song where the preset goes: the General MIDI module `auhost play` uses.
        let songFirst = [".mid", ".midi", ".smf"].contains { given[0].lowercased().hasSuffix($0) }
        let positionals = songFirst ? [PlayCommand.defaultChain.unit] + given : given
        guard positionals.count >= 2 || batch.givesInputs else { throw .usage("'render' needs a PRESET.json and at least one INPUT", command: name) }
        let sets = (songFirst ? PlayCommand.defaultChain.sets : []) + givenSets
        let destination: OutputPlan.Destination?
        switch (output, outputDirectory) {
        case (let file?, nil): destination = .file(file)
        case (nil, let directory?): destination = .directory(directory)
        case (nil, nil) where batch.manifest != nil: destination = nil  // each row names its output
        case (nil, nil): throw .usage("'render' needs -o OUTPUT or --output-dir DIR", command: name)
        case (_?, _?): throw .usage("-o and --output-dir cannot be used together", command: name)
        }
        var jobs = try batch.jobs(inputs: Array(positionals.dropFirst()), destination: destination, format: format, bitDepth: bitDepth)
        if settings.midiOutputFile != nil && jobs.count != 1 {
            throw .usage("--midi-out takes one INPUT (it names one file)", command: name)
        }
        if let midi = settings.midiOutputFile, let audio = jobs.first?.output,
           URL(fileURLWithPath: midi).standardizedFileURL.path == URL(fileURLWithPath: audio).standardizedFileURL.path {
            throw .usage("--midi-out '\(midi)' is the audio output too; expected a file of its own", command: name)
        }
        if settings.overwrite && skipsExisting {
            throw .usage("--force and --skip-existing cannot be used together", command: name)
        }
        if case .directory(let directory)? = destination {
            switch AtomicFile.NodeKind(path: directory) {
            case .folder: break
            case .missing:
                do {
                    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                } catch {
                    throw CLIError("\(directory): cannot make the output folder: \((error as NSError).localizedDescription)")
                }
            case let kind: throw CLIError("\(directory): is \(kind), not a folder; expected a folder for --output-dir")
            }
        }
        var skipped: [RenderJob] = []
        if skipsExisting {
            let all = jobs
            jobs = []
            for job in all {
                if AtomicFile.NodeKind(path: job.output) == .regularFile { skipped.append(job) } else { jobs.append(job) }
            }
        }
        try batch.makeFolders(for: jobs)
        let results = try batch.results.map { path throws(CLIError) in try RenderResults(path: path) }
        for job in skipped { results?.record(job, nil) }
        let isBatch = jobs.count + skipped.count > 1 || !skipped.isEmpty
        if jobs.isEmpty {
            context.output.line(BatchSummary(outcomes: [], skipped: skipped.count, elapsedSeconds: 0).text)
            return 0
        }

        // A lone file leaves the other cores idle: its reading and writing overlap its
        // rendering, unless --threads 1 asked for one thread. A batch uses the cores
        // through --jobs (one file per worker).
        settings.overlapsFileWork = settings.shouldOverlapFileWork(jobs: jobs.count, cores: ProcessInfo.processInfo.activeProcessorCount)
        // A batch isolates, unless told otherwise, the LV2 plugins no probe has passed: those
        // without a verdict are probed first (once, in a child; the verdict is cached).
        let errors = context.errors
        let unprobed = givenIsolation == nil && jobs.count > 1
            ? UnprobedIsolation.policy(probing: ProbeUnitCommand.runner, notice: { errors.line("auhost: \($0)") })
            : nil
        let loaded = try PresetCommandSupport.load(
            positionals[0], sets: sets, context: context, isolation: givenIsolation ?? .none, isolationOfComponent: unprobed)
        defer { loaded.dispose() }
        for job in jobs where !job.overrides.isEmpty {
            do throws(AudioUnitError) {
                _ = try loaded.resolveOverrides(job.overrides)
            } catch {
                throw CLIError("\(job.input): \(error.message)")
            }
        }
        let planned = jobs
        let progress = RenderProgress(jobs: jobs)
        let out = context.output
        let renderer = BatchRenderer(loaded: loaded, registry: context.registry, settings: settings, jobs: jobs)
        renderer.cancellation.watchSignals()
        defer { renderer.cancellation.stopWatchingSignals() }
        let started = ContinuousClock.now
        let outcomes = renderer.run(
            progress: { progress.update(file: $0, permille: $1) },
            notice: { text in progress.printing { out.line(text) } }
        ) { index, outcome in
            progress.finished(file: index)
            results?.record(planned[index], outcome)
            progress.printing {
                switch outcome {
                case .success(let report):
                    out.line(report.summary)
                    if let midi = report.midiOutputSummary { out.line(midi) }
                    for warning in report.warnings { errors.line("auhost: warning: \(warning)") }
                case .failure(let error) where renderer.cancellation.isCancelled && error.code == .cannotDoInCurrentContext:
                    break // not rendered for the interrupt: the one line after the batch says so
                case .failure(let error):
                    errors.line("auhost: \(error.message)")
                }
            }
        }
        progress.finish()
        let elapsed = ContinuousClock.now - started
        let summary = BatchSummary(
            outcomes: outcomes, skipped: skipped.count,
            elapsedSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        if isBatch && !renderer.cancellation.isCancelled {
            out.line(summary.text)
            // The files that failed, each with its reason, after the summary (on standard error).
            for case .failure(let error) in outcomes { errors.line("auhost: batch: failed: \(error.message)") }
        }
        let failures = summary.failed
        if renderer.cancellation.isCancelled {
            throw CLIError(
                "interrupted; \(jobs.count - failures) of \(jobs.count) files were rendered, no partial output was left",
                status: renderer.cancellation.exitStatus)
        }
        // A single file's error line was printed already; a batch adds a summary.
        if failures == 0 { return 0 }
        if jobs.count == 1 { return CLIError.failureStatus }
        throw CLIError(failures == jobs.count ? "all \(jobs.count) files failed" : "\(failures) of \(jobs.count) files failed; the others were rendered")
    }
}
