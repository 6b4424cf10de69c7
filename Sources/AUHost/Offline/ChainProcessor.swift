import AUCore
import AUFiles
import AUMIDI
import AUPresets
import Foundation
import Synchronization

/// A chain preset that renders audio in memory as `auhost render` renders a file: the
/// library under the C API (`include/auhost.h`) and the Python package.
///
/// ``render(_:sampleRate:song:into:)`` is one file's render from a clean start (as `auhost
/// render` builds a graph per file): the graph of the last call with every unit reset when
/// that starts it over (a series of native effects, ``ChainGraph/restartsByReset``), else
/// built anew from fresh instances; its latency is primed and compensated, the tail is
/// rendered (``settings``' `tail`), through the same loop as a file (``OfflineFileRenderer``,
/// into a ``MemorySink``), so the output equals `auhost render`'s output of the same
/// samples, sample for sample.
/// ``stream(_:sampleRate:into:)`` continues the chain's state instead: as many frames out as in,
/// `latencyFrames` late, no tail (a long signal in chunks).
///
/// Parameters change through ``set(_:)``, which loads the preset again with the overrides
/// given so far, as `--set` does: the same checks and messages.
/// - Thread: [control] one thread at a time per processor; processors on different threads
///   render at once (building, initializing and disposing take ``controlLock``).
public final class ChainProcessor: @unchecked Sendable {
    /// Where the preset comes from: a file, or JSON text whose relative paths are relative
    /// to `file`'s folder.
    /// - Thread: [any] (a plain value).
    public enum Source: Sendable {
        case file(String)
        case json(String, file: String)
    }

    public let source: Source
    public let registry: ComponentRegistry
    /// Where the nodes without an `"isolation"` key run, and what runs the isolated ones in
    /// child processes (nil: every node in this process, whatever its key says).
    public let isolation: UnitIsolation
    public let isolator: (any ComponentIsolator)?
    /// The rate a call's sample rate of 0 stands for (the chain's rate when the preset names none).
    public let defaultSampleRate: Double
    /// Block size (`--block`), threads (`--threads`) and tail (`--tail`), as `auhost render` takes them.
    public var settings: RenderSettings
    /// The preset with every override applied.
    public private(set) var loaded: LoadedPreset
    /// The `--set` overrides given, in order.
    public private(set) var overrides: [ParameterOverride] = []
    /// What the last ``render(_:sampleRate:song:into:)`` reported (faults, levels, tail).
    public private(set) var lastReport: RenderReport?
    /// The graph of the last render or stream, which a stream continues and
    /// ``latencyFrames(sampleRate:)`` reads (a render builds its own).
    private var chain: ChainGraph?
    /// Whether ``chain`` played a song (its player stays attached: a stream builds anew).
    private var chainPlayedSong = false
    /// Frames ``stream(_:sampleRate:into:)`` has rendered since the chain started.
    private var streamPosition = 0
    /// A previous output handed back (``recycle(_:)``), for the next one to fill.
    private var spareOutput: [[Float]] = []
    /// What the units of the preset as loaded reported as their latency (a render's graph
    /// is primed only when none made the same way was).
    private var latencies = ReportedLatencies()

    /// Serializes loading, building, initializing and disposing chains across processors
    /// (plugin instantiation is control-thread work on shared worlds).
    static let controlLock = Mutex(())

    /// Loads the preset from `source`; its problems are one error, a line each. With an
    /// `isolator`, the nodes run where `isolation` and their `"isolation"` keys say: a unit
    /// that crashes, exits or hangs in its child fails the render it was in
    /// (`instanceInvalidated`, naming the node) and the next render gets a fresh child.
    /// - Thread: [control]
    public init(
        _ source: Source, registry: ComponentRegistry, sampleRate: Double = 48_000, settings: RenderSettings = RenderSettings(),
        isolation: UnitIsolation = .none, isolator: (any ComponentIsolator)? = nil
    ) throws(AudioUnitError) {
        guard ChainPreset.sampleRates.contains(sampleRate) else {
            throw AudioUnitError(.formatNotSupported, "sample_rate \(RenderReport.rate(sampleRate)): expected a rate in \(ChainPreset.sampleRateRange) Hz")
        }
        self.source = source
        self.registry = registry
        defaultSampleRate = sampleRate
        self.settings = settings
        self.isolation = isolation
        self.isolator = isolator
        loaded = try Self.load(source, registry: registry, overrides: [], isolation: isolation, isolator: isolator)
    }

    deinit {
        Self.controlLock.withLock { _ in
            chain?.dispose()
            loaded.dispose()
        }
    }

    /// The preset's file name (for JSON text, the file its paths are relative to).
    /// - Thread: [any]
    public var file: String {
        switch source {
        case .file(let path): path
        case .json(_, let file): file
        }
    }

    private static func load(
        _ source: Source, registry: ComponentRegistry, overrides: [ParameterOverride], isolation: UnitIsolation, isolator: (any ComponentIsolator)?
    ) throws(AudioUnitError) -> LoadedPreset {
        var loader = PresetLoader(registry: registry)
        loader.isolation = isolation
        loader.isolator = isolator
        do throws(PresetError) {
            return try controlLock.withLock { _ throws(PresetError) -> LoadedPreset in
                switch source {
                case .file(let path): try loader.load(file: path, overrides: overrides)
                case .json(let text, let file): try loader.load(data: Data(text.utf8), file: file, overrides: overrides)
                }
            }
        } catch {
            let file = switch source { case .file(let path): path; case .json(_, let file): file }
            let lines = error.problems.map { $0.file.isEmpty ? "\(file): \($0.description)" : $0.description }
            throw AudioUnitError(error.code, lines.joined(separator: "\n"))
        }
    }

    /// Sets `NODE.PARAM=VALUE` as `--set` does: the preset is loaded again with it, so a
    /// bad node, parameter or value is the error `--set` gives and changes nothing. The
    /// next render builds the chain anew.
    /// - Thread: [control]
    public func set(_ assignment: String) throws(AudioUnitError) {
        let override: ParameterOverride
        do throws(PresetError) {
            override = try ParameterOverride(parsing: assignment)
        } catch {
            throw AudioUnitError(error.code, error.description)
        }
        let reloaded = try Self.load(source, registry: registry, overrides: overrides + [override], isolation: isolation, isolator: isolator)
        Self.controlLock.withLock { _ in
            chain?.dispose()
            loaded.dispose()
        }
        chain = nil
        loaded = reloaded
        latencies = ReportedLatencies()
        overrides.append(override)
    }

    /// Every input parameter of every node: `node.identifier`, its value and range.
    /// - Thread: [control]
    public var parameters: [(target: String, info: ParameterInfo, value: Float)] {
        loaded.nodes.flatMap { node in
            node.unit.parameters.infos.filter { !$0.flags.contains(.isOutput) }.map { info in
                let value = (try? node.unit.parameterValue(info.address.id, scope: info.address.scope, element: info.address.element)) ?? info.defaultValue
                return ("\(node.id).\(info.identifier)", info, value)
            }
        }
    }

    /// The chain as it is now, as preset JSON (parameters changed from their defaults, custom
    /// state), paths relative to ``file``'s folder.
    /// - Thread: [control]
    public func presetJSON() throws(AudioUnitError) -> String {
        do throws(PresetError) {
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
            return PresetWriter.encodeString(try loaded.capture(PresetCapture(folder: folder)))
        } catch {
            throw AudioUnitError(error.code, error.description)
        }
    }

    /// The rate the chain runs at for audio at `sampleRate`: the preset's `sampleRate`, else `sampleRate`.
    /// - Thread: [control]
    public func chainRate(for sampleRate: Double) -> Double { loaded.preset.sampleRate ?? given(sampleRate) }

    /// A call's sample rate: 0 is ``defaultSampleRate``.
    private func given(_ sampleRate: Double) -> Double { sampleRate == 0 ? defaultSampleRate : sampleRate }

    /// The chain's latency in frames at `sampleRate`, primed as a render primes it.
    /// - Thread: [control]
    public func latencyFrames(sampleRate: Double) throws(AudioUnitError) -> Int {
        try preparedChain(at: chainRate(for: sampleRate), clean: false).latencyFrames
    }

    /// The chain's input and output channels at `sampleRate`.
    /// - Thread: [control]
    public func channels(sampleRate: Double) throws(AudioUnitError) -> (input: Int, output: Int) {
        let chain = try preparedChain(at: chainRate(for: sampleRate), clean: false)
        return (chain.inputChannels, chain.outputChannels)
    }

    /// The chain's TailTime in seconds (the sum over its units; infinite if any is).
    /// - Thread: [control]
    public func tailSeconds(sampleRate: Double) throws(AudioUnitError) -> Double {
        OfflineFileRenderer.reportedTail(of: try preparedChain(at: chainRate(for: sampleRate), clean: false))
    }

    /// The fewest frames a render of `inputFrames` frames of audio at `sampleRate` gives: the
    /// input's and the tail's shortest (``TailLength/shortestFrames(reportedTail:sampleRate:)``),
    /// exactly that many with a tail of fixed length. A caller that sizes the destination so
    /// gets the output in it whenever the tail ends as soon as it may.
    /// - Thread: [control]
    public func shortestOutputFrames(inputFrames: Int, sampleRate: Double) throws(AudioUnitError) -> Int {
        let rate = chainRate(for: sampleRate)
        let reported = settings.tail == .auto ? try tailSeconds(sampleRate: rate) : 0
        return inputFrames + settings.tail.shortestFrames(reportedTail: reported, sampleRate: rate)
    }

    /// Renders `input` (audio at `sampleRate`; nil with a `song`) as `auhost render` renders
    /// one file; `song` is a Standard MIDI File played into the chain's instruments over
    /// silence. Returns the chain's output channels; nil when the output went into
    /// `destination` (the chain's output channels), which it fills exactly (the caller sized
    /// it: the input's frames and a tail of fixed length).
    /// - Thread: [control], playing the render thread for each cycle.
    public func render(_ input: AudioBuffers?, sampleRate: Double, song: [UInt8]? = nil, into destination: AudioBuffers? = nil) throws(AudioUnitError) -> [[Float]]? {
        try latencies.retryingMismatch { _ throws(AudioUnitError) in try renderOnce(input, sampleRate: sampleRate, song: song, into: destination) }
    }

    private func renderOnce(_ input: AudioBuffers?, sampleRate: Double, song: [UInt8]?, into destination: AudioBuffers?) throws(AudioUnitError) -> [[Float]]? {
        let name = song == nil ? "audio" : "midi"
        let job = RenderJob(input: name, output: "output", encoding: try AudioFileEncoding(format: .wav, bitDepth: .float32))
        do throws(AudioUnitError) {
            let sequence = try song.map { bytes throws(AudioUnitError) in
                do throws(MIDIFileError) {
                    return try MusicSequence.load(bytes: bytes, path: name)
                } catch {
                    throw AudioUnitError(.invalidFile, error.description)
                }
            }
            if let sequence {
                let duration = sequence.tempoMap.seconds(forBeats: sequence.length)
                guard duration <= settings.maximumLength else {
                    throw AudioUnitError(.invalidFile, "the song lasts \(RenderReport.clock(duration)), longer than the \(RenderReport.clock(settings.maximumLength)) allowed")
                }
            }
            guard sequence != nil || input.map({ $0.channelCount > 0 }) ?? true else {
                throw AudioUnitError(.invalidPropertyValue, "audio: no channels; expected 1 or more")
            }
            let rate = try checkedRate(sampleRate, isSong: sequence != nil)
            let chain = try preparedChain(at: rate, clean: true, forSong: sequence != nil)
            if sequence != nil && !chain.graph.takesMIDIInput {
                throw AudioUnitError(.invalidFile, "MIDI needs a unit that takes MIDI in the chain (an instrument, aumu, or a MIDI processor, aumi), and '\(loaded.preset.name)' has none")
            }
            let source: any OfflineSource
            if let sequence {
                source = try MIDIFileSource(sequence, file: name, chain: chain)
            } else if let input {
                source = ArraySource(input, chainChannels: chain.inputChannels)
            } else {
                throw AudioUnitError(.invalidPropertyValue, "no audio and no MIDI; expected audio of 1 or more channels, or a Standard MIDI File")
            }
            let sink = MemorySink(
                channelCount: chain.outputChannels, expectedFrames: source.totalFrames + Int(chain.sampleRate), storage: takeSpareOutput(), destination: destination,
                rendersInPlace: !(input.map { destination?.sharesMemory(with: $0) ?? false } ?? false))
            let renderer = OfflineFileRenderer(job: job, chain: chain, settings: settings, input: source, output: sink, fileSampleRate: chain.sampleRate)
            lastReport = try renderer.run(progress: { _ in })
            return sink.output
        } catch {
            throw error.naming(job)
        }
    }

    /// Continues the chain's stream with `input` (audio at `sampleRate`) into `output` (the
    /// chain's output channels, at least as many frames): as many frames out as in, from the
    /// chain's state after the last call (a render, a stream, or a fresh chain); no latency
    /// compensation, no tail. The graph reads and writes the caller's memory directly (as it
    /// does JACK's port buffers) when `input` has the chain's input channels.
    /// - Thread: [control], playing the render thread for each cycle.
    public func stream(_ input: AudioBuffers, sampleRate: Double, into output: AudioBuffers) throws(AudioUnitError) {
        guard input.channelCount > 0 else {
            throw AudioUnitError(.invalidPropertyValue, "audio: no channels; expected 1 or more")
        }
        let chain = try preparedChain(at: try checkedRate(sampleRate, isSong: false), clean: false)
        guard output.channelCount == chain.outputChannels, output.frameCount >= input.frameCount else {
            throw AudioUnitError(
                .invalidPropertyValue,
                "output: \(output.channelCount) channels of \(output.frameCount) frames; expected the chain's \(chain.outputChannels) of at least \(input.frameCount)")
        }
        let cycle = OfflineFileRenderer.cycleFrames(settings, chain: chain)
        let mapped = input.channelCount == chain.inputChannels ? nil : (ArraySource(input, chainChannels: chain.inputChannels), OwnedAudioBuffers(channels: chain.inputChannels, capacity: cycle))
        let inputWindow = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>.allocate(capacity: max(1, input.channelCount))
        let outputWindow = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>.allocate(capacity: output.channelCount)
        defer {
            inputWindow.deallocate()
            outputWindow.deallocate()
        }
        try RenderThread.flushingDenormals { () throws(AudioUnitError) in
            var done = 0
            while done < input.frameCount {
                let frames = min(cycle, input.frameCount - done)
                let cycleInput: AudioBuffers
                if let (source, block) = mapped {
                    try source.read(into: block.buffers(frameCount: frames))
                    cycleInput = block.buffers(frameCount: frames)
                } else {
                    cycleInput = input.window(from: done, count: frames, pointers: inputWindow)
                }
                chain.transport.state = TransportState.counted(sampleTime: Double(streamPosition), sampleRate: chain.sampleRate)
                let status = chain.graph.render(
                    frameCount: frames, timestamp: RenderTimestamp(sampleTime: Double(streamPosition)),
                    input: cycleInput, output: output.window(from: done, count: frames, pointers: outputWindow))
                guard status == 0 else { throw AudioUnitError(status: status, context: "audio: the chain failed to render at frame \(done)") }
                done += frames
                streamPosition += frames
            }
        }
        chain.graph.dispatchPendingNotifications()
    }

    /// Takes back an output this processor returned and the caller no longer needs: the
    /// next render writes into its memory.
    /// - Thread: [control]
    public func recycle(_ output: consuming [[Float]]) {
        spareOutput = output
    }

    private func takeSpareOutput() -> [[Float]] {
        defer { spareOutput = [] }
        return spareOutput
    }

    /// The rate the chain runs at for a call at `sampleRate`; a preset made for another rate
    /// takes audio at its own rate only.
    private func checkedRate(_ requested: Double, isSong: Bool) throws(AudioUnitError) -> Double {
        let sampleRate = given(requested)
        guard ChainPreset.sampleRates.contains(sampleRate) else {
            throw AudioUnitError(.formatNotSupported, "sample_rate \(RenderReport.rate(sampleRate)): expected a rate in \(ChainPreset.sampleRateRange) Hz")
        }
        let rate = chainRate(for: sampleRate)
        if !isSong, rate != sampleRate {
            throw AudioUnitError(
                .formatNotSupported,
                "the chain runs at \(RenderReport.rate(rate)) Hz (the preset's sampleRate); expected audio at \(RenderReport.rate(rate)) Hz, got \(RenderReport.rate(sampleRate)) Hz (convert it first, or render the file with auhost render)")
        }
        return rate
    }

    /// The chain at `rate`, started and primed. `clean`: starting over, so that a render's
    /// samples never depend on the renders before it, as `auhost render` builds a graph per
    /// file: the graph of the last call with its units reset when that is a clean start
    /// (``ChainGraph/restartsByReset``: a series of native effects), else built anew from fresh
    /// instances (a unit initialized again may keep state: a noise generator's seed).
    private func preparedChain(at rate: Double, clean: Bool, forSong: Bool = false) throws(AudioUnitError) -> ChainGraph {
        if let chain, chain.sampleRate == rate, !chainPlayedSong, !forSong {
            if !clean { return chain }
            if chain.restartsByReset {
                try chain.resetUnits()
                streamPosition = 0
                return chain
            }
        }
        let builder = BatchRenderer(loaded: loaded, registry: registry, settings: settings, jobs: [], latencies: latencies)
        // The new graph is built before the old one is disposed: the plugins' shared
        // libraries stay loaded (an LV2 instance freed last unmaps its library, and the
        // next build would map and relocate it again, most of a small chain's build).
        let built = try Self.controlLock.withLock { _ throws(AudioUnitError) -> ChainGraph in
            let built = try builder.startedChain(at: rate)
            chain?.dispose()
            return built
        }
        chain = built
        chainPlayedSong = forSong
        streamPosition = 0
        return built
    }
}
