import Testing
@testable import AUBridge

/// When a unit-host child's render thread spins for a request and how long it sleeps
/// (``RequestAnticipation``), over requests posted at given times (nanoseconds).
@Suite struct RequestAnticipationTests {
    static let spin: UInt64 = 50_000
    static let period: UInt64 = 1_333_333

    /// Serves `cycles` cycles of `units` units, the first at `start`, each cycle `period`
    /// apart, its nodes' requests 5 µs after the previous reply, each render taking 10 µs.
    static func serve(
        _ anticipation: inout RequestAnticipation, units: Int, cycles: Int, start: UInt64 = 1_000_000_000, ledRun: Bool = false,
        period: (Int) -> UInt64 = { _ in Self.period }
    ) -> UInt64 {
        var cycleStart = start
        var now = start
        for cycle in 0..<cycles {
            var posted = cycleStart
            for unit in 0..<units {
                now = posted + 10_000
                anticipation.served(unit, posted: posted, now: now, spin: spin, ledRun: ledRun)
                posted = now + 5_000
            }
            cycleStart += period(cycle)
        }
        return now
    }

    @Test func aTogetherChildSpinsBetweenItsNodesNotAfterTheLast() {
        var anticipation = RequestAnticipation(units: 3, now: 0)
        var now = Self.serve(&anticipation, units: 3, cycles: 1)
        // After the cycle's last node: the next request is a period away, and no period is known yet.
        #expect(!anticipation.spins(now: now + 1_000, spin: Self.spin))
        now = Self.serve(&anticipation, units: 1, cycles: 1, start: now + Self.period)
        #expect(anticipation.spins(now: now + 1_000, spin: Self.spin), "between the first and the second node")
        #expect(!anticipation.spins(now: now + Self.spin + 1, spin: Self.spin), "the spin is over")
    }

    /// A run's first unit is the only one served: its next cycle's request, posted at once
    /// (offline), is waited for awake; one a period away (live) is anticipated instead. A
    /// unit that leads no run, served again at once (a `per-unit` child holding a node's
    /// second instance), is not waited for.
    @Test func aRunsFirstUnitServedBackToBackKeepsItAwake() {
        var offline = RequestAnticipation(units: 3, now: 0)
        var now = Self.serve(&offline, units: 1, cycles: 1, ledRun: true)
        now = Self.serve(&offline, units: 1, cycles: 1, start: now + 5_000, ledRun: true)
        #expect(offline.spins(now: now + 1_000, spin: Self.spin), "the next cycle follows at once")
        var alone = RequestAnticipation(units: 2, now: 0)
        now = Self.serve(&alone, units: 1, cycles: 1)
        now = Self.serve(&alone, units: 1, cycles: 1, start: now + 5_000)
        #expect(!alone.spins(now: now + 1_000, spin: Self.spin), "a unit alone is not followed by itself")
        var live = RequestAnticipation(units: 3, now: 0)
        let start: UInt64 = 1_000_000_000
        now = Self.serve(&live, units: 1, cycles: 4, start: start, ledRun: true)
        #expect(!live.spins(now: now + 1_000, spin: Self.spin), "the next cycle is a period away")
        #expect(live.period == Self.period)
        #expect(live.spins(now: start + 4 * Self.period, spin: Self.spin), "the cycle due is waited for awake")
    }

    @Test func aSteadyCycleIsAnticipatedOneLeadBeforeItIsDue() {
        var anticipation = RequestAnticipation(units: 3, now: 0)
        let start: UInt64 = 1_000_000_000
        let now = Self.serve(&anticipation, units: 3, cycles: 4, start: start)
        #expect(anticipation.period == Self.period)
        let due = start + 4 * Self.period
        let lead = RequestAnticipation.lead(spin: Self.spin)
        #expect(anticipation.sleepLimit(now: now, spin: Self.spin) == due - lead - now, "sleeps until a lead before the cycle is due")
        #expect(!anticipation.spins(now: due - lead - 1, spin: Self.spin))
        #expect(anticipation.spins(now: due - lead, spin: Self.spin))
        #expect(anticipation.spins(now: due + lead - 1, spin: Self.spin))
        #expect(!anticipation.spins(now: due + lead, spin: Self.spin), "a cycle that did not come is not waited for")
        #expect(anticipation.sleepLimit(now: due + lead, spin: Self.spin) == RequestAnticipation.idleSleep)
    }

    @Test func unsteadyCyclesAreNotAnticipated() {
        var anticipation = RequestAnticipation(units: 3, now: 0)
        let now = Self.serve(&anticipation, units: 3, cycles: 4) { $0 % 2 == 0 ? Self.period : 2 * Self.period }
        #expect(anticipation.period == 0)
        #expect(anticipation.sleepLimit(now: now, spin: Self.spin) == RequestAnticipation.idleSleep)
    }

    @Test func aShortPeriodIsNotAnticipated() {
        var anticipation = RequestAnticipation(units: 3, now: 0)
        let short = 8 * RequestAnticipation.lead(spin: Self.spin) - 1
        let now = Self.serve(&anticipation, units: 3, cycles: 4) { _ in short }
        #expect(anticipation.sleepLimit(now: now, spin: Self.spin) == RequestAnticipation.idleSleep, "spinning would take more than an eighth of the period")
    }

    @Test func aChildOfOneUnitNeverSpins() {
        var anticipation = RequestAnticipation(units: 1, now: 0)
        let now = Self.serve(&anticipation, units: 1, cycles: 6)
        #expect(!anticipation.spins(now: now + 1_000, spin: Self.spin))
        #expect(anticipation.sleepLimit(now: now, spin: Self.spin) == RequestAnticipation.idleSleep)
    }

    @Test func noSpinMeansNoAnticipation() {
        var anticipation = RequestAnticipation(units: 3, now: 0)
        let now = Self.serve(&anticipation, units: 3, cycles: 4)
        #expect(!anticipation.spins(now: now + 1_000, spin: 0))
        #expect(anticipation.sleepLimit(now: now, spin: 0) == RequestAnticipation.idleSleep)
    }
}
