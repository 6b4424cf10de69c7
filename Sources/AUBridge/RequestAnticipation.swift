/// When a unit-host child's render thread spins for its next request instead of sleeping,
/// and how long it sleeps, from when the host posted the requests it served (CLOCK_MONOTONIC
/// nanoseconds, the requests' own timestamps). Two cases, each only in a child of more than
/// one unit (one unit's next request is a graph cycle away, and a spin there would take a core
/// from the host and the other children):
/// - **Between the nodes of a cycle**: after a reply to a unit whose last reply was followed
///   by a request within `spin` (another unit's, or, for a run's first unit offline, its
///   own next cycle's), it spins up to `spin` for the next one.
/// - **Before the next cycle**: when the cycles' first requests came at a steady period (two
///   intervals within an eighth of each other) of at least eight times the lead (three times
///   `spin`), it sleeps only until a lead before the next cycle is due and spins until a lead
///   after, so that the cycle's first request finds it awake instead of waking it (a sleeping
///   core's wake-up costs the host 40-60 µs here). The lead covers the cycles' jitter; the
///   sleep itself wakes on time (the thread's timer slack is 1 ns: ``UnitHostRenderThread``).
/// - Thread: [render] the child's; a value of its loop.
struct RequestAnticipation {
    /// The longest sleep when no cycle is due (the thread then looks again).
    static let idleSleep: UInt64 = 100_000_000
    private var followed: [Bool]
    private var lastReply: UInt64
    private var lastServed = -1
    private var cycleStart: UInt64 = 0
    private var lastInterval: UInt64 = 0
    /// The cycles' steady period, 0 while unknown.
    private(set) var period: UInt64 = 0

    /// For a child of `units` units, at `now`.
    init(units: Int, now: UInt64) {
        followed = [Bool](repeating: false, count: units)
        lastReply = now
    }

    /// Unit `index`'s request (and the run it leads, when `ledRun`), posted at `posted`, was
    /// rendered and answered by `now`. A unit's own next request counts as following only
    /// when it leads a run (the run's cycles); a unit alone served again is a cycle away (or
    /// the next slice of its cycle).
    mutating func served(_ index: Int, posted: UInt64, now: UInt64, spin: UInt64, ledRun: Bool = false) {
        let follows = lastServed >= 0 && (index != lastServed || ledRun) && Int64(bitPattern: posted &- lastReply) <= Int64(clamping: spin)
        if lastServed >= 0 { followed[lastServed] = follows }
        if !follows {
            let interval = cycleStart == 0 ? 0 : posted &- cycleStart
            let steady = interval > 0 && lastInterval > 0 && (interval > lastInterval ? interval - lastInterval : lastInterval - interval) * 8 < lastInterval
            period = steady ? interval : 0
            lastInterval = interval
            cycleStart = posted
        }
        lastReply = now
        lastServed = index
    }

    /// Whether to spin at `now` rather than sleep.
    func spins(now: UInt64, spin: UInt64) -> Bool {
        guard followed.count > 1 else { return false }
        if lastServed >= 0, followed[lastServed], now &- lastReply < spin { return true }
        guard let due = nextCycle(spin: spin) else { return false }
        return now >= due.start && now < due.end
    }

    /// How long to sleep at `now` at most: until the spin before the next cycle, else ``idleSleep``.
    func sleepLimit(now: UInt64, spin: UInt64) -> UInt64 {
        guard followed.count > 1, let due = nextCycle(spin: spin), now < due.start else { return Self.idleSleep }
        return min(due.start - now, Self.idleSleep)
    }

    /// How long before (and after) a steady cycle is due the thread spins for its first request.
    static func lead(spin: UInt64) -> UInt64 { 3 * spin }

    /// The window to spin in for the next cycle's first request, if the cycles are steady.
    private func nextCycle(spin: UInt64) -> (start: UInt64, end: UInt64)? {
        let lead = Self.lead(spin: spin)
        guard lead > 0, period >= 8 * lead else { return nil }
        let due = cycleStart &+ period
        return (due &- lead, due &+ lead)
    }
}
