import AUHost
import Foundation
import Synchronization

/// Runs a loaded chain inside the JACK process callback until told to stop: opens the
/// client, builds the graph at the server's rate, registers and connects ports, reports
/// latency, reads control commands on standard input and (optionally) a local TCP port,
/// shows a status line on a terminal, follows buffer-size and sample-rate changes, and
/// survives the server going away (exits, or waits for it with `reconnect`).
/// - Thread: control (the caller's thread runs the main loop).
final class LiveRunner: @unchecked Sendable {
    struct Options {
        var clientName = "auhost"
        var serverName: String?
        var connectToSystem = false
        /// Regular expressions naming the ports to capture from and play to.
        var captureFrom: String?
        var playbackTo: String?
        var midiConnect: [String] = []
        var reconnect = false
        var controlPort: UInt16?
    }

    enum Outcome: Equatable {
        case quit
        case serverGone(String)
        /// The server changed its sample rate: the graph is built again at the new rate.
        case reconfigure(String)
    }

    private let loaded: LoadedPreset
    private let registry: ComponentRegistry
    private let options: Options
    private let context: CommandContext
    private let quitRequested = Atomic<Bool>(false)
    /// Serialises commands from standard input and from control clients.
    private let commandLock = NSLock()
    private var session: ChainSession?
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
        defer { server?.stop() }
        while true {
            switch try runOnce() {
            case .quit:
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

    private var serverLabel: String { options.serverName.map { "'\($0)'" } ?? "(default)" }

    /// One life of the client: connect (waiting with `reconnect`), run, tear down.
    private func runOnce() throws(CLIError) -> Outcome {
        let io: JACKIOUnit
        do {
            io = try openIOUnit()
        } catch {
            if quitRequested.load(ordering: .relaxed) { return .quit }
            throw CLIError(error.message)
        }
        defer { io.dispose() }
        guard let client = io.client else { throw CLIError("the JACK I/O unit has no client") }
        let rate = client.sampleRate
        if let wanted = loaded.preset.sampleRate, wanted != rate {
            throw CLIError("\(loaded.file): the chain asks for \(formatValue(Float(wanted))) Hz but the JACK server runs at \(formatValue(Float(rate))) Hz")
        }
        let units: [AudioUnit]
        do {
            units = isFirstRun ? loaded.nodes.map(\.unit) : try loaded.makeUnits()
        } catch {
            throw CLIError(error.description)
        }
        isFirstRun = false
        let chain: ChainGraph
        do {
            chain = try ChainGraph(loaded, units: units, registry: registry, sampleRate: rate, maximumFrames: max(4096, client.bufferSize))
            try chain.graph.start()
        } catch {
            throw CLIError("\(loaded.file): \(error.message)")
        }
        defer { chain.dispose() }

        // The I/O unit pulls the graph through its input bus's render callback, as AUHAL does.
        let graph = chain.graph
        let driver: JACKDriver
        do throws(AudioUnitError) {
            try io.setValue(.canonical(sampleRate: rate, channels: chain.outputChannels), for: .streamFormat, scope: .input)
            try io.setValue(.canonical(sampleRate: rate, channels: chain.inputChannels), for: .streamFormat, scope: .output)
            io.takesMIDI = chain.takesMIDI
            io.hostTransport = chain.transport
            try io.setValue(RenderCallback { [unowned(unsafe) io] _, timestamp, _, playback in
                chain.sendMIDIFromRender(io.cycleMIDI)
                return graph.render(frameCount: playback.frameCount, timestamp: timestamp, input: io.captureBuffers, output: playback)
            }, for: .setRenderCallback, scope: .input)
            try io.initialize()
            guard let ioDriver = io.driver else { throw AudioUnitError(.failedInitialization, "the JACK I/O unit has no driver") }
            driver = ioDriver
            driver.latencyFrames = chain.latencyFrames
            try io.start()
        } catch {
            throw CLIError(error.message)
        }
        do {
            if options.connectToSystem { try driver.connectToSystem() }
            if options.captureFrom != nil || options.playbackTo != nil {
                try driver.connect(capturingFrom: options.captureFrom, playingTo: options.playbackTo)
            }
            for pattern in options.midiConnect { try driver.connectMIDI(from: pattern) }
        } catch {
            throw CLIError(error.message)
        }
        let session = ChainSession(chain: chain, registry: registry) { [client, driver] in
            String(format: "dsp=%.1f%% xruns=%d period=%d errors=%d", client.cpuLoad, client.xrunCount, client.bufferSize, driver.renderErrorCount)
        }
        withCommandLock { self.session = session }
        defer { withCommandLock { self.session = nil } }
        if !isReadingStandardInput {
            // Commands typed before the chain ran wait in the pipe until now.
            isReadingStandardInput = true
            startReadingStandardInput()
        }
        context.errors.line(
            "auhost: running '\(loaded.preset.name)' as JACK client '\(client.name)' at \(Int(rate)) Hz, \(client.bufferSize) frames, latency \(chain.latencyFrames) frames; type 'help' for commands")

        let outcome = mainLoop(client: client, driver: driver, chain: chain)
        io.stop()
        if context.errors.isTerminal { context.errors.write("\r\u{1B}[K") }
        return outcome
    }

    /// A JACK I/O unit connected to the server; with `reconnect`, waits for the server.
    private func openIOUnit() throws(JACKError) -> JACKIOUnit {
        var announced = false
        while true {
            let io = JACKIOUnit()
            io.clientName = options.clientName
            io.serverName = options.serverName
            do {
                try io.open()
                return io
            } catch {
                io.dispose()
                guard options.reconnect, !quitRequested.load(ordering: .relaxed) else { throw error }
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
    private func mainLoop(client: JACKClient, driver: JACKDriver, chain: ChainGraph) -> Outcome {
        var generation = driver.configurationGeneration
        var lastStatus = Date.distantPast
        while true {
            if quitRequested.load(ordering: .relaxed) { return .quit }
            if client.serverIsGone { return .serverGone(client.shutdownReason ?? "the server shut down") }
            if driver.configurationGeneration != generation {
                generation = driver.configurationGeneration
                if client.sampleRate != chain.sampleRate {
                    // A new rate needs a new graph: silence until it is built, from the top.
                    driver.isMuted = true
                    return .reconfigure("the JACK server's sample rate changed to \(Int(client.sampleRate)) Hz")
                }
            }
            withCommandLock { _ = chain.graph.dispatchPendingNotifications() }
            if context.errors.isTerminal, Date().timeIntervalSince(lastStatus) > 0.5 {
                lastStatus = Date()
                let latency = Double(chain.latencyFrames) / chain.sampleRate * 1000
                context.errors.write(String(
                    format: "\r\u{1B}[KDSP %5.1f%%  xruns %d  latency %d frames (%.1f ms)  period %d", client.cpuLoad, client.xrunCount,
                    chain.latencyFrames, latency, client.bufferSize))
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
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
        if quits { quitRequested.store(true, ordering: .relaxed) }
        return (reply, quits)
    }

    private func startReadingStandardInput() {
        let thread = Thread { [self] in
            while let line = readLine(strippingNewline: true) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty { continue }
                let (reply, _) = handle(trimmed)
                if context.errors.isTerminal { context.errors.write("\r\u{1B}[K") }
                context.output.line(reply)
            }
        }
        thread.name = "auhost stdin"
        thread.start()
    }

    private func startControlServer() throws(CLIError) -> ControlServer? {
        guard let port = options.controlPort else { return nil }
        do {
            let server = try ControlServer(port: port) { [self] line in handle(line) }
            context.errors.line("auhost: control port 127.0.0.1:\(server.port)")
            return server
        } catch {
            throw CLIError(error.message)
        }
    }

    private func installSignalHandlers() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in quitRequested.store(true, ordering: .relaxed) }
            source.resume()
            return source
        }
    }
}
