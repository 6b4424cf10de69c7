import AUCore
import AUEngine
import AUFiles
import AUMIDI
import AULV2
import AUPresets
import Foundation
import Synchronization

/// Renders a list of files through one loaded chain, `settings.jobs` files at a time.
///
/// Every file gets a graph of its own, built from fresh instances
/// (``LoadedPreset/makeUnits()``) at the rate that file runs at — the preset's
/// `sampleRate`, else the file's — so a file's samples never depend on the files rendered
/// before it, nor on `--jobs`. Graphs are built and disposed one at a time (plugin
/// instantiation is control-thread work on shared worlds); they render in parallel. The
/// plugins' libraries, loaded by the first graph, stay loaded until the batch renderer
/// goes (``LoadedLibraryPin``): freeing a file's last instance would unload them, and the
/// next file's build would load, relocate and initialize them again (cairo, fontconfig...).
/// LV2 units render in offline mode (their worker runs immediately, deterministically).
///
/// A file that fails (unreadable, corrupt, an existing output without `--force`, a full
/// disk) is reported and leaves nothing at its output path; the other files still render.
/// - Thread: [control] ``run(progress:finished:)`` starts `settings.jobs` worker threads
///   (each a control thread playing the render thread for its own graph) and waits for them.
public final class BatchRenderer: @unchecked Sendable {
    public let loaded: LoadedPreset
    public let registry: ComponentRegistry
    public let settings: RenderSettings
    public let jobs: [RenderJob]
    /// Set by a signal or ``RenderCancellation/cancel()``: jobs stop at their next cycle.
    public let cancellation = RenderCancellation()
    /// Ends the process when a job's render is stuck in a unit (``RenderWatchdog``); nil: none.
    public var watchdog: RenderWatchdog? = RenderWatchdog.standard()
    /// Serializes building and disposing graphs; holds the libraries the first file's graph
    /// loaded, from its build until the renderer goes, when there is more than one file
    /// (``buildChain(at:overrides:parallelism:)`` alone, as `ChainProcessor` calls it, holds nothing).
    private let buildLock = Mutex<LoadedLibraryPin?>(nil)
    /// What the chain's units reported as their latency, so that a file's graph is primed
    /// only when no earlier one made the same way was.
    let latencies: ReportedLatencies

    /// - Thread: [control]
    public convenience init(loaded: LoadedPreset, registry: ComponentRegistry, settings: RenderSettings, jobs: [RenderJob]) {
        self.init(loaded: loaded, registry: registry, settings: settings, jobs: jobs, latencies: ReportedLatencies())
    }

    /// With the latencies an owner keeps across its builders (``ChainProcessor``).
    init(loaded: LoadedPreset, registry: ComponentRegistry, settings: RenderSettings, jobs: [RenderJob], latencies: ReportedLatencies) {
        self.loaded = loaded
        self.registry = registry
        self.settings = settings
        self.jobs = jobs
        self.latencies = latencies
    }

    deinit {
        buildLock.withLock { $0?.release() }
    }

    /// Renders every job; `notice` hears what a job says before it starts (from its
    /// worker's thread); `finished` is called for each, in job order, as soon as it and
    /// every job before it are done (from whichever thread finished last, one call at a
    /// time); `progress` hears how far each job is, in thousandths, from its worker's thread.
    /// Returns the outcomes in job order.
    /// - Thread: [control]
    public func run(
        progress: (@Sendable (_ job: Int, _ permille: Int) -> Void)? = nil,
        notice: @escaping @Sendable (String) -> Void = { _ in },
        finished: @escaping @Sendable (Int, Result<RenderReport, AudioUnitError>) -> Void = { _, _ in }
    ) -> [Result<RenderReport, AudioUnitError>] {
        struct Shared {
            var next = 0
            var outcomes: [Result<RenderReport, AudioUnitError>?]
            var reported = 0
        }
        let shared = Mutex(Shared(outcomes: Array(repeating: nil, count: jobs.count)))
        let record: @Sendable (Int, Result<RenderReport, AudioUnitError>) -> Void = { index, outcome in
            shared.withLock { state in
                state.outcomes[index] = outcome
                while state.reported < state.outcomes.count, let done = state.outcomes[state.reported] {
                    finished(state.reported, done)
                    state.reported += 1
                }
            }
        }
        // More than one file: each output is put in place on the committer's thread.
        let committer = jobs.count > 1 ? OutputCommitter() : nil
        let workers = min(settings.jobs, jobs.count)
        let group = DispatchGroup()
        for worker in 0..<workers {
            group.enter()
            // Each worker's isolated units share children of its own: two workers' units on
            // one child's render thread would render one after the other.
            let thread = Thread { [self] in IsolationLane.$current.withValue(worker) {
                let anchors = laneAnchors(worker)
                defer { anchors.forEach { $0.dispose() } }
                while let index = shared.withLock({ state -> Int? in
                    guard state.next < jobs.count else { return nil }
                    defer { state.next += 1 }
                    return state.next
                }) {
                    let deferred = committer.map { _ in DeferredCommit() }
                    let outcome = renderRetryingIsolationFaults(jobs[index], progress: { progress?(index, $0) }, notice: notice, deferringCommitTo: deferred)
                    if let committer, let deferred {
                        committer.enqueue { record(index, deferred.committing(outcome)) }
                    } else {
                        record(index, outcome)
                    }
                }
                group.leave()
            } }
            thread.name = "auhost render job"
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        committer?.drain()
        return shared.withLock { $0.outcomes.map { $0! } }
    }

    /// Units that keep worker `worker`'s children running between its files, as the preset's
    /// own units keep worker 0's (a child ends with its last unit): instances of the preset's
    /// nodes, made in the worker's ``IsolationLane`` when any node is isolated; none for
    /// worker 0 or when they cannot be made (each file then starts the children it needs).
    private func laneAnchors(_ worker: Int) -> [AudioUnit] {
        guard worker > 0, loaded.nodes.contains(where: { $0.unit is BridgedUnit }) else { return [] }
        return (try? loaded.makeUnits()) ?? []
    }

    /// Renders one job on the calling thread; `notice` hears what is worth saying before
    /// it starts (a MIDI song's length). A graph built with the latencies an earlier file's
    /// units reported, whose units report others, renders the job again, primed.
    /// - Thread: [control] (a worker), playing the render thread for its graph.
    public func render(_ job: RenderJob, progress: (Int) -> Void, notice: (String) -> Void = { _ in }) -> Result<RenderReport, AudioUnitError> {
        render(job, progress: progress, notice: notice, deferringCommitTo: nil)
    }

    /// The same; with `deferred`, the output is left complete under its temporary name and
    /// `deferred` gets its commit.
    func render(_ job: RenderJob, progress: (Int) -> Void, notice: (String) -> Void, deferringCommitTo deferred: DeferredCommit?) -> Result<RenderReport, AudioUnitError> {
        Result { () throws(AudioUnitError) in
            try latencies.retryingMismatch { again throws(AudioUnitError) in
                try renderOnce(job, progress: progress, notice: again ? { _ in } : notice, deferringCommitTo: deferred).get()
            }
        }
    }

    private func renderOnce(
        _ job: RenderJob, progress: (Int) -> Void, notice: (String) -> Void, deferringCommitTo deferred: DeferredCommit?
    ) -> Result<RenderReport, AudioUnitError> {
        let started = ContinuousClock.now
        do throws(AudioUnitError) {
            if cancellation.isCancelled {
                throw AudioUnitError(.cannotDoInCurrentContext, "not rendered: interrupted")
            }
            if !settings.overwrite, AtomicFile.NodeKind(path: job.output) == .regularFile {
                throw AudioUnitError(.invalidFilePath, "\(job.output): already exists; pass --force to replace it")
            }
            // A Standard MIDI File plays the chain's instruments (at the preset's rate, else
            // 48 kHz) into the chain's output channels; an audio file runs through the chain
            // and comes back at its own rate and channel count.
            let song = MusicSequence.isStandardMIDIFile(atPath: job.input) ? try Self.readSong(job.input) : nil
            if let song {
                let duration = song.tempoMap.seconds(forBeats: song.length)
                guard duration <= settings.maximumLength else {
                    throw AudioUnitError(
                        .invalidFile,
                        "\(job.input): the song lasts \(RenderReport.clock(duration)), longer than the \(RenderReport.clock(settings.maximumLength)) --max-length allows; expected a shorter song, or pass --max-length SECONDS")
                }
                notice("\(job.input): a MIDI song of \(RenderReport.clock(duration)), rendered with its tail into \(job.output)")
            }
            let info = song == nil ? try AudioFileReader(path: job.input, maxFramesPerRead: 1).info : nil
            let rate = (settings.runsAtFileRate ? info?.sampleRate : nil) ?? loaded.preset.sampleRate ?? info?.sampleRate ?? 48_000
            guard ChainPreset.sampleRates.contains(rate) else {
                throw AudioUnitError(
                    .formatNotSupported,
                    "\(job.input): the chain would run at the file's \(RenderReport.rate(rate)) Hz; expected a rate in \(ChainPreset.sampleRateRange) Hz (set the preset's sampleRate to convert)")
            }
            let seconds = song.map { $0.tempoMap.seconds(forBeats: $0.length) } ?? Double(info?.frames ?? 0) / (info?.sampleRate ?? rate)
            let fileSettings = settings.forFile(seconds: seconds)
            let chain = try buildChain(at: rate, overrides: job.overrides, parallelism: fileSettings.parallelism)
            defer { buildLock.withLock { _ in chain.dispose() } }
            if jobs.count > 1 {
                buildLock.withLock { libraries in
                    if libraries == nil { libraries = LoadedLibraryPin() }
                }
            }
            let watch = watchdog?.watch(chain, job: job.input, cancellation: cancellation)
            defer { watch?.stop() }
            if song != nil && !chain.graph.takesMIDIInput {
                throw AudioUnitError(.invalidFile, "a MIDI file needs a unit that takes MIDI in the chain (an instrument, aumu, or a MIDI processor, aumi), and '\(loaded.preset.name)' has none")
            }
            // A song's tracks sent to "output" reach the MIDI output through the player,
            // which the graph gets below.
            let tracksReachOutput = song != nil && chain.trackDestinations.values.contains(.graphOutput)
            if settings.midiOutputFile != nil && !chain.graph.sendsMIDIOutput && !tracksReachOutput {
                throw AudioUnitError(.invalidPropertyValue, "--midi-out: nothing in '\(loaded.preset.name)' sends MIDI to the graph's MIDI output; expected a chain that ends in a unit that sends MIDI, a \"midi\" connection to \"output\", or a MIDI file's track sent there (\"tracks\": {\"1\": \"output\"})")
            }
            try prime(chain)
            let input: any OfflineSource = if let song {
                try MIDIFileSource(song, file: job.input, chain: chain)
            } else {
                try OfflineFileRenderer.audioInput(job, chain: chain, settings: fileSettings)
            }
            let renderer = try OfflineFileRenderer(
                job: job, chain: chain, settings: fileSettings, input: input,
                fileSampleRate: settings.outputSampleRate ?? info?.sampleRate ?? rate, fileChannels: settings.outputChannels ?? max(info?.channels ?? 0, chain.outputChannels),
                otherInputs: [loaded.file])
            var report = try renderer.run(cancellation: cancellation, progress: progress, committing: deferred == nil)
            deferred?.commit = { () throws(AudioUnitError) in try renderer.commitOutput() }
            let elapsed = ContinuousClock.now - started
            report.renderSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            return .success(report)
        } catch {
            return .failure(error.naming(job))
        }
    }

    /// The Standard MIDI File at `path`; its error names the file and the byte.
    private static func readSong(_ path: String) throws(AudioUnitError) -> MusicSequence {
        do throws(MIDIFileError) {
            return try MusicSequence.load(bytes: MusicSequence.fileBytes(atPath: path), path: path)
        } catch {
            throw AudioUnitError(.invalidFile, error.description)
        }
    }

    /// ``buildChain(at:overrides:parallelism:)``, started, its latency known: primed
    /// (``LatencyPriming``), or built with what the units of an earlier graph made the same
    /// way reported (``ReportedLatencies``), which priming records.
    func startedChain(at rate: Double, overrides: [String] = [], parallelism: RenderParallelism? = nil) throws(AudioUnitError) -> ChainGraph {
        let chain = try buildChain(at: rate, overrides: overrides, parallelism: parallelism)
        do throws(AudioUnitError) {
            try prime(chain)
        } catch {
            buildLock.withLock { _ in chain.dispose() }
            throw error
        }
        return chain
    }

    /// Starts `chain`, primed unless built with reported latencies, and records what its
    /// units reported.
    private func prime(_ chain: ChainGraph) throws(AudioUnitError) {
        try LatencyPriming.prime(chain, blockSize: settings.blockSize)
        if let (key, seeded) = chain.reportedLatencies, !seeded { latencies.record(chain, key: key) }
    }

    /// A fresh graph of the chain at `rate`, LV2 units in offline mode, with a job's own
    /// `overrides` set on its units, rendered on `parallelism`'s threads (nil: the settings').
    func buildChain(at rate: Double, overrides: [String] = [], parallelism: RenderParallelism? = nil) throws(AudioUnitError) -> ChainGraph {
        try buildLock.withLock { _ throws(AudioUnitError) -> ChainGraph in
            let units: [AudioUnit]
            do throws(PresetError) {
                units = try loaded.makeUnits()
            } catch {
                throw AudioUnitError(.failedInitialization, error.problems.map { $0.description }.joined(separator: "; "))
            }
            for unit in units {
                (unit as? LV2Unit)?.renderMode = .offline
                (unit as? BridgedUnit)?.rendersOffline = true
            }
            do throws(AudioUnitError) {
                for (index, parameter) in try loaded.resolveOverrides(overrides) { try parameter.apply(to: units[index]) }
            } catch {
                units.forEach { $0.dispose() }
                throw error
            }
            let key = ReportedLatencies.key(rate: rate, blockSize: settings.blockSize, parallelism: parallelism ?? settings.parallelism, overrides: overrides)
            let seeded = latencies.seed(units, key: key)
            do throws(AudioUnitError) {
                let chain = try ChainGraph(loaded, units: units, registry: registry, sampleRate: rate, maximumFrames: settings.blockSize, parallelism: parallelism ?? settings.parallelism)
                chain.reportedLatencies = (key, seeded)
                return chain
            } catch {
                units.forEach { $0.dispose() }
                throw AudioUnitError(error.code, "the chain cannot run at \(RenderReport.rate(rate)) Hz: \(error.message)", underlying: error)
            }
        }
    }
}
