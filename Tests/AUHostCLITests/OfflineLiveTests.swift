import AUCore
import AUFiles
import AUJACK
import AUTestSupport
import Foundation
import Synchronization
import Testing

/// The same chain, input and block size give the same samples offline (`auhost render`)
/// and live (`auhost run` under jackd, 64-frame periods).
@Suite(.serialized) struct OfflineLiveTests {
    static let chain = """
        {"auhost": 1, "name": "Offline and live", "sampleRate": 48000,
         "nodes": [{"id": "gain", "unit": "aufx:gain:AUHs", "parameters": {"gain": -3, "smoothing": 0}},
                   {"id": "echo", "unit": "aufx:dely:AUHs", "parameters": {"time": 7, "feedback": 40, "mix": 35}},
                   {"id": "eq", "unit": "aufx:peq :AUHs"}],
         "chain": ["gain", "echo", "eq"]}
        """

    @Test func offlineRenderingGivesTheSamplesOfTheLiveRun() throws {
        let frames = 48_000
        // A deterministic stereo input: a chirp on the left, noise on the right.
        var seed: UInt32 = 4_242
        let left = (0..<frames).map { Float(0.4 * sin(2 * Double.pi * (200 + Double($0) / 40) * Double($0) / 48_000)) }
        let right = (0..<frames).map { _ -> Float in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return (Float(seed >> 8) / Float(1 << 24) - 0.5) * 0.3
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-offline-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let presetFile = directory.appendingPathComponent("chain.json")
        try Self.chain.write(to: presetFile, atomically: true, encoding: .utf8)
        let inputFile = directory.appendingPathComponent("in.wav").path
        let outputFile = directory.appendingPathComponent("out.wav").path
        let writer = try AudioFileWriter(path: inputFile, encoding: try AudioFileEncoding(format: "wav", bitDepth: "32f"), sampleRate: 48_000, channels: 2)
        let block = OwnedAudioBuffers(channels: 2, capacity: frames)
        _ = block.buffers()[0].update(fromContentsOf: left)
        _ = block.buffers()[1].update(fromContentsOf: right)
        try writer.write(block.buffers())
        try writer.finish()

        // Offline.
        let offline = try runExecutable(["render", presetFile.path, inputFile, "-o", outputFile, "--block", "64", "--tail", "0", "--bit-depth", "32f"])
        try #require(offline.status == 0, "\(offline.errors)")
        let rendered = try AudioFileReader(path: outputFile).readAll()

        // Live: a player client feeds the same samples from the first cycle after arming.
        let player = FilePlayer(left: left, right: right)
        let recorded = (left: Recording(capacity: frames * 3), right: Recording(capacity: frames * 3))
        let rig = try LiveRig(preset: Self.chain, realTime: true)
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
        try #require(recorded.left.wait(forCount: frames + latency + 4_096), "recorded \(recorded.left.count) frames")
        let xruns = try xrunCount(rig) - xrunsBefore

        // The player's output reaches auhost one period later (the graph is a cycle of
        // two clients: JACK orders player → auhost → player); find that lag, then compare.
        let live = recorded.left.array
        let offlineLeft = Array(rendered.buffers()[0])
        var lag = -1
        for candidate in 0..<2_048 where lag < 0 {
            if zip(live[candidate..<(candidate + 256)], offlineLeft[0..<256]).allSatisfy({ abs($0 - $1) < 1e-6 }) { lag = candidate }
        }
        try #require(lag >= 0, "the live output never lines up with the offline one")
        #expect(lag % 64 == 0, "the lag \(lag) is not whole periods: the live run was not block-aligned")
        for (channel, recording) in [(0, recorded.left), (1, recorded.right)] {
            let liveSamples = Array(recording.array[lag..<(lag + frames)])
            let offlineSamples = Array(rendered.buffers()[channel])[0..<frames]
            let firstDifference = zip(liveSamples, offlineSamples).enumerated().first { abs($0.1.0 - $0.1.1) > 1e-6 }?.offset
            if xruns == 0 {
                #expect(firstDifference == nil, "channel \(channel): the samples differ from frame \(firstDifference ?? -1) on")
            } else {
                // An xrun drops a cycle of one client and breaks the stream there: the samples
                // must agree up to it (at least the first 4096 frames, which ran before it).
                #expect((firstDifference ?? frames) >= 4_096, "channel \(channel): the samples differ from frame \(firstDifference ?? -1) on (\(xruns) xruns)")
            }
        }
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
