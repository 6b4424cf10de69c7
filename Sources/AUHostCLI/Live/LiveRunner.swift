import AUHost
import Foundation
import Synchronization

/// The `auhost run` tool around a ``LiveChain``: signals, commands on standard input and
/// (optionally) a local TCP port, the status line on a terminal, the messages, and the
/// loop that builds the chain again after a sample-rate change or, with `reconnect`, once
/// the server is back.
/// - Thread: [control] (the caller's thread runs the main loop).
final class LiveRunner: @unchecked Sendable {
    struct Options {
        var clientName = "auhost"
        var serverName: String?
        var connections = LiveChain.Connections()
        var reconnect = false
        var controlPort: UInt16?
        /// The UDP port OSC messages come in on (`--osc`).
        var oscPort: UInt16?
        /// Where the `save` command writes (the preset's folder unless `--save-dir`).
        var saveFolder = URL(fileURLWithPath: ".")
        /// The song `auhost play` plays, from where, and whether it loops.
        var song: SongOptions?
        /// The threads that may render the chain, JACK's included (`--threads`).
        var parallelism = RenderParallelism.machineDefault
        /// The share of the period in percent an isolated node may take before a warning (`--node-budget`).
        var nodeBudget: Double?
        /// The presets program change N opens (`--bank`: the folder's, sorted by file name).
        var bank: [String]?
        /// How long `open` crossfades, in seconds (`--crossfade`).
        var crossfade = LiveChain.defaultCrossfade
        /// Loads a preset `open` names (with the run's isolation).
        var load: ((String) throws(CLIError) -> LoadedPreset)?
    }

    /// What `auhost play` adds to a run.
    struct SongOptions {
        var request: LiveSong.Request
        /// Where it starts, in beats.
        var startBeat: Double = 0
        var loops = false
    }

    enum Outcome: Equatable {
        case quit
        case serverGone(String)
        /// The server changed its sample rate: the graph is built again at the new rate.
        case reconfigure(String)
    }

    /// The preset playing: the one given, then the last one `open` switched to.
    private var loaded: LoadedPreset
    private let registry: ComponentRegistry
    private let options: Options
    private let context: CommandContext
    /// Set by `quit`, SIGINT or SIGTERM; once set, the render watchdog gives a stuck unit
    /// its short timeout.
    private let quitRequested = RenderCancellation()
    /// Ends the process when a stop hangs.
    private let stopDeadline = StopDeadline()
    /// Why a reply could not be written to standard output (then the run stops).
    private let standardOutputFailure = Mutex<String?>(nil)
    /// Serialises commands from standard input and from control clients.
    private let commandLock = NSLock()
    private var session: ChainSession?
    /// The control port, whose subscribers the main loop pushes to.
    private var controlServer: ControlServer?
    /// When the run started, for the pushed lines' `t`.
    private let started = Date()
    private var isFirstRun = true
    private var isReadingStandardInput = false

    init(loaded: LoadedPreset, registry: ComponentRegistry, options: Options, context: CommandContext) {
        self.loaded = loaded
        self.registry = registry
        self.options = options
        self.context = context
    }

    /// Runs until SIGINT, SIGTERM or `quit`; returns the exit status.
    func run() throws(CLIError) -> Int32 {
        let signals = installSignalHandlers()
        defer { signals.forEach { $0.cancel() } }
        let server = try startControlServer()
        controlServer = server
        defer { server?.stop() }
        let osc = try startOSCServer()
        defer { osc?.stop() }
        while true {
            switch try runOnce() {
            case .quit:
                if let reason = standardOutputFailure.withLock({ $0 }) {
                    throw CLIError("standard output is closed (\(reason)); stopped")
                }
                return 0
            case .reconfigure(let reason):
                context.errors.line("auhost: \(reason); building the chain again")
            case .serverGone(let reason):
                guard options.reconnect else {
                    throw CLIError("the JACK server \(serverLabel) went away: \(reason)")
                }
                context.errors.line("auhost: the JACK server \(serverLabel) went away (\(reason)); waiting for it to come back")
            }
        }
    }

    private var serverLabel: String { JACKError.serverLabel(options.serverName) }

    /// One life of the client: connect (waiting with `reconnect`), run, tear down.
    private func runOnce() throws(CLIError) -> Outcome {
        let io: JACKIOUnit
        do {
            io = try openIOUnit()
        } catch {
            if quitRequested.isCancelled { return .quit }
            throw CLIError(error.message)
        }
        let units: [AudioUnit]
        do {
            units = isFirstRun ? loaded.nodes.map(\.unit) : try loaded.makeUnits()
        } catch {
            io.dispose()
            throw CLIError(error.description)
        }
        isFirstRun = false
        let live: LiveChain
        do {
            // A unit whose render call never returns would hold the stop forever (closing the
            // client waits for its process thread), deaf to quit and signals: the chain's
            // watchdog, stopped only after the client is closed, ends the process.
            live = try LiveChain(
                loaded, units: units, io: io, registry: registry, connections: options.connections, cancellation: quitRequested,
                song: options.song?.request, parallelism: options.parallelism, programChangesOpenPresets: options.bank != nil)
        } catch {
            throw CLIError(error.message)
        }
        live.crossfade = options.crossfade
        defer { live.dispose() }
        let session = ChainSession(chain: live.chain, registry: registry, saveFolder: options.saveFolder) { [live, self] in
            live.statusWords + (self.controlServer.map { " subscription_drops=\($0.subscriptions.droppedLines)" } ?? "")
        }
        session.song = live.song
        session.midiMap = live.midiMap
        session.levels = live.levels
        session.opener = { [live, session, self] file throws(ControlCommandError) in try open(file, live, session) }
        withCommandLock { self.session = session }
        defer { withCommandLock { self.session = nil } }
        if !isReadingStandardInput {
            // Commands typed before the chain ran wait in the pipe until now.
            isReadingStandardInput = true
            startReadingStandardInput()
        }
        let client = live.client
        if let designed = loaded.preset.sampleRate, designed != client.sampleRate {
            context.errors.line("auhost: '\(loaded.preset.name)' was designed at \(Int(designed)) Hz; it runs at the server's \(Int(client.sampleRate)) Hz")
        }
        context.errors.line(
            "auhost: running '\(loaded.preset.name)' as JACK client '\(client.name)' at \(Int(client.sampleRate)) Hz, \(client.bufferSize) frames, latency \(live.chain.latencyFrames) frames; type 'help' for commands")

        if let song = live.song, let songOptions = options.song {
            do {
                try start(song, songOptions)
            } catch {
                throw CLIError(error.message)
            }
        }
        let outcome = mainLoop(live)
        live.io.stop()
        reportStrictTraps()
        if context.errors.isTerminal { context.errors.write("\r\u{1B}[K") }
        return outcome
    }

    /// Under `AUHOST_STRICT_RENDER=1`, what the process thread's render calls trapped (the
    /// first eight, with backtraces), on standard error.
    private func reportStrictTraps() {
        let count = StrictRenderCheck.trappedCount
        if let refused = StrictRenderCheck.installError {
            context.errors.line("auhost: strict render check: the kernel refused the seccomp filter (errno \(refused))")
        }
        guard StrictRenderCheck.isWatching, count > 0 else { return }
        context.errors.line("auhost: strict render check: \(count) system call\(count == 1 ? "" : "s") trapped on the render thread")
        for text in StrictRenderCheck.trappedCalls(limit: 8) { context.errors.line("auhost: strict: \(text)") }
    }

    /// Starts the song from its start beat (over the whole song's bars when it loops); one
    /// that follows JACK transport waits for it, at that beat.
    private func start(_ song: LiveSong, _ options: SongOptions) throws(AudioUnitError) {
        if options.loops {
            let bars = song.sequence.barBeatTime(forBeats: max(0, song.sequence.length - 1e-9), subbeatDivisor: 480).bar
            try song.player.setLoopRange(0..<max(song.sequence.beats(for: CABarBeatTime(bar: bars + 1, beat: 1)), 1e-3))
        }
        if song.sync != .midiClock { try song.seek(toBeats: options.startBeat) }
        if song.sync == .internal || song.sync == .drive { try song.play() }
        let seconds = song.sequence.tempoMap.seconds(forBeats: song.sequence.length)
        context.errors.line(
            "auhost: \(song.sync == .follow ? "following JACK transport with" : song.sync == .midiClock ? "following MIDI clock at midi_in with" : "playing") \(song.file) (\(song.sequence.trackCount) track\(song.sequence.trackCount == 1 ? "" : "s"), \(String(format: "%.1f", seconds)) s\(options.loops ? ", looping" : ""))")
    }

    /// A JACK I/O unit connected to the server; with `reconnect`, waits for the server.
    private func openIOUnit() throws(JACKError) -> JACKIOUnit {
        var announced = false
        while true {
            do {
                return try LiveChain.openIOUnit(clientName: options.clientName, serverName: options.serverName)
            } catch {
                guard options.reconnect, !quitRequested.isCancelled else { throw error }
                if !announced {
                    context.errors.line("auhost: \(error.message); waiting for it (--reconnect)")
                    announced = true
                }
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
    }

    /// Watches for quit, the server going away and reconfiguration; delivers notifications
    /// and draws the status line.
    private func mainLoop(_ live: LiveChain) -> Outcome {
        let client = live.client
        var lastStatus = Date.distantPast
        var endedAt: Date?
        let budget = options.nodeBudget.map(NodeBudgetWatch.init)
        let parameters = ParameterWatch()
        var xruns = client.xrunCount
        while true {
            if quitRequested.isCancelled { return .quit }
            // A song that does not loop ends the run once its last notes had a second to ring out.
            if let song = live.song, withCommandLock({ song.hasEnded }) {
                if let endedAt, Date().timeIntervalSince(endedAt) > 1 {
                    requestStop()
                    return .quit
                }
                endedAt = endedAt ?? Date()
            } else {
                endedAt = nil
            }
            switch withCommandLock({ live.poll() }) {
            case .serverGone(let reason): return .serverGone(reason)
            case .sampleRateChanged(let rate): return .reconfigure("the JACK server's sample rate changed to \(Int(rate)) Hz")
            case nil: break
            }
            if let map = live.midiMap, let learned = withCommandLock({ map.takeLearned() }) {
                if context.errors.isTerminal { context.errors.write("\r\u{1B}[K") }
                context.errors.line("auhost: learned \(learned.mapping.source) on channel \(learned.mapping.channel ?? 0) for \(learned.mapping.parameter)")
                notify("learned \(learned.mapping.source) on channel \(learned.mapping.channel ?? 0) for \(learned.mapping.parameter)")
            }
            if let program = withCommandLock({ live.takeProgramChange() }) { openFromBank(program, live) }
            if client.xrunCount != xruns {
                xruns = client.xrunCount
                notify("xrun (\(xruns) so far)")
            }
            let notices = withCommandLock { live.dispatchPendingNotifications() }
            for fault in withCommandLock({ notices.compactMap(live.chain.faultDescription) }) {
                if context.errors.isTerminal { context.errors.write("\r\u{1B}[K") }
                context.errors.line("auhost: \(fault)")
                notify(fault)
            }
            publish(live, parameters)
            for warning in budget.map({ watch in withCommandLock { watch.check(live.chain, period: Double(client.bufferSize) / live.chain.sampleRate) } }) ?? [] {
                if context.errors.isTerminal { context.errors.write("\r\u{1B}[K") }
                context.errors.line("auhost: warning: \(warning)")
            }
            if context.errors.isTerminal, Date().timeIntervalSince(lastStatus) > 0.5 {
                lastStatus = Date()
                let chain = withCommandLock { live.chain }
                let latency = Double(chain.latencyFrames) / chain.sampleRate * 1000
                let levels = withCommandLock { live.levels.map { levels in (levels.loudest, levels.input.clips + levels.output.clips) } }
                let meters = levels.map { "  in \(LiveLevels.format($0.0.input)) dB  out \(LiveLevels.format($0.0.output)) dB  clips \($0.1)" } ?? ""
                context.errors.write(String(
                    format: "\r\u{1B}[KDSP %5.1f%%  xruns %d  latency %d frames (%.1f ms)  period %d", client.cpuLoad, client.xrunCount,
                    chain.latencyFrames, latency, client.bufferSize) + meters)
            }
            // Subscribers get up to 30 lines a second: the loop then turns faster.
            Thread.sleep(forTimeInterval: controlServer?.subscriptions.isEmpty == false ? 0.005 : 0.05)
        }
    }

    /// `open FILE`: loads the preset as the run loaded its first and switches the chain to it
    /// (``LiveChain/open(_:units:)``); a preset that cannot load is refused with its one line
    /// and the chain plays on.
    private func open(_ file: String, _ live: LiveChain, _ session: ChainSession) throws(ControlCommandError) -> [String] {
        guard let load = options.load else { throw ControlCommandError("open is not available here") }
        let preset: LoadedPreset
        do {
            preset = try load(file)
        } catch {
            throw ControlCommandError(error.description.replacingOccurrences(of: "\nauhost: ", with: "; "))
        }
        let notes: [String]
        do {
            notes = try live.open(preset, units: preset.nodes.map(\.unit))
        } catch {
            throw ControlCommandError(error.message)
        }
        loaded = preset
        session.adopt(live)
        context.errors.line("auhost: opened '\(preset.preset.name)' (\(file))")
        notify("opened \(file)")
        return ["opened", ControlWords.quoted(file), String(format: "crossfade_ms=%.0f", live.crossfade * 1000)] + notes
    }

    /// Program change `program` with `--bank`: opens the bank's preset of that number (from 0).
    private func openFromBank(_ program: Int, _ live: LiveChain) {
        guard let bank = options.bank else { return }
        let line: String
        if bank.indices.contains(program) {
            line = withCommandLock { () -> String in
                guard let session else { return "program change \(program): the chain is not running" }
                do {
                    _ = try open(bank[program], live, session)
                    return ""
                } catch {
                    return "program change \(program): \((error as? ControlCommandError)?.message ?? "\(error)")"
                }
            }
        } else {
            line = "program change \(program): the bank has \(bank.count) preset\(bank.count == 1 ? "" : "s") (0...\(bank.count - 1))"
        }
        guard !line.isEmpty else { return }
        if context.errors.isTerminal { context.errors.write("\r\u{1B}[K") }
        context.errors.line("auhost: \(line)")
        notify(line)
    }

    /// Pushes the meters, status and parameter changes to the subscribers due them.
    private func publish(_ live: LiveChain, _ parameters: ParameterWatch) {
        guard let server = controlServer, !server.subscriptions.isEmpty else { return }
        let now = Date().timeIntervalSince(started)
        withCommandLock {
            if let levels = live.levels { server.publish(.meters, at: now) { FeedbackLines.meters(levels, t: now) } }
            server.publish(.status, at: now) { FeedbackLines.status(session.map { String($0.reply(to: "status").reply.dropFirst(3)) } ?? "", t: now) }
            if server.subscriptions.isDue(.params, at: now) {
                let changes = parameters.changes(in: live.chain)
                if !changes.isEmpty { server.subscriptions.push(.params, FeedbackLines.params(changes, t: now), at: now) }
            }
        }
    }

    /// Pushes a notice to its subscribers.
    private func notify(_ text: String) {
        let now = Date().timeIntervalSince(started)
        controlServer?.publish(.notices, at: now) { FeedbackLines.notice(text, t: now) }
    }

    private func withCommandLock<T>(_ body: () -> T) -> T {
        commandLock.lock()
        defer { commandLock.unlock() }
        return body()
    }

    /// The reply to one control line; `quit` also stops the run.
    private func handle(_ line: String) -> (reply: String, closes: Bool) {
        let (reply, quits) = withCommandLock { () -> (String, Bool) in
            guard let session else { return ("error: the chain is not running (waiting for the JACK server)", false) }
            return session.reply(to: line)
        }
        if quits { requestStop() }
        return (reply, quits)
    }

    private func startReadingStandardInput() {
        let thread = Thread { [self] in
            while let line = readLine(strippingNewline: true) {
                let (reply, _) = handle(line.trimmingCharacters(in: .whitespaces))
                if context.errors.isTerminal { context.errors.write("\r\u{1B}[K") }
                context.output.line(reply)
                if let reason = context.output.failure {
                    standardOutputFailure.withLock { $0 = reason }
                    requestStop()
                    return
                }
            }
        }
        thread.name = "auhost stdin"
        thread.start()
    }

    private func startControlServer() throws(CLIError) -> ControlServer? {
        guard let port = options.controlPort else { return nil }
        do {
            let token = ControlToken()
            let server = try ControlServer(port: port, token: token) { [self] line in handle(line) }
            context.errors.line("auhost: control token \(token) (a control client's first line: auth TOKEN)")
            context.errors.line("auhost: control port 127.0.0.1:\(server.port)")
            return server
        } catch {
            throw CLIError(error.message)
        }
    }

    private func startOSCServer() throws(CLIError) -> OSCServer? {
        guard let port = options.oscPort else { return nil }
        do {
            let server = try OSCServer(port: port) { [self] line in handle(line).reply }
            context.errors.line("auhost: OSC port 127.0.0.1:\(server.port) (UDP; messages /VERB ARGS…, replies /reply)")
            return server
        } catch {
            throw CLIError(error.message)
        }
    }

    /// Stops the run: the watchdog gives a stuck render its short timeout, and the stop
    /// deadline starts.
    private func requestStop() {
        quitRequested.cancel()
        stopDeadline.arm()
    }

    private func installSignalHandlers() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in requestStop() }
            source.resume()
            return source
        }
    }
}
