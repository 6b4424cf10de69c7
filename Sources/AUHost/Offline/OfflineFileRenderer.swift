import AUCore
import AUEngine
import AUFiles
import AUMIDI

/// Renders one input file through one chain graph into one output file: the offline
/// driver's loop, which plays the part of the JACK callback.
///
/// `init` does all the allocating: it opens the input (converted to the chain's rate and
/// channels), the output (converted back to the file's), and the block buffers. ``run(cancellation:progress:)``
/// then pulls a block of input, renders the graph, and writes what belongs to the output:
///
/// - the first `latencyFrames` rendered frames are dropped and as many extra frames are
///   rendered after the input ends, so the output is time-aligned with the input
///   (an impulse at input frame n comes out at output frame n);
/// - after the input's length, the ``TailCutter`` decides how much tail is kept;
/// - the chain's transport rolls at 120 BPM 4/4 from the first rendered frame, as in a
///   host exporting a song (`TransportState.counted`, auhost_plugin.h's `auhost_transport`).
///
/// The loop itself allocates nothing: reads and writes go through buffers made in `init`;
/// reading and encoding go through an ``InputPipeline`` and an ``OutputPipeline`` (on a
/// reader and a writer thread, in parallel with rendering, when a core is free); `progress`
/// is called only when the per-mille done changes.
/// - Thread: [control] (the job's thread). ``run(cancellation:progress:)`` plays the render thread: each
///   `graph.render` call marks itself as render-thread code.
final class OfflineFileRenderer {
    let job: RenderJob
    let chain: ChainGraph
    /// The input: an audio file (read ahead on a reader thread when a core is free) or a
    /// MIDI file.
    private let input: any OfflineSource
    /// The output: a file written on a writer thread, or memory.
    private let output: any OfflineSink
    /// Frames per cycle (``cycleFrames(_:chain:)``).
    private let blockSize: Int
    private let fileSampleRate: Double
    private let inputBlock: OwnedAudioBuffers
    private let outputBlock: OwnedAudioBuffers
    /// Channel pointers for views into part of ``outputBlock``.
    private let window: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    private var tail: TailCutter
    private var isDone = false
    /// What the chain's faults were (``ChainGraph/faultDescription(_:)``), the first few.
    private var faults: [String] = []
    /// Non-finite samples found in the input (replaced by silence), and the first one's frame.
    private var nonFiniteInput = (count: 0, firstFrame: 0)
    /// Whether the audio input rose above -120 dBFS somewhere (checked until it did). Read
    /// every cycle, as ``midiCutoff`` is written, by the job's thread only: no run-time
    /// exclusivity check.
    @exclusivity(unchecked) private var inputAudible = false
    /// Whether the graph followed a unit's change of latency during the render.
    private var latencyChanged = false
    /// What reached the graph's MIDI output (with `--midi-out`), at frames since the
    /// first cycle (at most ``maximumMIDIOutputEvents``), and the file it goes to, made
    /// before rendering so that a bad `--midi-out` is refused before any audio is.
    private var midiOutput: [(frame: Int64, event: MIDIEvent)] = []
    private let midiOutputFile: (path: String, file: AtomicFile)?
    /// The render frame at which the audio written to the output ends (the chain's latency
    /// plus the frames written, at the chain's rate): MIDI from later is not written.
    @exclusivity(unchecked) private var midiCutoff = 0
    /// The most events `--midi-out` records (a file of at most about 32 MiB); a render
    /// whose MIDI output passes it fails, its outputs deleted.
    static let maximumMIDIOutputEvents = 1 << 22
    /// The most bytes one recorded event takes in the file: a delta of four bytes and a
    /// message of three, one more for rounding up the bridging text events.
    static let bytesPerMIDIOutputEvent = 8
    /// How many faults a report lists; the render thread records one per node and fault.
    static let reportedFaults = 10
    /// Cycles between two collections of the render thread's notices (the graph's notice
    /// ring holds far more than that many cycles' worth).
    static let noticeInterval = 64

    /// Opens the output for `chain` (built at the rate the job runs at, started and primed by
    /// ``LatencyPriming``), at `fileSampleRate` with `fileChannels` channels, to render
    /// `input` into. Nothing is rendered; on failure nothing is left at the output path.
    /// The output never replaces the job's input nor any of `otherInputs` (the preset).
    /// - Thread: [control]
    convenience init(
        job: RenderJob, chain: ChainGraph, settings: RenderSettings, input: any OfflineSource, fileSampleRate: Double, fileChannels: Int,
        otherInputs: [String] = []
    ) throws(AudioUnitError) {
        let blockSize = Self.cycleFrames(settings, chain: chain)
        // Asked once: an isolated unit's TailTime is a request to its child.
        let reportedTail = Self.reportedTail(of: chain)
        let file: AudioFileOutput
        let midiOutputFile: (path: String, file: AtomicFile)?
        do throws(AudioUnitError) {
            let seconds = Double(input.totalFrames) / chain.sampleRate + settings.tail.longestSeconds(reportedTail: reportedTail)
            let midiBytes = settings.midiOutputFile == nil ? 0 : Self.maximumMIDIOutputEvents * Self.bytesPerMIDIOutputEvent
            try OutputSpace.check(job, frames: Int((seconds * fileSampleRate).rounded(.up)), channels: fileChannels, midiOutput: settings.midiOutputFile.map { ($0, midiBytes) })
            if let path = settings.midiOutputFile {
                do throws(AtomicFileFailure) {
                    midiOutputFile = (path, try AtomicFile(destination: path, overwrite: settings.overwrite, inputs: [job.input] + otherInputs))
                } catch {
                    throw AudioUnitError.output(path, error)
                }
            } else {
                midiOutputFile = nil
            }
            file = try AudioFileOutput(
                path: job.output, encoding: job.encoding,
                fileSampleRate: fileSampleRate, fileChannels: fileChannels,
                chainSampleRate: chain.sampleRate, chainChannels: chain.outputChannels, blockSize: blockSize,
                overwrite: settings.overwrite, inputs: [job.input] + otherInputs, quality: settings.converterQuality,
                measuresTruePeak: settings.measuresTruePeak)
        } catch {
            // The input's reader thread would otherwise wait for this renderer forever.
            input.stop()
            throw error
        }
        self.init(
            job: job, chain: chain, settings: settings, input: input,
            output: OutputPipeline(output: file, channels: chain.outputChannels, blockSize: blockSize, threaded: Self.overlapsFileWork(settings, chain: chain)),
            fileSampleRate: fileSampleRate, midiOutputFile: midiOutputFile, reportedTail: reportedTail)
    }

    /// Renders `input` into `output` (a file's pipeline, or memory), the output's rate
    /// `fileSampleRate`; with `midiOutputFile`, what reaches the graph's MIDI output goes there.
    /// `reportedTail`: the chain's ``reportedTail(of:)`` when the caller has it.
    /// - Thread: [control]
    init(
        job: RenderJob, chain: ChainGraph, settings: RenderSettings, input: any OfflineSource, output: any OfflineSink,
        fileSampleRate: Double, midiOutputFile: (path: String, file: AtomicFile)? = nil, reportedTail: Double? = nil
    ) {
        self.job = job
        self.chain = chain
        self.input = input
        self.output = output
        self.midiOutputFile = midiOutputFile
        blockSize = Self.cycleFrames(settings, chain: chain)
        self.fileSampleRate = fileSampleRate
        inputBlock = OwnedAudioBuffers(channels: chain.inputChannels, capacity: blockSize)
        outputBlock = OwnedAudioBuffers(channels: chain.outputChannels, capacity: blockSize)
        window = .allocate(capacity: chain.outputChannels)
        tail = TailCutter(settings.tail, sampleRate: chain.sampleRate, reportedTail: reportedTail ?? Self.reportedTail(of: chain))
    }

    /// Whether `chain`'s file is read and written on threads of its own: when `settings` say
    /// a core is free (``RenderSettings/overlapsFileWork``), unless the chain renders one
    /// slice behind in a unit-host child (``ParallelPlanDecision/rendersOneSliceBehind``):
    /// its render thread then only posts and collects each slice and waits for the child in
    /// between, a wait that reading and writing on that thread fill, where a reader and a
    /// writer thread took the child's core from it (the reference chain `together` over a
    /// 120 s file: 0.78-0.79 s with them, 0.71-0.72 s without, in process 0.63-0.64 s;
    /// docs/BENCHMARKS.md). A `per-unit` chain, whose render thread posts each node in turn,
    /// keeps them.
    /// - Thread: [control]
    static func overlapsFileWork(_ settings: RenderSettings, chain: ChainGraph) -> Bool {
        settings.overlapsFileWork && chain.graph.parallelDecision?.rendersOneSliceBehind != true
    }

    /// The job's audio file as an input for `chain`, read ahead on a reader thread when
    /// ``overlapsFileWork(_:chain:)``.
    /// - Thread: [control]
    static func audioInput(_ job: RenderJob, chain: ChainGraph, settings: RenderSettings) throws(AudioUnitError) -> InputPipeline {
        let threaded = overlapsFileWork(settings, chain: chain)
        let cycle = cycleFrames(settings, chain: chain)
        return InputPipeline(
            input: try AudioFileInput(
                path: job.input, sampleRate: chain.sampleRate, channels: chain.inputChannels,
                blockSize: threaded ? max(cycle, OutputPipeline.slotFrames) : cycle, quality: settings.converterQuality),
            threaded: threaded)
    }

    /// Frames per cycle: the block (`--block`, the chain's MaximumFramesPerSlice), times the
    /// slices a pipelined chain wants in one cycle so that its stages overlap
    /// (``AudioGraph/preferredSlicesPerCycle``). The units see the same slices either way.
    /// - Thread: [control]
    static func cycleFrames(_ settings: RenderSettings, chain: ChainGraph) -> Int {
        settings.blockSize * chain.graph.preferredSlicesPerCycle
    }

    deinit {
        input.stop()
        if !isDone { output.cancel() }
        window.deallocate()
    }

    /// The chain's TailTime in seconds: the sum over its units (a conservative bound for
    /// parallel paths); infinite if any unit's is.
    static func reportedTail(of chain: ChainGraph) -> Double {
        var total = 0.0
        for node in chain.nodes {
            let seconds = (try? node.unit.value(of: .tailTime)) ?? 0
            if seconds.isNaN || seconds < 0 { continue }
            total += seconds
        }
        return total
    }

    /// Renders the whole file and completes the output (renamed into place when
    /// `committing`, else by ``commitOutput()``); on any error
    /// the output is abandoned and nothing is left at its path; so it is when `cancellation`
    /// is set (checked once per cycle). `progress` gets the
    /// per-mille of the input done (0...1000), only when it changes.
    /// - Thread: [control], playing the render thread for each cycle.
    func run(cancellation: RenderCancellation? = nil, progress: (Int) -> Void, committing: Bool = true) throws(AudioUnitError) -> RenderReport {
        precondition(!isDone, "OfflineFileRenderer.run twice")
        isDone = true
        do throws(AudioUnitError) {
            try renderLoop(cancellation: cancellation, progress: progress)
            collectFaults()
            // A graph built with the latencies an earlier graph's units reported is right
            // only if its own units reported the same: else its output is not written.
            if chain.latenciesSeeded && (latencyChanged || !chain.graph.compensatesReportedLatencies) { throw ReportedLatencies.mismatch }
            let levels = try output.finish(committing: committing)
            let midiSummary = try writeMIDIOutput()
            var report = RenderReport(
                job: job, sampleRate: fileSampleRate, channels: levels.channels.count, frames: levels.frames,
                chainSampleRate: chain.sampleRate, chainChannels: chain.outputChannels, latencyFrames: chain.latencyFrames,
                tailSeconds: Double(tail.frames) / chain.sampleRate, tailEndedAtCap: tail.endedAtCap, levels: levels)
            report.instrumentGotNoMIDI = !(input is MIDIFileSource) && !chain.takesAudioInput && !chain.instruments.isEmpty
            report.droppedMIDIEvents = ((input as? MIDIFileSource)?.droppedEvents ?? 0) + chain.nodes.reduce(0) { $0 + $1.unit.droppedMIDIInputEvents }
            report.faults = faults
            report.silentOutputCause = SilentRenderCheck.cause(
                output: levels, inputAudible: inputAudible, songHasNotes: (input as? MIDIFileSource)?.hasNotes ?? false, chain: chain)
            report.midiOutputSummary = midiSummary
            report.nonFiniteInputSamples = nonFiniteInput.count
            if let warning = input.inputWarning { report.faults.insert("\(job.input): \(warning); rendered what it holds", at: 0) }
            if nonFiniteInput.count > 0 {
                report.faults.insert(
                    "\(job.input): \(nonFiniteInput.count) NaN or infinite sample\(nonFiniteInput.count == 1 ? "" : "s") in the input, the first at frame \(nonFiniteInput.firstFrame); rendered as silence",
                    at: 0)
            }
            return report
        } catch {
            output.cancel()
            throw error.naming(job)
        }
    }

    /// Puts in place the output ``run(cancellation:progress:committing:)`` left complete
    /// under its temporary name; on failure nothing is left at its path.
    /// - Thread: [control] or [worker], once, after `run`.
    func commitOutput() throws(AudioUnitError) {
        do {
            try output.commit()
        } catch {
            throw error.naming(job)
        }
    }

    /// The cycle loop, with denormals flushed throughout (not set and reset every cycle).
    private func renderLoop(cancellation: RenderCancellation?, progress: (Int) -> Void) throws(AudioUnitError) {
        try RenderThread.flushingDenormals { () throws(AudioUnitError) in try renderCycles(cancellation: cancellation, progress: progress) }
    }

    /// Read, render, write the aligned part, until the tail is over.
    private func renderCycles(cancellation: RenderCancellation?, progress: (Int) -> Void) throws(AudioUnitError) {
        let latency = chain.latencyFrames
        let bodyFrames = input.totalFrames
        let total = max(1, bodyFrames)
        let inputView = inputBlock.buffers()
        let outputView = outputBlock.buffers()
        var rendered = 0
        var written = 0
        var permille = -1
        var tailWritten = 0
        while true {
            if written == bodyFrames, tail.isFinished { break }
            if let cancellation, cancellation.isCancelled {
                throw AudioUnitError(.cannotDoInCurrentContext, "interrupted; the partial output was deleted")
            }
            let cycleInput = try nextInput(into: inputView, startingAt: rendered)
            if !inputAudible { inputAudible = cycleInput.containsSampleAbove(SilentRenderCheck.threshold) }
            // Frames still inside the chain's latency belong to no output frame.
            var offset = min(blockSize, max(0, latency - rendered))
            let body = min(blockSize - offset, bodyFrames - written)
            // A cycle wholly inside the output's body renders straight into the caller's memory when the output is there.
            let inPlaceOutput = offset == 0 && body == blockSize ? output.placeFor(blockSize) : nil
            // A song being exported: the transport rolls at 120 BPM 4/4 from frame 0
            // (auhost_plugin.h's `auhost_transport`, LV2 `time:Position`).
            chain.transport.state = TransportState.counted(sampleTime: Double(rendered), sampleRate: chain.sampleRate)
            let status = chain.graph.render(
                frameCount: blockSize, timestamp: RenderTimestamp(sampleTime: Double(rendered)), input: cycleInput, output: inPlaceOutput ?? outputView)
            guard status == 0 else {
                throw AudioUnitError(status: status, context: "the chain failed to render at frame \(rendered)")
            }
            try chain.requireNoIsolationFault(atFrame: rendered)
            if midiOutputFile != nil {
                let events = chain.graph.midiOutputFromRender
                guard midiOutput.count + events.count <= Self.maximumMIDIOutputEvents else {
                    throw AudioUnitError(
                        .tooManyFramesToProcess,
                        "--midi-out: more than \(Self.maximumMIDIOutputEvents) MIDI events reached the graph's MIDI output by frame \(rendered); expected a shorter song or fewer events (nothing was written)")
                }
                for event in events { midiOutput.append((Int64(rendered) + Int64(event.offset), event)) }
            }
            rendered += blockSize
            if body > 0 {
                if inPlaceOutput != nil { output.tookInPlace(body) } else { try write(outputView, from: offset, count: body) }
                written += body
                offset += body
            }
            if written == bodyFrames, offset < blockSize, !tail.isFinished {
                let kept = tail.accept(view(outputView, from: offset, count: blockSize - offset))
                if kept > 0 { try write(outputView, from: offset, count: kept) }
                tailWritten += kept
            }
            midiCutoff = latency + written + tailWritten
            if rendered / blockSize % Self.noticeInterval == 0 { collectFaults() }
            let done = min(1000, written * 1000 / total)
            if done != permille {
                permille = done
                progress(done)
            }
        }
    }

    /// Writes what reached the graph's MIDI output (`--midi-out`) during the audio written
    /// (a last cycle past the output's end sends nothing into the file), the file as long as
    /// the audio; its summary line, or nil without `--midi-out`.
    private func writeMIDIOutput() throws(AudioUnitError) -> String? {
        guard let (path, destination) = midiOutputFile else { return nil }
        var file = MIDIFrameRecording(sampleRate: chain.sampleRate)
        for (frame, event) in midiOutput where frame < Int64(midiCutoff) {
            file.append(frame: frame, status: event.status, data1: event.data1, data2: event.data2)
        }
        do throws(AtomicFileFailure) {
            try file.write(into: destination, endFrame: Int64(midiCutoff))
        } catch {
            throw AudioUnitError.output(path, error)
        }
        let (count, midiOutput) = (file.eventCount, file)
        return "\(job.input) -> \(path): \(count) MIDI event\(count == 1 ? "" : "s"), a Standard MIDI File at \(60_000_000 / midiOutput.microsecondsPerQuarter) BPM, \(midiOutput.ticksPerQuarter) ticks per quarter note"
    }

    /// Takes the render thread's notices: keeps the faults among them for the report, and
    /// notes a change of latency.
    private func collectFaults() {
        for notice in chain.graph.dispatchPendingNotifications() {
            if notice.kind == .latencyChanged { latencyChanged = true }
            if faults.count < Self.reportedFaults, let fault = chain.faultDescription(notice) { faults.append("\(job.input): \(fault)") }
        }
    }

    /// The cycle's input: the source's memory itself when it holds the frames as the chain
    /// takes them and they are all finite, else `block` filled from it (non-finite samples
    /// silenced there, never in the caller's memory).
    private func nextInput(into block: AudioBuffers, startingAt frame: Int) throws(AudioUnitError) -> AudioBuffers {
        if let (inPlace, isFinite) = input.takeInPlace(block.frameCount) {
            guard !isFinite, inPlace.containsNonFinite() else { return inPlace }
            block.copy(from: inPlace)
        } else {
            try input.read(into: block)
        }
        if block.containsNonFinite() { silenceNonFinite(block, startingAt: frame) }
        return block
    }

    /// Replaces NaN and infinity in an input block by silence (one would mute the first
    /// node for the rest of the file) and counts them.
    private func silenceNonFinite(_ buffers: AudioBuffers, startingAt firstFrame: Int) {
        for channel in 0..<buffers.channelCount {
            let samples = buffers[channel]
            for frame in 0..<buffers.frameCount where !samples[frame].isFinite {
                if nonFiniteInput.count == 0 || firstFrame + frame < nonFiniteInput.firstFrame {
                    nonFiniteInput.firstFrame = firstFrame + frame
                }
                nonFiniteInput.count += 1
                samples[frame] = 0
            }
        }
    }

    private func view(_ buffers: AudioBuffers, from offset: Int, count: Int) -> AudioBuffers {
        buffers.window(from: offset, count: count, pointers: window)
    }

    private func write(_ buffers: AudioBuffers, from offset: Int, count: Int) throws(AudioUnitError) {
        try output.write(view(buffers, from: offset, count: count))
    }
}

extension AudioUnitError {
    /// This error naming the job's file: kept when it names the input or the output
    /// already, else prefixed with the input's path.
    /// - Thread: [control]
    func naming(_ job: RenderJob) -> AudioUnitError {
        if message.hasPrefix("\(job.input): ") || message.hasPrefix("\(job.output): ") { return self }
        return AudioUnitError(code, "\(job.input): \(message)", underlying: underlying)
    }
}
