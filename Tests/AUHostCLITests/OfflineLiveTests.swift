import AUCore
import AUFiles
import AUJACK
import AUTestSupport
import Foundation
import Synchronization
import Testing

/// The same chain, input and block size give the same samples offline (`auhost render`)
/// and live (`auhost run` under jackd), on one thread (64-frame periods) and on several
/// threads (1024-frame periods).
@Suite(.serialized) struct OfflineLiveTests {
    static let chain = """
        {"auhost": 1, "name": "Offline and live", "sampleRate": 48000,
         "nodes": [{"id": "gain", "unit": "aufx:gain:AUHs", "parameters": {"gain": -3, "smoothing": 0}},
                   {"id": "echo", "unit": "aufx:dely:AUHs", "parameters": {"time": 7, "feedback": 40, "mix": 35}},
                   {"id": "eq", "unit": "aufx:peq :AUHs"}],
         "chain": ["gain", "echo", "eq"]}
        """

    /// Two branches of native units from the graph's input into the mixer, then an EQ: a
    /// graph the plan compiler renders on several threads (`auhost graph` says so: the
    /// decision is the same for any thread count but 1).
    static let branches = """
        {"auhost": 1, "name": "Two branches live", "sampleRate": 48000,
         "nodes": [{"id": "gainA", "unit": "aufx:gain:AUHs", "parameters": {"gain": -3, "smoothing": 0}},
                   {"id": "echoA", "unit": "aufx:dely:AUHs", "parameters": {"time": 7, "feedback": 40, "mix": 35}},
                   {"id": "eqB", "unit": "aufx:peq :AUHs"},
                   {"id": "gainB", "unit": "aufx:gain:AUHs", "parameters": {"gain": -9, "smoothing": 0}},
                   {"id": "mix", "unit": "aumx:mcmx:AUHs"},
                   {"id": "eq", "unit": "aufx:peq :AUHs"}],
         "connections": [["input:0", "gainA:0"], ["gainA:0", "echoA:0"], ["echoA:0", "mix:0"],
                         ["input:0", "eqB:0"], ["eqB:0", "gainB:0"], ["gainB:0", "mix:1"],
                         ["mix:0", "eq:0"], ["eq:0", "output:0"]]}
        """

    @Test func offlineRenderingGivesTheSamplesOfTheLiveRun() throws {
        try Self.compareOfflineAndLive(chain: Self.chain, arguments: [])
    }

    /// The live run renders the branches on 2, 3 and 5 threads, JACK's and render workers
    /// with its real-time priority (the period as the deadline); the offline render on one
    /// thread (`--threads 1`): the samples are the same. At 1024-frame periods: at 64, inside the
    /// whole suite on 2 cores, every run had an xrun within its first 4096 frames, and the
    /// branches' measured work stays worth a worker when the graph decides again on it.
    @Test(arguments: [2, 3, 5])
    func liveRenderWorkersGiveTheSamplesOfOneThread(threads: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let decision = try runExecutable(["graph", try Self.write(Self.branches, into: folder), "--threads", "\(threads)"])
        try #require(decision.status == 0, "\(decision.errors)")
        #expect(decision.output.contains("Threads: \(threads) (parallel: "), "\(decision.output)")
        try Self.compareOfflineAndLive(chain: Self.branches, arguments: ["--threads", "\(threads)"], period: 1024)
    }

    /// Built-in equalizers in series: a serial chain that may be pipelined (a native unit may
    /// read the transport, which a pipeline would show it a slice late, so it may not).
    static let equalizers = """
        {"auhost": 1, "name": "Equalizers in series", "sampleRate": 48000,
         "nodes": [{"id": "eq1", "unit": "aufx:ipeq:AUHs", "parameters": {"band0": 6, "band3": -4}},
                   {"id": "eq2", "unit": "aufx:ipeq:AUHs", "parameters": {"band5": 5, "band9": -8}},
                   {"id": "eq3", "unit": "aufx:ipeq:AUHs", "parameters": {"band1": -3, "band7": 4}},
                   {"id": "eq4", "unit": "aufx:ipeq:AUHs", "parameters": {"band2": 2, "band8": -6}}],
         "chain": ["eq1", "eq2", "eq3", "eq4"]}
        """

    /// `auhost run --pipeline` at 1024-frame periods: the serial chain renders in two stages
    /// one period apart (`status` says `threads=2 plan=pipelined stages=2` — its units are
    /// estimated worth a worker until the graph has timed 256 cycles — and the worker takes stages),
    /// the latency is one period more, and the output is the offline render's on one thread,
    /// sample for sample, one period later. (Built-in units: an LV2 plugin's output depends on
    /// how many silent cycles it ran before the input came, which live is never the same.)
    @Test func pipelinedLiveRunGivesTheSamplesOfOneThreadOnePeriodLater() throws {
        let period = 1024
        let plain = try Self.compareOfflineAndLive(chain: Self.equalizers, arguments: ["--threads", "1"], period: period)
        let pipelined = try Self.compareOfflineAndLive(chain: Self.equalizers, arguments: ["--threads", "2", "--pipeline"], period: period)
        #expect(pipelined.latency == plain.latency + period, "latency \(pipelined.latency) against \(plain.latency) without --pipeline")
        // -1 when every run was disturbed (then the samples were compared as far as they went).
        if pipelined.lag >= 0 && plain.lag >= 0 {
            #expect(pipelined.lag == plain.lag + period, "the output lines up at \(pipelined.lag), without --pipeline at \(plain.lag)")
        }
        #expect(pipelined.statuses.first?.contains("threads=2 plan=pipelined stages=2") == true, "\(pipelined.statuses)")
        #expect(plain.statuses.last?.contains("threads=1 plan=single worker_steps=0") == true, "\(plain.statuses)")
        let steps = Int(pipelined.statuses.last?.split(separator: " ").first { $0.hasPrefix("worker_steps=") }?.dropFirst(13) ?? "") ?? 0
        #expect(steps > 0, "\(pipelined.statuses)")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let refused = try runExecutable(["run", try Self.write(Self.equalizers, into: folder), "--threads", "1", "--pipeline"])
        #expect(refused.status == 64 && refused.errors.contains("--pipeline needs at least 2 threads"), "\(refused.errors)")
    }

    /// Writes `preset` as chain.json into `folder`; its path.
    static func write(_ preset: String, into folder: TemporaryFolder) throws -> String {
        try preset.write(toFile: folder.file("chain.json"), atomically: true, encoding: .utf8)
        return folder.file("chain.json")
    }

    /// Renders one second of a deterministic stereo input through `chain` offline on one
    /// thread, plays it live through `auhost run` (with `arguments`) and requires the same
    /// samples. A live run that an xrun or a stalled render worker disturbed (a loaded
    /// machine) is tried again, up to five runs: the first undisturbed run must match
    /// exactly; when every run was disturbed, the best must agree for at least the first
    /// 4096 frames. Returns the undisturbed run's lag, latency and `status` replies (-1,
    /// the latency and the replies of the last run when every run was disturbed).
    @discardableResult
    static func compareOfflineAndLive(chain: String, arguments: [String], period: Int = 64) throws -> (lag: Int, latency: Int, statuses: [String]) {
        let frames = 48_000
        // A deterministic stereo input: a chirp on the left, noise on the right.
        var seed: UInt32 = 4_242
        let left = (0..<frames).map { (frame: Int) in Float(0.4 * sin(2 * Double.pi * (200 + Double(frame) / 40) * Double(frame) / 48_000)) }
        let right = (0..<frames).map { _ -> Float in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return (Float(seed >> 8) / Float(1 << 24) - 0.5) * 0.3
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let presetFile = URL(fileURLWithPath: try write(chain, into: folder))
        let directory = presetFile.deletingLastPathComponent()
        let inputFile = directory.appendingPathComponent("in.wav").path
        let outputFile = directory.appendingPathComponent("out.wav").path
        let writer = try AudioFileWriter(path: inputFile, encoding: try AudioFileEncoding(format: "wav", bitDepth: "32f"), sampleRate: 48_000, channels: 2)
        let block = OwnedAudioBuffers(channels: 2, capacity: frames)
        _ = block.buffers()[0].update(fromContentsOf: left)
        _ = block.buffers()[1].update(fromContentsOf: right)
        try writer.write(block.buffers())
        try writer.finish()

        // Offline.
        let offline = try runExecutable(["render", presetFile.path, inputFile, "-o", outputFile, "--block", "\(period)", "--tail", "0", "--bit-depth", "32f", "--threads", "1"])
        try #require(offline.status == 0, "\(offline.errors)")
        let rendered = try AudioFileReader(path: outputFile).readAll()
        let expected = [Array(rendered.buffers()[0]), Array(rendered.buffers()[1])]

        var best = 0
        var last: (latency: Int, statuses: [String]) = (-1, [])
        for attempt in 1...5 {
            let run = try liveRun(chain: chain, arguments: arguments, period: period, left: left, right: right, expected: expected)
            last = (run.latency, run.statuses)
            if !run.disturbance.isEmpty {
                best = max(best, run.firstDifference ?? frames)
                continue
            }
            #expect(run.lag % period == 0, "the lag \(run.lag) is not whole periods: the live run was not block-aligned")
            #expect(run.firstDifference == nil, "run \(attempt): the samples differ from frame \(run.firstDifference ?? -1) on")
            return (run.lag, run.latency, run.statuses)
        }
        // An xrun drops a cycle of one client and breaks the stream there: the samples must
        // agree up to it (at least the first 4096 frames, which ran before it).
        #expect(best >= 4_096, "five live runs, each disturbed; the best agreed for \(best) frames")
        return (-1, last.latency, last.statuses)
    }

    /// One live run of `left` and `right` through `chain`, compared with `expected`: the lag
    /// at which the live output lines up (-1: nowhere), the first frame of either channel that
    /// differs (nil: none), what disturbed the run (xruns, a stalled worker; empty: nothing),
    /// the latency `status` reported, and its replies before and after the input played.
    static func liveRun(
        chain: String, arguments: [String], period: Int, left: [Float], right: [Float], expected: [[Float]]
    ) throws -> (lag: Int, firstDifference: Int?, disturbance: String, latency: Int, statuses: [String]) {
        let frames = left.count
        // Live: a player client feeds the same samples from the first cycle after arming.
        let player = FilePlayer(left: left, right: right)
        let recorded = (left: Recording(capacity: frames * 3), right: Recording(capacity: frames * 3))
        let rig = try LiveRig(preset: chain, extraArguments: arguments, realTime: true, periodFrames: period)
        defer { rig.tearDown() }
        _ = try rig.probeOnceRegistered("out_2", probeName: "probe-offline")
        let client = try JACKClient(name: "player", serverName: rig.server.name)
        let playerClient = try JACKTestClient(client: client, captureChannels: 2, playbackChannels: 2) { _, capture, playback in
            player.fill(playback)
            if player.hasStarted {
                recorded.left.append(capture[0])
                recorded.right.append(capture[1])
            }
        }
        try playerClient.start()
        defer { playerClient.stop() }
        for channel in 1...2 {
            try client.connect("player:out_\(channel)", to: "\(rig.clientName):in_\(channel)")
            try client.connect("\(rig.clientName):out_\(channel)", to: "player:in_\(channel)")
        }
        let status = try rig.send("status")
        let latency = Int(status.split(separator: " ").first { $0.hasPrefix("latency=") }!.dropFirst(8))!
        Thread.sleep(forTimeInterval: 0.2)
        let xrunsBefore = try xrunCount(rig)
        player.arm()
        try #require(recorded.left.wait(forCount: frames + latency + max(4_096, 4 * period)), "recorded \(recorded.left.count) frames")
        let xruns = try xrunCount(rig) - xrunsBefore
        let finalStatus = try rig.send("status")
        var disturbance = xruns == 0 ? "" : "\(xruns) xruns"
        if rig.standardError.contains("kept a render worker past the cycle's deadline") { disturbance += " a stalled worker" }

        // The player's output reaches auhost one period later (the graph is a cycle of
        // two clients: JACK orders player → auhost → player); find that lag, then compare.
        let live = recorded.left.array
        var lag = -1
        for candidate in 0..<max(2_048, 3 * period) where lag < 0 {
            if zip(live[candidate..<(candidate + 256)], expected[0][0..<256]).allSatisfy({ abs($0 - $1) < 1e-6 }) { lag = candidate }
        }
        guard lag >= 0 else {
            #expect(!disturbance.isEmpty, "the live output never lines up with the offline one")
            return (lag, 0, disturbance, latency, [status, finalStatus])
        }
        var firstDifference: Int?
        for (channel, recording) in [(0, recorded.left), (1, recorded.right)] {
            let liveSamples = recording.array[lag..<(lag + frames)]
            if let frame = zip(liveSamples, expected[channel][0..<frames]).enumerated().first(where: { abs($0.1.0 - $0.1.1) > 1e-6 })?.offset {
                firstDifference = min(firstDifference ?? frame, frame)
            }
        }
        return (lag, firstDifference, disturbance, latency, [status, finalStatus])
    }
}

/// The xruns the server reported to auhost so far.
func xrunCount(_ rig: LiveRig) throws -> Int {
    let status = try rig.send("status")
    return Int(status.split(separator: " ").first { $0.hasPrefix("xruns=") }?.dropFirst(6) ?? "") ?? -1
}

/// Plays two channels from the first cycle after ``arm()`` (then silence).
final class FilePlayer: @unchecked Sendable {
    private let left: UnsafeMutableBufferPointer<Float>
    private let right: UnsafeMutableBufferPointer<Float>
    private let armed = Atomic<Bool>(false)
    private var position = -1
    init(left: [Float], right: [Float]) {
        self.left = .allocate(capacity: left.count)
        _ = self.left.initialize(from: left)
        self.right = .allocate(capacity: right.count)
        _ = self.right.initialize(from: right)
    }
    deinit {
        left.deallocate()
        right.deallocate()
    }
    func arm() { armed.store(true, ordering: .releasing) }
    var hasStarted: Bool { position >= 0 }
    /// - Thread: render.
    func fill(_ playback: AudioBuffers) {
        if position < 0 && armed.load(ordering: .acquiring) { position = 0 }
        for frame in 0..<playback.frameCount {
            let index = position < 0 ? -1 : position + frame
            playback[0][frame] = index >= 0 && index < left.count ? left[index] : 0
            playback[1][frame] = index >= 0 && index < right.count ? right[index] : 0
        }
        if position >= 0 { position += playback.frameCount }
    }
}
