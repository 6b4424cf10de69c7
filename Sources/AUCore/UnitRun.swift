/// Units that render one after another in one call, each over the output of the one before
/// it: the isolated nodes of a chain that share a child process (AUBridge), handed to the
/// child once a cycle instead of once a node. A graph makes one through the first unit's
/// ``AudioUnit/makeRun(followedBy:)`` for a stretch of its plan where nothing else reads
/// the audio between the units, and renders it in ordinary cycles; a cycle the run declines
/// is rendered unit by unit.
/// - Thread: [control] to make; [render] ``render(frames:time:input:output:)``, ``post(frames:time:input:)``, ``collect(frames:time:output:)``.
open class UnitRun: @unchecked Sendable {
    /// How many units the run renders.
    public let count: Int
    /// Each unit's outcome of the last cycle rendered (``render(frames:time:input:output:)``
    /// returned true), in order.
    public let outcomes: UnsafeMutableBufferPointer<UnitRunOutcome>

    /// A run of `count` units.
    /// - Thread: [control]
    public init(count: Int) {
        self.count = count
        outcomes = .allocate(capacity: count)
        outcomes.initialize(repeating: UnitRunOutcome())
    }

    deinit { outcomes.deallocate() }

    /// Renders the units in order over `input` (the first one's input bus) into `output`
    /// (the last one's output bus) and fills ``outcomes``; a unit that fails or writes NaN or
    /// infinity is silent for the rest of the run, as the graph silences it. Returns false,
    /// having touched nothing, when a unit cannot render plainly this cycle (bypassed,
    /// automated, notified, not ready): the caller then renders them one by one. The same as
    /// ``post(frames:time:input:)`` and, when it posted, ``collect(frames:time:output:)``.
    /// - Thread: [render] No allocation, no lock.
    public final func render(frames: Int, time: RenderTimestamp, input: AudioBuffers, output: AudioBuffers) -> Bool {
        guard post(frames: frames, time: time, input: input) else { return false }
        collect(frames: frames, time: time, output: output)
        return true
    }

    /// Starts the units' cycle over `input` (read before it returns) and returns without
    /// waiting for it: the units render while the caller goes on, and the cycle's output is
    /// ``collect(frames:time:output:)``'s, which must come before the next post. Returns false,
    /// having touched nothing, when a unit cannot render plainly this cycle (as ``render(frames:time:input:output:)``).
    /// A posted cycle never collected is not lost track of: the units' next cycles wait for
    /// it as for a late one.
    /// - Thread: [render] No allocation, no lock.
    open func post(frames: Int, time: RenderTimestamp, input: AudioBuffers) -> Bool { false }

    /// Waits for the cycle posted last (`frames` frames at `time`, as posted) and writes the
    /// last unit's output into `output` and each unit's outcome into ``outcomes`` (silence
    /// from the first unit that did not answer in time on).
    /// - Thread: [render] No allocation, no lock.
    open func collect(frames: Int, time: RenderTimestamp, output: AudioBuffers) {}

    /// What unit `member` (1 or later) read in the last cycle rendered: the output of the one
    /// before it, as the run left it (silence when that one failed; no channels when it did
    /// not answer in time: its delay line takes silence). The graph feeds a
    /// member's bypass delays from it, as it does a node's from its input.
    /// - Thread: [render] No allocation, no lock.
    open func input(of member: Int, frames: Int) -> AudioBuffers {
        AudioBuffers(channelPointers: UnsafeMutableBufferPointer(start: nil, count: 0), frameCount: frames)
    }
}

/// What one unit of a ``UnitRun`` did in its last cycle.
/// - Thread: [render]
public struct UnitRunOutcome: BitwiseCopyable, Sendable {
    /// The unit's render status (0: rendered).
    public var status: AudioUnitStatus = 0
    /// Whether it wrote NaN or infinity (its output was silenced).
    public var wroteNonFinite = false
    /// How long the run waited for it (from the unit before it), in nanoseconds.
    public var nanoseconds: UInt64 = 0

    /// - Thread: [render]
    public init(status: AudioUnitStatus = 0, wroteNonFinite: Bool = false, nanoseconds: UInt64 = 0) {
        self.status = status
        self.wroteNonFinite = wroteNonFinite
        self.nanoseconds = nanoseconds
    }
}

extension AudioUnit {
    /// Whether a cycle of `frameCount` frames would reach ``process(_:)`` as it is, with one
    /// input and one output bus: the unit initialized, the cycle not too long, not bypassed,
    /// no parameter event or ramp to apply, no render notification but read-only ones
    /// (``notifyRenderAfterRun(status:timestamp:buffers:)``). A ``UnitRun`` renders its units only then.
    /// - Thread: [render] No allocation, no lock.
    @inline(__always)
    public func rendersPlainly(frameCount: Int) -> Bool {
        let limits = renderLimits.load(ordering: .relaxed)
        return renderResourcesSlot.reference != nil && frameCount <= limits >> 32 && limits & 0xFFFF_FFFF == 1 << 16 | 1
            && !bypassed.load(ordering: .relaxed) && pendingEvents.load(ordering: .relaxed) == 0
            && !rampsActive.load(ordering: .relaxed) && !hasWritingRenderNotifies.load(ordering: .relaxed)
    }

    /// Calls the unit's (read-only) render notifications for a cycle a ``UnitRun`` rendered,
    /// pre and post in turn, with `buffers`, the unit's output as the run left it.
    /// - Thread: [render] No allocation, no lock.
    @inline(__always)
    public func notifyRenderAfterRun(status: AudioUnitStatus, timestamp: RenderTimestamp, buffers: AudioBuffers) {
        guard hasRenderNotifies.load(ordering: .relaxed) else { return }
        renderNotifies.notify(.preRender, timestamp: timestamp, bus: 0, buffers: buffers)
        renderNotifies.notify(status == 0 ? .postRender : [.postRender, .postRenderError], timestamp: timestamp, bus: 0, buffers: buffers)
    }

    /// Records the status a ``UnitRun`` rendered the unit with (``PropertyID/lastRenderError``
    /// changes as after any render).
    /// - Thread: [render] No allocation, no lock.
    public func recordRunStatus(_ status: AudioUnitStatus) {
        if status != 0 && status != lastRenderError.load(ordering: .relaxed) {
            lastRenderError.store(status, ordering: .relaxed)
            notifyPropertyChangeFromRender(.lastRenderError)
        }
    }
}
