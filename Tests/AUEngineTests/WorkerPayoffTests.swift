@testable import AUEngine
import Testing

/// The judgement of whether a plan's render workers pay (``PayoffBaseline``), on counters
/// given window by window: a busy machine that keeps a worker off its core for a while
/// makes one window slow, which must not send a pipeline that pays back to one thread.
@Suite("Worker payoff")
struct WorkerPayoffTests {
    /// Sixteen looks, one timed cycle each, at `wall` and `work` nanoseconds per cycle.
    private func watch(_ windows: [(wall: UInt64, work: UInt64)]) -> PayoffBaseline {
        var baseline = PayoffBaseline(generation: 1, cycles: 100, wall: 5_000_000, work: 7_000_000)
        var (cycles, wall, work) = (baseline.cycles, baseline.wall, baseline.work)
        for window in windows {
            cycles += 1
            wall += window.wall
            work += window.work
            baseline.look(cycles: cycles, wall: wall, work: work)
        }
        return baseline
    }

    @Test("one window in which a worker was kept off its core does not outweigh fifteen in which the workers paid")
    func oneSlowWindowIsNotTheVerdict() {
        // A pipeline whose cycle takes 70 µs for 100 µs of work, once 20 ms (preempted).
        let baseline = watch(Array(repeating: (70_000, 100_000), count: 15) + [(20_000_000, 100_000)])
        #expect(baseline.watchedCycles == 16)
        #expect(baseline.watchedWall > baseline.watchedWork, "the sum alone says the workers cost more")
        #expect((baseline.slowerWindows, baseline.fasterWindows) == (1, 15))
        #expect(!baseline.workersCostMore)
    }

    @Test("workers that are slower in most windows cost more than they save")
    func mostlySlowWindowsAreTheVerdict() {
        let baseline = watch(Array(repeating: (120_000, 100_000), count: 9) + Array(repeating: (70_000, 100_000), count: 7))
        #expect((baseline.slowerWindows, baseline.fasterWindows) == (9, 7))
        #expect(baseline.workersCostMore)
    }

    @Test("a look without a new timed cycle is no window")
    func aLookWithoutTimedCyclesCountsNothing() {
        var baseline = PayoffBaseline(generation: 1, cycles: 10, wall: 1_000, work: 2_000)
        baseline.look(cycles: 10, wall: 9_000, work: 2_000)
        #expect(baseline.slowerWindows + baseline.fasterWindows == 0 && baseline.watchedCycles == 0)
        baseline.look(cycles: 12, wall: 9_000, work: 20_000)
        #expect((baseline.watchedCycles, baseline.fasterWindows, baseline.watchedWall, baseline.watchedWork) == (2, 1, 8_000, 18_000))
    }
}
