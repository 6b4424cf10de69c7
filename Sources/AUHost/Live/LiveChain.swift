import AUCore
import AUEngine
import AUJACK
import AUPresets
import Foundation

/// A chain preset playing live on JACK: the chain built at the server's sample rate (a
/// preset's `sampleRate` is only the rate it was designed at), played
/// by a JACK I/O unit (`auou:jack:AUHs`) whose ports are registered, connected and report
/// the chain's latency. ``poll()`` tells when the server went away or changed its sample
/// rate (the chain must then be built again).
///
/// ```swift
/// let io = try LiveChain.openIOUnit(clientName: "my-host", serverName: nil)
/// let live = try LiveChain(loaded, io: io, registry: registry, connections: .init(toSystem: true))
/// while live.poll() == nil { live.dispatchPendingNotifications(); … }   // commands go to live.chain
/// live.dispose()
/// ```
/// - Thread: [control]
public final class LiveChain: @unchecked Sendable {
    /// Where the capture and playback ports are connected when the chain starts.
    /// - Thread: [control]
    public struct Connections: Sendable {
        /// To the system's physical capture and playback ports.
        public var toSystem: Bool
        /// A regular expression naming the audio ports to capture from.
        public var captureFrom: String?
        /// A regular expression naming the audio ports to play to.
        public var playbackTo: String?
        /// Regular expressions naming MIDI ports connected to `midi_in`.
        public var midiFrom: [String]

        /// Connections to make at start; none by default.
        /// - Thread: [control]
        public init(toSystem: Bool = false, captureFrom: String? = nil, playbackTo: String? = nil, midiFrom: [String] = []) {
            self.toSystem = toSystem
            self.captureFrom = captureFrom
            self.playbackTo = playbackTo
            self.midiFrom = midiFrom
        }
    }

    /// What ``poll()`` noticed.
    /// - Thread: [control]
    public enum Event: Equatable, Sendable {
        /// The server shut down or threw the client out; JACK's reason.
        case serverGone(String)
        /// The server runs at a new sample rate (Hz): playback is muted; build the chain again.
        case sampleRateChanged(Double)
    }

    /// The JACK I/O unit playing the chain.
    public let io: JACKIOUnit
    /// Its connection to the server.
    public let client: JACKClient
    /// The chain's graph, at the server's sample rate: the one playing (``open(_:units:)``
    /// replaces it).
    public private(set) var chain: ChainGraph
    /// The song playing into the chain (`auhost play`), stopped at its start; nil for `run`.
    public let song: LiveSong?
    /// MIDI control of the chain's parameters: attached when the preset has a `midiMap` or `snapshots`,
    /// MIDI ports are to be connected (`--midi-connect`), program changes open presets (a bank)
    /// or the chain takes MIDI anyway. Its scheduler reads the graph's MIDI input, so an
    /// effects-only chain gets `midi_in`.
    public private(set) var midiMap: MIDIMap?
    /// Periods the client runs, its ports not yet connected, before ``init`` connects them:
    /// the units' first periods (first-touch memory, lazy set-up) pass unheard. Before that,
    /// every chain (the first and each one ``open(_:units:)`` builds) renders as many periods
    /// of silence on the control thread (``warmUp(_:periods:frames:)``), off JACK's thread.
    public static let preRollPeriods = 8
    /// The periods that ran before the ports were connected.
    public private(set) var periodsBeforeConnecting = 0
    /// The periods of silence the playing chain rendered on the control thread before JACK's
    /// thread rendered it (``preRollPeriods``).
    public private(set) var periodsWarmedUp = 0
    /// Input, output and node levels (`meters`, `status`, the status line).
    public private(set) var levels: LiveLevels?
    /// How long ``open(_:units:)`` crossfades from the playing chain to the new one, in seconds.
    public static let defaultCrossfade = 0.05
    /// The crossfade of the next ``open(_:units:)``, in seconds (`--crossfade`).
    public var crossfade = LiveChain.defaultCrossfade
    /// Whether a program change on `midi_in` asks for a preset of a bank
    /// (``takeProgramChange()``) instead of recalling a snapshot.
    public let programChangesOpenPresets: Bool
    /// Presets opened since the start.
    public private(set) var opened = 0
    private var generation: Int
    /// The `--midi-connect` patterns, followed as ports appear, and the server's port
    /// registrations seen so far.
    private let midiFrom: [String]
    private var portGeneration = 0
    private let watchdog: RenderWatchdog?
    private let cancellation: RenderCancellation?
    private let registry: ComponentRegistry
    private let parallelism: RenderParallelism
    /// The graph JACK plays: capture → the chain switch → playback.
    private let rig: RigGraph
    /// Ends the process when a unit's render call never returns (priming included), until
    /// ``dispose()`` has closed the client.
    private var watch: RenderWatchdog.Watch?

    /// Opens a JACK I/O unit connected to the server (never starts one): its sample rate
    /// decides the chain's.
    /// - Thread: [control]
    public static func openIOUnit(clientName: String, serverName: String?) throws(JACKError) -> JACKIOUnit {
        let io = JACKIOUnit()
        io.clientName = clientName
        io.serverName = serverName
        do {
            try io.open()
        } catch {
            io.dispose()
            throw error
        }
        return io
    }

    /// Builds the chain with `units` at the server's rate on an open `io` (which it owns
    /// from now on), starts it and makes `connections`. A preset's `sampleRate` is the rate it
    /// was designed at: the chain runs at the server's whatever it says. Failures name the preset file. `watchdog` watches the chain from its first
    /// render on (the latency-priming cycle); `cancellation` (a quit request) shortens its wait.
    /// `programChangesOpenPresets`: a program change asks for a bank's preset instead of a snapshot.
    ///
    /// The client's ports are the first chain's: as many `in_N` as it takes, `out_N` as it
    /// gives, `midi_in` and `midi_out` when it has them; they stay for the whole run.
    /// - Thread: [control]
    public init(
        _ loaded: LoadedPreset, units: [AudioUnit], io: JACKIOUnit, registry: ComponentRegistry, connections: Connections,
        watchdog: RenderWatchdog? = RenderWatchdog.standard(), cancellation: RenderCancellation? = nil, song: LiveSong.Request? = nil,
        parallelism: RenderParallelism = .machineDefault, programChangesOpenPresets: Bool = false
    ) throws(JACKError) {
        guard let client = io.client else { throw JACKError("the JACK I/O unit is not open") }
        self.registry = registry
        self.parallelism = parallelism
        self.watchdog = watchdog
        self.cancellation = cancellation
        self.programChangesOpenPresets = programChangesOpenPresets
        let prepared: (chain: ChainGraph, watch: RenderWatchdog.Watch?, warmedUp: Int)
        do {
            prepared = try Self.prepare(loaded, units: units, client: client, registry: registry, watchdog: watchdog, cancellation: cancellation, parallelism: parallelism)
        } catch {
            io.dispose()
            throw error
        }
        let chain = prepared.chain, watch = prepared.watch
        do throws(AudioUnitError) {
            self.song = try song.map { request throws(AudioUnitError) in try LiveSong(request, chain: chain, client: client) }
        } catch {
            watch?.stop()
            io.dispose()
            chain.dispose()
            throw JACKError(error.message)
        }
        do throws(AudioUnitError) {
            let wantsControl = !loaded.midiMap.isEmpty || !loaded.snapshots.isEmpty || !connections.midiFrom.isEmpty || chain.graph.takesMIDIInput
                || programChangesOpenPresets
            midiMap = wantsControl ? try Self.attachMap(loaded, chain: chain, programChangesOpenPresets: programChangesOpenPresets) : nil
            rig = try RigGraph(
                first: chain, captureChannels: chain.inputChannels, playbackChannels: chain.outputChannels, takesMIDI: chain.graph.takesMIDIInput,
                sendsMIDI: chain.graph.sendsMIDIOutput, registry: registry, sampleRate: client.sampleRate, maximumFrames: Self.maximumFrames(client))
        } catch {
            watch?.stop()
            self.song?.dispose()
            io.dispose()
            chain.dispose()
            throw JACKError("\(loaded.file): \(error.message)")
        }
        self.watch = watch
        periodsWarmedUp = prepared.warmedUp
        self.io = io
        self.client = client
        self.chain = chain
        generation = io.configurationGeneration
        midiFrom = connections.midiFrom
        do throws(AudioUnitError) {
            try io.setValue(.canonical(sampleRate: client.sampleRate, channels: chain.outputChannels), for: .streamFormat, scope: .input, element: JACKIOUnit.playbackBus)
            try io.setValue(.canonical(sampleRate: client.sampleRate, channels: chain.inputChannels), for: .streamFormat, scope: .output, element: JACKIOUnit.captureBus)
            io.hostTransport = rig.transport
            io.graph = rig.graph
            try io.initialize()
            levels = LiveLevels(chain: chain, io: io)
            io.latencyFrames = chain.latencyFrames
            try io.start()
        } catch {
            dispose()
            throw JACKError(error.message)
        }
        do {
            try self.song?.takeTimebase()
        } catch {
            dispose()
            throw error
        }
        // A clean start: the chain runs silent (nothing connected to its ports) for a few
        // periods before anything is connected, at most 2 s.
        let firstCycle = io.cycleCount
        for _ in 0..<400 where io.cycleCount - firstCycle < Self.preRollPeriods && !client.serverIsGone { usleep(5_000) }
        periodsBeforeConnecting = io.cycleCount - firstCycle
        do {
            if connections.toSystem { try io.connectToSystem() }
            if connections.captureFrom != nil || connections.playbackTo != nil {
                try io.connect(captureMatching: connections.captureFrom, playbackMatching: connections.playbackTo)
            }
            for pattern in connections.midiFrom { try io.connectMIDI(from: pattern) }
            portGeneration = client.portRegistrationGeneration
        } catch {
            dispose()
            throw error
        }
    }

    /// The most frames one cycle renders.
    private static func maximumFrames(_ client: JACKClient) -> Int { max(4096, client.bufferSize) }

    /// Builds `loaded`'s chain with `units` at the server's rate and period, watched from its
    /// first render on, primed (``LatencyPriming``) and started; failures name the file.
    private static func prepare(
        _ loaded: LoadedPreset, units: [AudioUnit], client: JACKClient, registry: ComponentRegistry, watchdog: RenderWatchdog?,
        cancellation: RenderCancellation?, parallelism: RenderParallelism
    ) throws(JACKError) -> (chain: ChainGraph, watch: RenderWatchdog.Watch?, warmedUp: Int) {
        // A preset's sampleRate is the rate it was designed at: live, the chain runs at the server's.
        let rate = client.sampleRate
        let chain: ChainGraph
        do {
            chain = try ChainGraph(
                loaded, units: units, registry: registry, sampleRate: rate, maximumFrames: maximumFrames(client), nominalFrames: client.bufferSize,
                parallelism: parallelism)
            // Render workers run as JACK's process thread does, and a cycle they have not
            // finished within the period is given up (silent) rather than late.
            chain.graph.parallelCycleDeadline = Double(client.bufferSize) / rate
            if let priority = client.realTimePriority { chain.graph.setRenderWorkerScheduling(policy: SCHED_FIFO, priority: priority) }
            chain.followPeriod(Double(client.bufferSize) / rate, realtimePriority: client.realTimePriority)
        } catch {
            throw JACKError("\(loaded.file): \(error.message)")
        }
        let watch = watchdog?.watch(chain, job: loaded.file, cancellation: cancellation)
        do {
            // As offline: one silent cycle, so that LV2 plugins report their latency before
            // the ports report the chain's.
            try LatencyPriming.prime(chain, blockSize: client.bufferSize)
            return (chain, watch, try warmUp(chain, periods: preRollPeriods, frames: client.bufferSize))
        } catch {
            watch?.stop()
            chain.dispose()
            throw JACKError("\(loaded.file): \(error.message)")
        }
    }

    /// Renders `periods` periods of silence through the started `chain` on this thread, before
    /// JACK's thread renders it: a plugin's first runs (first-touch memory, set-up done in its
    /// first `run`: Dragonfly Room's first takes 5 times its steady 67 us) cost their time
    /// here rather than in a period. Silence in leaves silence in every delay line and tail.
    /// Returns the periods rendered.
    static func warmUp(_ chain: ChainGraph, periods: Int, frames: Int) throws(AudioUnitError) -> Int {
        let input = OwnedAudioBuffers(channels: chain.inputChannels, capacity: frames)
        let output = OwnedAudioBuffers(channels: chain.outputChannels, capacity: frames)
        for period in 0..<periods {
            let sampleTime = Double(period * frames)
            chain.transport.state = TransportState.counted(sampleTime: sampleTime, sampleRate: chain.sampleRate)
            let status = chain.graph.render(frameCount: frames, timestamp: RenderTimestamp(sampleTime: sampleTime), input: input.buffers(), output: output.buffers())
            guard status == 0 else { throw AudioUnitError(status: status, context: "the chain failed to render a silent warm-up period") }
        }
        // As after priming: a fault of a silent period belongs to no output.
        for node in chain.nodes where chain.graph.isFaulted(node.node) { try chain.graph.clearFault(node.node) }
        return periods
    }

    /// A MIDI map of `loaded`'s `midiMap` and `snapshots` attached to `chain`.
    private static func attachMap(_ loaded: LoadedPreset, chain: ChainGraph, programChangesOpenPresets: Bool) throws(AudioUnitError) -> MIDIMap {
        let map = try MIDIMap(chain: chain, mappings: loaded.midiMap, snapshots: loaded.snapshots)
        map.programChangesOpenPresets = programChangesOpenPresets
        return map
    }

    /// Switches the rig to `loaded`'s chain (`open PRESET.json`), built with `units`: the
    /// new chain is built, primed and started here, off the render thread; the render thread
    /// then plays both through a crossfade of ``crossfade`` seconds (equal power, no
    /// silence) and hands the old one back, which is disposed here. The client, its ports and
    /// their connections stay: the new chain's input N reads port `in_N` (the last port serving
    /// any extra input) and its output N plays on `out_N` (its last output serving any extra
    /// port; outputs beyond the ports are not heard). A preset that cannot be built throws
    /// one line naming its file, and the old chain plays on. Returns notes for the reply
    /// (ports that differ, MIDI the rig has no port for).
    /// - Thread: [control]
    public func open(_ loaded: LoadedPreset, units: [AudioUnit]) throws(JACKError) -> [String] {
        guard song == nil else { throw JACKError("open switches the chain of auhost run; auhost play plays one song's chain") }
        if let retired = rig.takeRetired() { retired.dispose() }
        guard !rig.isSwitching else { throw JACKError("the last switch has not finished (is the JACK server running?)") }
        let prepared = try Self.prepare(
            loaded, units: units, client: client, registry: registry, watchdog: watchdog, cancellation: cancellation, parallelism: parallelism)
        let chain = prepared.chain
        let map: MIDIMap?
        do throws(AudioUnitError) {
            let wantsControl = !loaded.midiMap.isEmpty || !loaded.snapshots.isEmpty || rig.switchUnit.acceptsMIDIInput
            map = wantsControl ? try Self.attachMap(loaded, chain: chain, programChangesOpenPresets: programChangesOpenPresets) : nil
        } catch {
            prepared.watch?.stop()
            chain.dispose()
            throw JACKError("\(loaded.file): \(error.message)")
        }
        let newLevels = LiveLevels(chain: chain, io: io)
        let frames = max(1, Int((crossfade * client.sampleRate).rounded()))
        guard rig.switchTo(chain, crossfadeFrames: frames) else {
            newLevels.detach()
            prepared.watch?.stop()
            chain.dispose()
            throw JACKError("the last switch has not finished")
        }
        let oldLevels = levels, oldWatch = watch
        self.chain = chain
        midiMap = map
        levels = newLevels
        watch = prepared.watch
        periodsWarmedUp = prepared.warmedUp
        opened += 1
        if io.latencyFrames != chain.latencyFrames { io.latencyFrames = chain.latencyFrames }
        // The render thread hands the old chain back after the crossfade's last frame: a few
        // periods; a server that stopped running cycles leaves it to dispose().
        let deadline = crossfade + 2 + 4 * Double(client.bufferSize) / client.sampleRate
        var waited = 0.0
        var retired = rig.takeRetired()
        while retired == nil, waited < deadline, !client.serverIsGone {
            usleep(2_000)
            waited += 0.002
            retired = rig.takeRetired()
        }
        oldLevels?.detach()
        oldWatch?.stop()
        retired?.dispose()
        return notes(for: chain, loaded: loaded)
    }

    /// What the reply to `open` says about ports and MIDI the new chain does not match.
    private func notes(for chain: ChainGraph, loaded: LoadedPreset) -> [String] {
        var notes: [String] = []
        let inputs = io.capturePorts.count, outputs = io.playbackPorts.count
        if chain.inputChannels != inputs || chain.outputChannels != outputs {
            notes.append("ports_kept=in:\(inputs),out:\(outputs) chain=in:\(chain.inputChannels),out:\(chain.outputChannels)")
        }
        if !rig.switchUnit.acceptsMIDIInput, chain.graph.takesMIDIInput || !loaded.midiMap.isEmpty {
            notes.append("no_midi_in (the run started without MIDI input)")
        }
        if !rig.switchUnit.producesMIDIOutput, chain.graph.sendsMIDIOutput { notes.append("no_midi_out") }
        return notes
    }

    /// The program a program change on `midi_in` asked for when they open presets
    /// (``programChangesOpenPresets``), once; nil when none came.
    /// - Thread: [control]
    public func takeProgramChange() -> Int? { midiMap?.takeProgramChange() }

    /// The server going away or changing its sample rate since the last call, if it did;
    /// a new rate mutes the playback at once. Buffer-size changes need little: the graph
    /// renders any period; a chain pipelined by periods takes the new period as its slice
    /// (its latency follows, on the ports too).
    /// - Thread: [control]
    public func poll() -> Event? {
        if client.serverIsGone { return .serverGone(client.shutdownReason ?? "the server shut down") }
        followNewMIDIPorts()
        let current = io.configurationGeneration
        guard current != generation else { return nil }
        generation = current
        if chain.graph.pipelineSliceFrames != client.bufferSize {
            chain.graph.pipelineSliceFrames = client.bufferSize
            try? chain.graph.update()
            chain.graph.parallelCycleDeadline = Double(client.bufferSize) / chain.sampleRate
            chain.followPeriod(Double(client.bufferSize) / chain.sampleRate, realtimePriority: client.realTimePriority)
            if io.latencyFrames != chain.latencyFrames { io.latencyFrames = chain.latencyFrames }
        }
        guard client.sampleRate != chain.sampleRate else { return nil }
        io.isMuted = true
        return .sampleRateChanged(client.sampleRate)
    }

    /// `--midi-connect` follows ports: when ports appeared since the last look, connects
    /// the MIDI outputs that match to `midi_in`.
    private func followNewMIDIPorts() {
        let ports = client.portRegistrationGeneration
        guard !midiFrom.isEmpty, ports != portGeneration else { return }
        portGeneration = ports
        for pattern in midiFrom { _ = try? io.connectMIDI(from: pattern) }
    }

    /// Delivers the graph's pending notifications (``AudioGraph/dispatchPendingNotifications()``,
    /// which also recompiles the plan when a unit's latency changed) and reports the chain's
    /// latency on the ports again when it changed. Call it from the control loop, as ``poll()``.
    /// - Thread: [control]
    @discardableResult
    public func dispatchPendingNotifications() -> [GraphNotice] {
        let notices = chain.graph.dispatchPendingNotifications()
        if io.latencyFrames != chain.latencyFrames { io.latencyFrames = chain.latencyFrames }
        return notices
    }

    /// The live facts for a `status` reply, as `key=value` words: JACK's DSP load, the
    /// graph's own (its render time over the audio's, since the last `status`), xruns,
    /// period and render errors.
    /// - Thread: [control]
    public var statusWords: String {
        let dropped = io.droppedMIDIOutputCount
        return String(
            format: "dsp=%.1f%% graph_load=%.2f%% xruns=%d period=%d errors=%d preroll=%d warmup=%d", client.cpuLoad, 100 * chain.graph.cpuLoad,
            client.xrunCount, client.bufferSize, io.renderErrorCount, periodsBeforeConnecting, periodsWarmedUp)
            + (dropped > 0 ? " midi_out_dropped=\(dropped)" : "") + (opened > 0 ? " opened=\(opened)" : "")
    }

    /// Tears the chain down in the one safe order, however the run ended (quit, a signal,
    /// the server gone): fades out and deactivates the client (JACK runs the cycle no
    /// more), disposes the I/O unit (unregistering its ports, closing the client), then
    /// disposes the chain, whose units stop their workers before freeing their plugins.
    /// - Thread: [control]
    public func dispose() {
        song?.dispose()
        io.stop()
        io.dispose()
        levels?.detach()
        rig.dispose()
        for chain in rig.chains { chain.dispose() }
        // Closing the client waited for its process thread: only now is nothing stuck.
        watch?.stop()
    }
}
