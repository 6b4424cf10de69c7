import AUCore
import AUEngine
import AUHost
import AUTestSupport
import Foundation
import Synchronization
import Testing

/// A song's player that never returns from a cycle holds the render thread outside every
/// node: the render watchdog names it, and once a stop was asked for, within its short timeout.
@Suite struct PlayerWatchdogTests {
    /// A MIDI scheduler that spins inside its cycle while `holds` is set.
    final class StuckPlayer: MIDIScheduler, @unchecked Sendable {
        let holds = Atomic<Bool>(true)
        let entered = Atomic<Bool>(false)
        override func scheduleCycle(_ cycle: MIDISchedulingCycle) {
            entered.store(true, ordering: .relaxed)
            while holds.load(ordering: .relaxed) {}
        }
    }

    @Test("a player stuck in its cycle after a stop request is named by the watchdog within its interrupted timeout")
    func aStuckPlayerIsNamed() throws {
        let registry = HostRegistry.make()
        let chain = try ChainGraph(try loadPreset(gainChain, registry: registry), registry: registry, sampleRate: 48_000)
        defer { chain.dispose() }
        let player = StuckPlayer()
        try chain.graph.setMIDIScheduler(player)
        try chain.graph.update()
        try chain.graph.start()
        let stalls = Mutex<[RenderWatchdog.Stall]>([])
        let cancellation = RenderCancellation()
        let watchdog = RenderWatchdog(timeout: 600, interruptedTimeout: 1) { stall in stalls.withLock { $0.append(stall) } }
        let watch = watchdog.watch(chain, job: "song.json", cancellation: cancellation)
        defer { watch.stop() }
        let done = DispatchSemaphore(value: 0)
        let renderThread = Thread {
            let buffers = OwnedAudioBuffers(channels: 2, capacity: 256)
            _ = chain.graph.render(frameCount: 256, timestamp: RenderTimestamp(sampleTime: 0), output: buffers.buffers(frameCount: 256))
            done.signal()
        }
        renderThread.start()
        var waited = 0
        while !player.entered.load(ordering: .relaxed) && waited < 2000 {
            usleep(5000)
            waited += 1
        }
        let entered = player.entered.load(ordering: .relaxed)
        try #require(entered, "the render never reached the player within 10 s")
        cancellation.cancel()
        // The interrupted timeout is 1 s; up to 20 s for a loaded machine to run the watchdog's thread.
        for _ in 0..<400 where stalls.withLock({ $0.isEmpty }) { usleep(50_000) }
        player.holds.store(false, ordering: .relaxed)
        #expect(done.wait(timeout: .now() + 20) == .success, "the render did not return once the player let go")
        let stall = try #require(stalls.withLock { $0.first }, "the watchdog did not report the stuck player")
        #expect(stall.place == "the song's player" && stall.wasInterrupted && stall.job == "song.json", "\(stall.message)")
        #expect(stall.message.hasPrefix("song.json: the song's player has not returned for"), "\(stall.message)")
        let after = chain.graph.renderActivity
        #expect(after.node == nil && !after.isSchedulingMIDI, "the render still marked as busy once it returned")
    }
}
