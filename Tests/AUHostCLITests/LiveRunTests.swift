import AUCore
import AUHost
import AUJACK
import AUTestSupport
import Foundation
import Synchronization
import Testing

/// `auhost run` under a real jackd: a test client feeds a signal through it and records
/// the result next to the signal itself.
final class LiveRig: @unchecked Sendable {
    let server: JACKTestServer
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    let through = Recording(capacity: 48_000 * 20)
    let direct = Recording(capacity: 48_000 * 20)
    private(set) var tester: JACKTestClient?
    let clientName = "under-test"
    private var replies: [String] = []
    private let replyLock = NSLock()
    private var errorText = ""
    /// The folder the preset was written into, removed by ``tearDown()``.
    private var presetFolder: URL?

    /// Starts a server, runs `prepare` with its name (clients that must exist before auhost
    /// starts), then launches `auhost run`, or `auhost play SONG --preset` when `song` is given.
    convenience init(
        preset: String, song: String? = nil, extraArguments: [String] = [], environment: [String: String] = [:], realTime: Bool = JACKTestServer.realTimeAllowed,
        periodFrames: Int = 64, executable: URL? = nil, prepare: (String) throws -> Void = { _ in }
    ) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("chain.json")
        try preset.write(to: file, atomically: true, encoding: .utf8)
        do {
            try self.init(
                chain: file.path, song: song, extraArguments: extraArguments, environment: environment, realTime: realTime,
                periodFrames: periodFrames, executable: executable, prepare: prepare)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        presetFolder = directory
    }

    /// As ``init(preset:song:extraArguments:environment:realTime:periodFrames:executable:prepare:)``
    /// with `chain` as the command line's PRESET.json or UNIT: a file, or a unit reference.
    init(
        chain: String, song: String? = nil, extraArguments: [String] = [], environment: [String: String] = [:], realTime: Bool = JACKTestServer.realTimeAllowed,
        periodFrames: Int = 64, executable: URL? = nil, prepare: (String) throws -> Void = { _ in }
    ) throws {
        server = try JACKTestServer(periodFrames: periodFrames, realTime: realTime)
        try prepare(server.name)
        process.executableURL = try executable ?? auhostExecutable()
        let command = song.map { ["play", $0, "--preset", chain] } ?? ["run", chain]
        process.arguments = command + ["--server", server.name, "--name", clientName] + extraArguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            guard let self else { return }
            self.replyLock.lock()
            self.replies += text.split(separator: "\n").map(String.init)
            self.replyLock.unlock()
        }
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            guard let self else { return }
            self.replyLock.lock()
            self.errorText += text
            self.replyLock.unlock()
        }
        try ChildProcess.launch(process)
    }

    var standardError: String {
        replyLock.lock()
        defer { replyLock.unlock() }
        return errorText
    }

    /// Waits (up to 20 s) until standard error holds `text` at least `count` times.
    @discardableResult
    func waitForStandardError(_ text: String, count: Int = 1) -> Bool {
        for _ in 0..<400 {
            if standardError.components(separatedBy: text).count - 1 >= count { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// A client for looking at the server, once auhost's output port `port` exists (up to 10 s).
    func probeOnceRegistered(_ port: String = "out_1", probeName: String = "probe-ports") throws -> JACKClient {
        let probe = try JACKClient(name: probeName, serverName: server.name)
        for _ in 0..<200 where probe.sources(matching: "\(clientName):\(port)", kind: .audio).isEmpty {
            Thread.sleep(forTimeInterval: 0.05)
        }
        return probe
    }

    /// Waits until the client's ports exist, then wires the tester: its playback out_1 →
    /// auhost's capture in_1…, auhost's playback out_1 → its capture in_1, and its out_1 →
    /// its in_2 (the reference).
    func connectTester() throws {
        let probe = try probeOnceRegistered()
        let auhostCapture = probe.destinations(matching: "\(clientName):in_", kind: .audio)
        let auhostPlayback = try #require(probe.sources(matching: "\(clientName):out_1", kind: .audio).first)
        let source = NoiseSource()
        let tester = try startLoopbackTester(serverName: server.name, through: through, direct: direct) { source.fill($0) }
        for port in auhostCapture { try tester.client.connect(tester.playbackPorts[0].fullName, to: port) }
        try tester.client.connect(auhostPlayback, to: tester.capturePorts[0].fullName)
        self.tester = tester
    }

    /// Sends a command on standard input and waits (up to 20 s: a sound bank loads on a
    /// loaded machine) for its reply line.
    func send(_ line: String) throws -> String {
        replyLock.lock()
        let before = replies.count
        replyLock.unlock()
        // The throwing write: a process that died closed the pipe, and that is a failed test,
        // not a trap in the test process.
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
        var pollsSinceExit = 0
        for _ in 0..<1_000 where pollsSinceExit < 25 {
            replyLock.lock()
            let reply = replies.count > before ? replies[before] : nil
            replyLock.unlock()
            if let reply { return reply }
            if !process.isRunning { pollsSinceExit += 1 }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw CLIErrorForTests("no reply to '\(line)'; \(process.isRunning ? "running" : "exit status \(process.terminationStatus)"); stderr: \(standardError)")
    }

    /// The gain and the lag of the path through auhost over the next `frames` frames: the
    /// lag of best correlation, and the median gain over ten blocks (so that a block hit by
    /// an xrun of the loaded test machine does not decide).
    func measure(frames: Int = 9_600) -> (gain: Float, lag: Int) {
        Thread.sleep(forTimeInterval: 0.1)  // let a change settle
        let start = direct.count
        guard direct.wait(forCount: start + frames + 512) else {
            Issue.record("the loopback stalled at \(direct.count) frames")
            return (0, -1)
        }
        let reference = Array(direct.samples[start..<(start + frames)])
        let delayed = Array(through.samples[start..<(start + frames + 512)])
        let lag = bestLag(delayed, reference, maxLag: 512)
        let block = frames / 10
        let gains = (0..<10).map { index in
            let range = (index * block)..<((index + 1) * block)
            return rms(delayed[(range.lowerBound + lag)..<(range.upperBound + lag)]) / rms(reference[range])
        }.sorted()
        return ((gains[4] + gains[5]) / 2, lag)
    }

    func waitForExit(timeout: Double = 10) -> Int32? {
        var waited = 0.0
        while process.isRunning && waited < timeout {
            Thread.sleep(forTimeInterval: 0.05)
            waited += 0.05
        }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// Ends auhost (SIGTERM, then SIGKILL after 10 s), the tester and the server; removes
    /// the preset's folder.
    func tearDown() {
        tester?.stop()
        tester = nil
        if process.isRunning { process.terminate() }
        if waitForExit() == nil {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        server.stop()
        if let presetFolder { try? FileManager.default.removeItem(at: presetFolder) }
    }
}

/// Sends one MIDI event once armed, and again every 100 ms (4,800 frames at 48 kHz) until
/// disarmed: a cycle the loaded machine's dummy server skips for one client can lose an
/// event, so a test sends until it hears the result, then disarms.
final class NoteSender: @unchecked Sendable {
    private let armed = Atomic<Bool>(false)
    /// How many times the event was sent.
    let sent = Atomic<Int>(0)
    private var framesToNext = 0
    private let event: UnsafeMutablePointer<MIDIEvent>
    init(_ event: MIDIEvent) {
        self.event = .allocate(capacity: 1)
        self.event.initialize(to: event)
    }
    deinit { event.deallocate() }
    func arm() { armed.store(true, ordering: .releasing) }
    func disarm() { armed.store(false, ordering: .releasing) }
    /// The event in the first cycle after arming and every 4,800 frames after, else nothing.
    /// Called from the sending client's process callback only.
    func eventsThisCycle(frames: Int) -> UnsafeBufferPointer<MIDIEvent> {
        guard armed.load(ordering: .acquiring) else {
            framesToNext = 0
            return UnsafeBufferPointer(start: event, count: 0)
        }
        let send = framesToNext <= 0
        if send {
            framesToNext = 4_800
            sent.add(1, ordering: .relaxed)
        }
        framesToNext -= frames
        return UnsafeBufferPointer(start: event, count: send ? 1 : 0)
    }
}

extension Recording {
    /// Waits until a sample from frame `start` on is louder than `threshold`, up to `timeout`
    /// seconds of wall time; the first such frame, or nil.
    /// - Thread: control (the test's).
    func firstSound(from start: Int, above threshold: Float, timeout: TimeInterval = 20) -> Int? {
        let deadline = Date().addingTimeInterval(timeout)
        var next = start
        while Date() < deadline {
            let end = count
            while next < end {
                if abs(samples[next]) > threshold { return next }
                next += 1
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return nil
    }

    /// Arms `sender`, waits (up to 20 s) for the recording to sound louder than 0.05 from
    /// now on, then disarms it; the first frame that sounded, or nil.
    /// - Thread: control (the test's).
    func firstSound(whileSending sender: NoteSender) -> Int? {
        let start = count
        sender.arm()
        defer { sender.disarm() }
        return firstSound(from: start, above: 0.05)
    }
}

/// A keyboard that plays A4 for 50 ms every 100 ms (at 48 kHz): a note-on or note-off every
/// 2,400 frames, at its exact offset inside the period (periods that do not divide 2,400
/// put them at varying offsets).
final class NotePulse: @unchecked Sendable {
    let sent = Atomic<Int>(0)
    private var frame = 0
    private var next = 2_400
    private var noteIsOn = false
    private let events = UnsafeMutablePointer<MIDIEvent>.allocate(capacity: 1)
    init() { events.initialize(to: MIDIEvent(offset: 0, status: 0x80, data1: 69)) }
    deinit { events.deallocate() }
    /// Called from the keyboard client's process callback only.
    func eventsThisCycle(frames: Int) -> UnsafeBufferPointer<MIDIEvent> {
        defer { frame += frames }
        guard next < frame + frames else { return UnsafeBufferPointer(start: events, count: 0) }
        noteIsOn.toggle()
        events.pointee = MIDIEvent(offset: Int32(next - frame), status: noteIsOn ? 0x90 : 0x80, data1: 69, data2: noteIsOn ? 100 : 0)
        next += 2_400
        sent.add(1, ordering: .relaxed)
        return UnsafeBufferPointer(start: events, count: 1)
    }
}

struct CLIErrorForTests: Error, CustomStringConvertible {
    let description: String
    init(_ text: String) { description = text }
}

/// A deterministic pseudo-random signal, so the correlation peak is unique.
final class NoiseSource: @unchecked Sendable {
    private var seed: UInt32 = 987_654
    func fill(_ output: UnsafeMutableBufferPointer<Float>) {
        for frame in 0..<output.count {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            output[frame] = (Float(seed >> 8) / Float(1 << 24) - 0.5) * 0.5
        }
    }
}

@Suite(.serialized) struct LiveRunTests {
    @Test("auhost run UNIT runs a chain of that one unit with --set applied; help lists the commands through the binary")
    func runTakesAUnitInsteadOfAPreset() throws {
        let rig = try LiveRig(chain: "aufx:gain:AUHs", extraArguments: ["--set", "gain=-6"])
        defer { rig.tearDown() }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        #expect(try rig.send("get gain gain") == "ok -6")
        #expect(try rig.send("help") == "ok \(ControlCommand.summary)")
    }

    @Test("a quit that hangs (the JACK server stopped answering) ends the process after AUHOST_STOP_DEADLINE seconds, with one line")
    func aHangingStopEndsAtTheDeadline() throws {
        let rig = try LiveRig(chain: "aufx:gain:AUHs", environment: ["AUHOST_STOP_DEADLINE": "1"])
        defer {
            kill(rig.server.pid, SIGCONT)
            rig.tearDown()
        }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        // A stopped server never answers the client's deactivate and close.
        kill(rig.server.pid, SIGSTOP)
        #expect(try rig.send("quit") == "ok bye")
        // Without the deadline the process waits for the server forever.
        #expect(rig.waitForExit(timeout: 30) == 1)
        #expect(rig.waitForStandardError("auhost: the stop did not finish within 1 s; ending the process"), "\(rig.standardError)")
    }

    @Test func aGainChainRunsAndIsControlledFromStdinAndThePort() throws {
        let rig = try LiveRig(preset: gainChain, extraArguments: ["--control", "0"])
        defer { rig.tearDown() }
        try rig.connectTester()

        let status = try rig.send("status")
        #expect(status.hasPrefix("ok rate=48000 latency=0 "), "\(status)")
        let first = rig.measure()
        #expect(abs(first.gain - 0.5) < 1e-3, "gain \(first.gain)")
        #expect(first.lag == 0, "measured latency \(first.lag) frames, reported 0")

        #expect(try rig.send("set gain gain 0") == "ok 0")
        #expect(abs(rig.measure().gain - 1) < 1e-3)
        #expect(try rig.send("get gain gain") == "ok 0")
        #expect(try rig.send("set gain gain 99").hasPrefix("error: "))
        #expect(try rig.send("set nowhere gain 1").hasPrefix("error: "))
        #expect(try rig.send("frobnicate").hasPrefix("error: unknown command"))
        #expect(abs(rig.measure().gain - 1) < 1e-3)  // bad commands changed nothing

        // The same protocol on the control port.
        let portLine = try #require(rig.standardError.split(separator: "\n").first { $0.contains("control port 127.0.0.1:") })
        let port = try #require(UInt16(portLine.split(separator: ":").last ?? ""))
        let tokenLine = try #require(rig.standardError.split(separator: "\n").first { $0.hasPrefix("auhost: control token ") })
        let reply = try controlRequest("set gain gain -12.0412", port: port, token: String(tokenLine.split(separator: " ")[3]))
        #expect(reply == "ok -12.0412")
        #expect(abs(rig.measure().gain - 0.25) < 1e-3)

        #expect(try rig.send("bypass gain on") == "ok on")
        #expect(abs(rig.measure().gain - 1) < 1e-3)
        #expect(try rig.send("bypass gain off") == "ok off")

        #expect(try rig.send("quit") == "ok bye")
        #expect(rig.waitForExit() == 0)
    }

    @Test func killingTheServerEndsTheRunWithAClearMessage() throws {
        let rig = try LiveRig(preset: gainChain)
        defer { rig.tearDown() }
        try rig.connectTester()
        _ = try rig.send("status")
        rig.tester?.stop()
        rig.server.stop()
        let status = rig.waitForExit()
        #expect(status == 1)
        #expect(rig.standardError.contains("auhost: the JACK server '\(rig.server.name)' went away"), "\(rig.standardError)")
        #expect(!rig.standardError.contains("Backtrace"))
        #expect(!rig.standardError.contains("Fatal error"))
    }

    /// The render paths live, under the counting shim and strict mode (a seccomp filter on
    /// JACK's process thread): MIDI between units (a JACK keyboard with notes inside the
    /// period -> the native Arpeggiator (ABI v2 MIDI output) -> x42 MIDI transpose (LV2 atom
    /// MIDI in and out) -> an LV2 instrument, mda JX10), x42 dpl (latency, output controls; the graph's
    /// delay lines), an x42 meter (JACK transport as time:Position), convoLV2 (the worker,
    /// threaded) and the native Gain, with parameter changes every 100 ms for 5 s (30 s with AUHOST_LONG_TESTS=1).
    @Test func theProcessCallbackNeitherAllocatesNorLocksNorCallsTheSystem() throws {
        try Self.checkLiveRenderPaths(executable: try auhostExecutable(), seconds: TestLength.choose(short: 5, long: 30), unchanged: ["render_allocations", "render_frees", "render_locks", "render_trapped"])
    }

    /// The release auhost (`make test` builds it first) on the same chain as long: no retain
    /// or release either in the process callback (a debug build retains thousands a second).
    @Test(.enabled(if: LiveRunTests.releaseAuhost != nil, "no up-to-date release auhost: make test builds it (swift build -c release --product auhost, AllocCounter, AUHostGain, AUHostArpeggiator)"))
    func theReleaseProcessCallbackRetainsNothing() throws {
        let executable = try #require(Self.releaseAuhost).appendingPathComponent("auhost")
        try Self.checkLiveRenderPaths(
            executable: executable, seconds: TestLength.choose(short: 5, long: 30),
            unchanged: ["render_allocations", "render_frees", "render_locks", "render_trapped", "render_retains", "render_releases"])
    }

    static let releaseAuhost = ReleaseBuild.upToDate(
        products: ["auhost", "libAllocCounter.so", "libAUHostGain.so", "libAUHostArpeggiator.so"], sources: ["Sources", "Plugins/Gain", "Plugins/Arpeggiator"])

    /// Runs `executable` live over the render paths above for `seconds`, with the shim and
    /// strict mode, and requires the `unchanged` counts of `status` to stay as they were.
    static func checkLiveRenderPaths(executable: URL, seconds: Double, unchanged: [String]) throws {
        let shim = executable.deletingLastPathComponent().appendingPathComponent("libAllocCounter.so")
        try #require(FileManager.default.fileExists(atPath: shim.path), "libAllocCounter.so is built by swift build")
        let renderPaths = """
            {"auhost": 1, "name": "Live render paths",
             "nodes": [{"id": "arp", "unit": "aumi:arpg:AUHs"},
                       {"id": "transpose", "unit": "lv2:http://gareus.org/oss/lv2/midifilter#miditranspose"},
                       {"id": "synth", "unit": "lv2:http://drobilla.net/plugins/mda/JX10"},
                       {"id": "limiter", "unit": "lv2:http://gareus.org/oss/lv2/dpl#stereo"},
                       {"id": "meter", "unit": "lv2:http://gareus.org/oss/lv2/meters#TPnRMSstereo"},
                       {"id": "convolver", "unit": "lv2:http://gareus.org/oss/lv2/convoLV2#Stereo"},
                       {"id": "gain", "unit": "aufx:gain:AUHs", "parameters": {"gain": -6.0206, "smoothing": 0}}],
             "chain": ["arp", "transpose", "synth", "limiter", "meter", "convolver", "gain"]}
            """
        let keyboard = NotePulse()
        var keyboardClient: JACKTestClient?
        let rig = try LiveRig(
            preset: renderPaths, extraArguments: ["--midi-connect", "keyboard:midi_out"],
            environment: ["LD_PRELOAD": shim.path, "AUHOST_STRICT_RENDER": "1"], executable: executable
        ) { server in
            let client = try JACKClient(name: "keyboard", serverName: server)
            let midiOut = try client.registerPort("midi_out", kind: .midi, direction: .playback)
            keyboardClient = try JACKTestClient(client: client, captureChannels: 0, playbackChannels: 0) { frames, _, _ in
                midiOut.writeMIDI(keyboard.eventsThisCycle(frames: frames), frames: frames)
            }
            try keyboardClient?.start()
        }
        defer {
            keyboardClient?.stop()
            keyboardClient = nil
            rig.tearDown()
        }
        try rig.connectTester()
        func counts() throws -> [String: Int] {
            let reply = try rig.send("status")
            var values: [String: Int] = [:]
            for word in reply.split(separator: " ") {
                let parts = word.split(separator: "=")
                if parts.count == 2, parts[0].hasPrefix("render_"), let value = Int(parts[1]) { values[String(parts[0])] = value }
            }
            return values
        }
        _ = rig.measure()  // warm up: the first cycles instantiate generic metadata (debug builds)
        let before = try counts()
        try #require(before["render_allocations"] != nil, "the shim is not loaded (no render_ counts in status)")
        try #require(before["render_trapped"] != nil, "strict mode is not watching the process thread; stderr: \(rig.standardError)")
        let start = Date()
        var step = 0
        while Date().timeIntervalSince(start) < seconds {
            step += 1
            #expect(try rig.send("set gain gain \(-(step % 24))").hasPrefix("ok"))
            Thread.sleep(forTimeInterval: 0.1)
        }
        let after = try counts()
        for key in unchanged {
            #expect(after[key] == before[key], "\(key): \(before[key] ?? -1) before, \(after[key] ?? -1) after \(seconds) s; stderr: \(rig.standardError.suffix(3000))")
        }
        // The callback really ran (how often depends on the machine's load: the dummy driver
        // sleeps), the keyboard's notes were sent, and the synth played them.
        // (At least 1,000 cycles and 100 notes in 30 s, in proportion for other lengths.)
        #expect(rig.tester?.cycleCount ?? 0 > Int(seconds * 1_000 / 30))
        #expect(keyboard.sent.load(ordering: .relaxed) > Int(seconds * 100 / 30))
        // The meter after the synth held its peak (convoLV2 without an impulse response
        // outputs silence, so the chain's output cannot tell).
        let meters = try rig.send("meters")
        let peak = meters.split(separator: " ").first { $0.hasPrefix("meter.dBTP_p1=") }
            .flatMap { Double($0.dropFirst("meter.dBTP_p1=".count).prefix { "-+.0123456789".contains($0) }) }
        #expect((peak ?? -100) > -40, "the synth stayed silent: \(meters)")
    }

    /// Strict mode can fail: a plugin that sleeps in run() (a nanosleep system call) is
    /// caught on the live process thread and named on exit.
    @Test func strictModeCatchesAPluginThatSleepsInRun() throws {
        let fixtures = try TemporaryFolder(prefix: "auhost-strict")
        defer { fixtures.remove() }
        try writeFixtureBundle("sleep-in-run", name: "Fixture Sleep In Run", into: fixtures.url)
        let rig = try LiveRig(
            preset: #"{"auhost": 1, "name": "Sleeper", "nodes": [{"id": "sleeper", "unit": "lv2:urn:auhost:fixture:sleep-in-run"}], "chain": ["sleeper"]}"#,
            environment: ["AUHOST_STRICT_RENDER": "1", "LV2_PATH": fixtures.path])
        defer { rig.tearDown() }
        try rig.connectTester()
        _ = rig.measure()
        let status = try rig.send("status")
        let trapped = status.split(separator: " ").first { $0.hasPrefix("render_trapped=") }.flatMap { Int($0.dropFirst("render_trapped=".count)) }
        #expect((trapped ?? 0) > 0, "\(status)")
        _ = try rig.send("quit")
        #expect(rig.waitForExit() == 0)
        #expect(rig.standardError.contains("system calls trapped on the render thread"), "\(rig.standardError)")
        #expect(rig.standardError.contains("nanosleep"), "\(rig.standardError)")
    }

    @Test func midiNoteOnsFromAJACKClientPlayTheInstrumentAtTheRightPitch() throws {
        let synthChain = """
            {"auhost": 1, "name": "Live synth",
             "nodes": [{"id": "synth", "unit": "aumu:synt:AUHs", "parameters": {"waveform": "Sine", "attack": 1, "sustain": 100}}],
             "chain": ["synth"]}
            """
        // The keyboard exists before auhost starts, so that --midi-connect finds it.
        let sent = NoteSender(.noteOn(69, velocity: 100, offset: 10))
        let recording = Recording(capacity: 48_000 * 60)
        var keyboard: JACKTestClient?
        let rig = try LiveRig(preset: synthChain, extraArguments: ["--midi-connect", "keyboard:midi_out"]) { server in
            let client = try JACKClient(name: "keyboard", serverName: server)
            let midiOut = try client.registerPort("midi_out", kind: .midi, direction: .playback)
            keyboard = try JACKTestClient(client: client, captureChannels: 1, playbackChannels: 0) { frames, capture, _ in
                midiOut.writeMIDI(sent.eventsThisCycle(frames: frames), frames: frames)
                recording.append(capture[0])
            }
            try keyboard?.start()
        }
        defer {
            keyboard?.stop()
            keyboard = nil
            rig.tearDown()
        }
        // auhost says it runs once its ports exist and are connected (midi_in to the keyboard
        // among them): only then is its out_1 there to connect.
        try #require(rig.waitForStandardError("auhost: running"), "auhost did not start: \(rig.standardError)")
        let probe = try rig.probeOnceRegistered(probeName: "probe-midi")
        let keyboardCapture = try #require(keyboard?.capturePorts.first?.fullName)
        try probe.connect("\(rig.clientName):out_1", to: keyboardCapture)
        let start = try #require(recording.firstSound(whileSending: sent), "the synth stayed silent after \(sent.sent.load(ordering: .relaxed)) note-ons")
        // The pitch from 100 ms after the note sounded, over 400 ms.
        try #require(recording.wait(forCount: start + 24_000), "recorded \(recording.count - start) of 24000 frames")
        let samples = Array(recording.samples[(start + 4_800)..<(start + 24_000)])
        // Per 50 ms block, the median period between rising zero crossings; then the median
        // over eight blocks. Under load the dummy server's xruns cut the recording: a cut
        // spoils one or two periods, never the median of twenty.
        let estimates: [Double] = (0..<8).compactMap { (block: Int) -> Double? in
            medianRisingPeriod(samples[(block * 2_400)..<((block + 1) * 2_400)]).map { 48_000 / $0 }
        }
        try #require(!estimates.isEmpty, "no block of the recording had a pitch")
        let frequency = estimates.sorted()[estimates.count / 2]
        #expect(abs(frequency - 440) < 1, "measured \(frequency) Hz for A4 (blocks: \(estimates))")
    }

    @Test func withReconnectTheRunWaitsForTheServerAndCarriesOn() throws {
        let rig = try LiveRig(preset: gainChain, extraArguments: ["--reconnect"])
        defer { rig.tearDown() }
        #expect(rig.waitForStandardError("auhost: running"))
        rig.server.stop()
        #expect(rig.waitForStandardError("went away"), "\(rig.standardError)")
        #expect(rig.process.isRunning)
        try rig.server.restart()
        #expect(rig.waitForStandardError("auhost: running", count: 2), "\(rig.standardError)")
        #expect(try rig.send("status").hasPrefix("ok rate=48000"))
        #expect(try rig.send("quit") == "ok bye")
        #expect(rig.waitForExit() == 0)
    }

    @Test func aNewPeriodSizeIsFollowed() throws {
        let rig = try LiveRig(preset: gainChain)
        defer { rig.tearDown() }
        try rig.connectTester()
        #expect(abs(rig.measure().gain - 0.5) < 1e-3)
        try rig.tester?.client.setBufferSize(256)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try rig.send("status").contains("period=256"))
        let after = rig.measure()
        #expect(abs(after.gain - 0.5) < 1e-3, "gain \(after.gain) after the period changed")
        #expect(after.lag == 0)
    }

    @Test func portsMatchingPatternsAreConnectedAtStart() throws {
        // A client whose ports exist before auhost starts; auhost connects to them itself.
        let heard = Recording(capacity: 48_000 * 4)
        let source = NoiseSource()
        var player: JACKTestClient?
        let rig = try LiveRig(preset: gainChain, extraArguments: ["--capture-from", "^player:out_", "--playback-to", "^player:in_1$"]) { server in
            player = try JACKTestClient(name: "player", serverName: server, captureChannels: 1, playbackChannels: 1) { _, capture, playback in
                source.fill(playback[0])
                heard.append(capture[0])
            }
            try player?.start()
        }
        defer {
            player?.stop()
            player = nil
            rig.tearDown()
        }
        rig.waitForStandardError("auhost: running")
        let start = heard.count
        try #require(heard.wait(forCount: start + 9_600), "heard \(heard.count - start) of 9600 frames")
        let level = heard.array[start...].map { $0 * $0 }.reduce(0, +) / Float(heard.count - start)
        #expect(level > 1e-4, "nothing came back through the connections auhost made")
    }

    @Test func aMissingServerIsOneClearError() throws {
        let result = try runExecutable(["run", "Presets/does-not-matter.json", "--server", "nothing-here"])
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("auhost: "))
    }

    /// A diamond with the x42 limiter (which reports its lookahead only once it runs) in one
    /// branch: live, the latency is known from the start, the other branch is delayed to
    /// match (the signal comes out once, at twice the level, not twice) and JACK is told it.
    @Test func anLV2PluginsLatencyIsCompensatedAndReportedLive() throws {
        let rig = try LiveRig(preset: latentDiamond)
        defer { rig.tearDown() }
        try rig.connectTester()
        let status = try rig.send("status")
        let reported = try #require(Int(status.split(separator: " ").first { $0.hasPrefix("latency=") }?.dropFirst(8) ?? ""), "\(status)")
        let unitLatency = try rig.send("get lim latency")
        #expect(reported > 0 && unitLatency == "ok \(reported)", "status: \(status); get lim latency: \(unitLatency)")
        let measured = rig.measure()
        #expect(measured.lag == reported, "measured latency \(measured.lag) frames, reported \(reported)")
        #expect(abs(measured.gain - 2) < 0.02, "gain \(measured.gain): the branches are not aligned")
        let probe = try rig.probeOnceRegistered(probeName: "probe-latency")
        // The tester closes a loop (its out_1 feeds auhost, auhost feeds its in_1), which
        // raises the range's maximum; the minimum is the path through auhost alone.
        let capture = portLatency("\(rig.clientName):out_1", on: probe, playback: false)
        #expect(capture?.min == reported, "JACK capture latency of out_1: \(String(describing: capture))")
        #expect(try rig.send("quit") == "ok bye")
        #expect(rig.waitForExit() == 0)
    }

    /// A chain whose LV2 plugin runs a worker thread (x42 convoLV2), played by `LiveChain`
    /// under jackd, started and torn down 20 times in one process (50 with AUHOST_LONG_TESTS=1): each teardown
    /// deactivates the client before the plugin's worker stops and the plugin is freed.
    @Test func aWorkerPluginChainStartsAndStopsRepeatedly() throws {
        let server = try JACKTestServer()
        defer { server.stop() }
        let registry = HostRegistry.make()
        let loaded = try PresetLoader(registry: registry).load(data: Data(workerChain.utf8), file: "worker.json")
        for round in 0..<TestLength.choose(short: 20, long: 50) {
            let io = try LiveChain.openIOUnit(clientName: "worker", serverName: server.name)
            let live = try LiveChain(loaded, units: try loaded.makeUnits(), io: io, registry: registry, connections: .init())
            let cycles = io.cycleCount
            for _ in 0..<500 where io.cycleCount < cycles + 4 { Thread.sleep(forTimeInterval: 0.002) }
            #expect(io.cycleCount >= cycles + 4, "round \(round): JACK ran no cycle")
            live.dispose()
            #expect(live.client.isActive == false)
            #expect(live.chain.graph.isDisposed)
        }
    }
}

/// The x42 convolver, which schedules work on the LV2 worker.
private let workerChain = """
    {"auhost": 1, "name": "Worker", "nodes": [{"id": "convolver", "unit": "lv2:http://gareus.org/oss/lv2/convoLV2#Mono"}], "chain": ["convolver"]}
    """

/// input → split → (x42 limiter | straight) → mixer → output, stereo.
private let latentDiamond = """
    {"auhost": 1, "name": "Latent diamond",
     "nodes": [{"id": "split", "unit": "aufx:splt:AUHs"},
               {"id": "lim", "unit": "lv2:http://gareus.org/oss/lv2/dpl#stereo"},
               {"id": "mix", "unit": "aumx:mcmx:AUHs"}],
     "connections": [["input:0", "split:0"], ["split:0", "lim:0"], ["split:1", "mix:1"],
                     ["lim:0", "mix:0"], ["mix:0", "output:0"]]}
    """

/// Authenticates with `token`, sends one line to the control port and returns its reply line.
func controlRequest(_ line: String, port: UInt16, token: String) throws -> String {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw CLIErrorForTests("cannot connect to 127.0.0.1:\(port)") }
    let bytes = Array(("auth \(token)\n" + line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
    var reply = [UInt8]()
    var byte: UInt8 = 0
    while read(socket, &byte, 1) == 1, byte != 0x0A { reply.append(byte) }
    guard String(decoding: reply, as: UTF8.self) == "ok authenticated" else { return String(decoding: reply, as: UTF8.self) }
    reply = []
    while read(socket, &byte, 1) == 1, byte != 0x0A { reply.append(byte) }
    return String(decoding: reply, as: UTF8.self)
}
