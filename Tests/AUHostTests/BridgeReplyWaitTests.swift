import CAUSupport
import Foundation
import Testing

/// How the host's render thread waits for an isolated node's reply (``au_bridge_await_reply``):
/// it spins for the short spin, and on while the child renders the request (it runs on
/// another core: a sleep and a wake-up would add tens of µs), but not for a child that has
/// not taken the request (being woken, or waiting for the host's own core). The child here
/// is a thread of the test that answers after a delay, or once the host says it sleeps (so
/// that a busy machine, which may hold the host back past any delay, changes nothing).
@Suite struct BridgeReplyWaitTests {
    /// Waits for `cycles` replies, each posted by a thread `delay` seconds after the request,
    /// the child saying it renders at once when `rendering`, or, with `afterHostSleeps`, as
    /// soon as the host says it sleeps (at most a second after the request: a host that never
    /// sleeps is not woken). How many replies woke the host, and how many were answered.
    static func hostWakes(
        cycles: Int, delay: Double = 0, afterHostSleeps: Bool = false, rendering: Bool, spin: UInt64, longestSpin: UInt64
    ) -> (wakes: UInt32, answered: Int) {
        let header = UnsafeMutablePointer<au_bridge_header>.allocate(capacity: 1)
        header.initialize(to: au_bridge_header())
        defer { header.deallocate() }
        nonisolated(unsafe) let shared = header
        var answered = 0
        for sequence in UInt32(1)...UInt32(cycles) {
            if rendering { au_bridge_begin_render(header, sequence) }
            let child = Thread {
                if delay > 0 { Thread.sleep(forTimeInterval: delay) }
                let giveUp = Date().addingTimeInterval(1)
                while afterHostSleeps, shared.pointee.hostSleeping == 0, Date() < giveUp { Thread.sleep(forTimeInterval: 0.0001) }
                au_bridge_post_reply(shared, sequence)
            }
            child.start()
            let result = au_bridge_await_reply(header, sequence, au_bridge_now() + 10_000_000_000, spin, longestSpin)
            if result == 0 { answered += 1 }
        }
        return (au_bridge_host_wakes(header), answered)
    }

    @Test func theHostSpinsWhileTheChildRendersUpToTheLongestSpin() {
        let waited = Self.hostWakes(cycles: 10, delay: 0.002, rendering: true, spin: 20_000, longestSpin: 5_000_000_000)
        #expect(waited.answered == 10)
        #expect(waited.wakes == 0, "the host slept for a child that was rendering: \(waited.wakes) wakes")
    }

    @Test func theHostSleepsForAChildThatHasNotTakenTheRequest() {
        let waited = Self.hostWakes(cycles: 5, afterHostSleeps: true, rendering: false, spin: 20_000, longestSpin: 5_000_000_000)
        #expect(waited.answered == 5)
        #expect(waited.wakes == 5, "the host spun past its short spin for a child not rendering: \(waited.wakes) wakes of 5")
    }

    @Test func theHostSleepsOnceTheLongestSpinIsOver() {
        let waited = Self.hostWakes(cycles: 5, afterHostSleeps: true, rendering: true, spin: 20_000, longestSpin: 100_000)
        #expect(waited.answered == 5)
        #expect(waited.wakes == 5, "the host spun past its longest spin: \(waited.wakes) wakes of 5")
    }
}
