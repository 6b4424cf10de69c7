import AUCore
import Synchronization

/// The render side of an ``AudioGraph``: receives compiled plans by one atomic pointer
/// exchange, renders the current one, and hands retired plans back through a ring so that
/// the control thread frees them. Also carries parameter events in and notices out.
///
/// Publishing: the control thread puts a retained plan in the ``RenderSlot`` `pending`; the
/// render thread takes it with an exchange at the top of a cycle into its own slot,
/// `current`, pushes the plan it replaces into `retired`, and records the generation it
/// adopted. A plan published before the render
/// thread took the previous one replaces it (the control thread releases the one never seen).
/// - Thread: [render] ``render(frameCount:timestamp:input:output:)``; [control] the rest, on
///   the control thread.
final class GraphRenderer: @unchecked Sendable {
    /// A retained plan waiting for the render thread.
    let pending = RenderSlot<RenderPlan>()
    /// The retained plan the render thread renders (render thread only, except while
    /// disabled). A slot rather than a stored `var`: a class's stored `var` costs an
    /// exclusivity check on every access.
    let current = RenderSlot<RenderPlan>()
    /// Plans the render thread replaced, for the control thread to release.
    let retired = RealTimeRing<Unmanaged<RenderPlan>>(minimumCapacity: 64)
    /// The generation of the plan the render thread renders (-1: none yet).
    let adoptedGeneration = Atomic<Int>(-1)
    /// Render calls in progress.
    let activeRenders = Atomic<Int>(0)
    /// False while the graph is uninitialized: render returns at once.
    let isEnabled = Atomic<Bool>(false)

    /// Parameter changes from control threads (through ``queue(_:)``).
    let parameterEvents = SharedProducerRing<GraphParameterEvent>(minimumCapacity: GraphRenderer.eventCapacity)
    /// Events queued and not yet taken (may dip below zero while a push is being counted):
    /// an idle cycle learns from one load that there is nothing to take.
    let pendingEvents = Atomic<Int>(0)
    /// Events of the current and later cycles (render thread only), sorted by offset.
    let events: UnsafeMutablePointer<GraphParameterEvent>
    var eventCount: Int {
        get { eventCountStorage.load(ordering: .relaxed) }
        set { eventCountStorage.store(newValue, ordering: .relaxed) }
    }
    let eventCountStorage = Atomic<Int>(0)
    /// The calling thread's notices and the node it is inside (render workers have lanes of
    /// their own, ``RenderWorkerPool/lanes``).
    let mainLane = RenderLane()
    /// The deadline of a parallel plan's cycle, in nanoseconds from its start (0: none): a
    /// render worker that has not finished by then makes the cycle silent. Set by a driver
    /// with a period (JACK); offline renders wait.
    let parallelCycleDeadline = Atomic<UInt64>(0)
    /// A pipelined plan's phase still open to the render workers when its cycle returned
    /// (``PipelineSchedule`` and ``RenderWorkerPool`` pointers, 0: none), and the parameter
    /// events that cycle leaves to retire (its frames and held frames) once it is done:
    /// the workers render the first stages of the cycle's last slice while the driver goes
    /// on (GraphRenderer+Pipeline.swift).
    let deferredPipeline = Atomic<UInt>(0)
    let deferredPool = Atomic<UInt>(0)
    let deferredRetirement = Atomic<Int>(-1)
    let deferredHeld = Atomic<Int>(0)

    /// Cycles rendered; of them, those timed and the time they took, for the dump.
    let cycles = Atomic<UInt64>(0)
    let timedCycles = Atomic<UInt64>(0)
    let renderNanoseconds = Atomic<UInt64>(0)
    /// A plan that measures time times one cycle in this many: a clock read costs about
    /// 25 ns on this VM, and reading it twice per node every cycle cost the reference chain
    /// 5 % (docs/BENCHMARKS.md); shares of render time need samples, not every cycle.
    static let timingInterval: UInt64 = 32

    /// Whether cycle `cycle` (counted from 0) is timed: the last of each ``timingInterval``,
    /// so never a fresh unit's first cycle, whose one-time work (a plugin's first `run`
    /// computing its tables took 100 times its steady cost) would otherwise be counted as
    /// what it costs per cycle.
    /// - Thread: [render]
    @inline(__always)
    static func isTimed(cycle: UInt64) -> Bool { cycle % timingInterval == timingInterval - 1 }

    static let eventCapacity = 1024

    /// MIDI events sent from code for the graph's MIDI input (``AudioGraph/sendMIDIEvent(_:)``).
    let controlMIDI = SharedProducerRing<MIDIEvent>(minimumCapacity: AudioUnit.eventCapacity)
    /// The graph's MIDI input of the current cycle (the driver's and the queued events),
    /// and its MIDI output (render thread only; behind pointers, not stored `var`s).
    let cycleMIDIInput: UnsafeMutablePointer<MIDIEventBuffer>
    let cycleMIDIOutput: UnsafeMutablePointer<MIDIEventBuffer>
    /// The application's input of the cycle being rendered, and where the slice being
    /// rendered starts in it (render thread only): what ``AudioGraph/copyApplicationInput(into:)`` reads.
    var cycleInput: AudioBuffers?
    var cycleInputOffset = 0

    init() {
        events = .allocate(capacity: GraphRenderer.eventCapacity)
        cycleMIDIInput = Self.makeMIDIBuffer()
        cycleMIDIOutput = Self.makeMIDIBuffer()
    }

    deinit {
        disable()
        events.deallocate()
        for buffer in [cycleMIDIInput, cycleMIDIOutput] {
            buffer.pointee.storage.deallocate()
            buffer.deallocate()
        }
    }

    private static func makeMIDIBuffer() -> UnsafeMutablePointer<MIDIEventBuffer> {
        let capacity = 2 * AudioUnit.eventCapacity
        let buffer = UnsafeMutablePointer<MIDIEventBuffer>.allocate(capacity: 1)
        buffer.initialize(to: MIDIEventBuffer(capacity: capacity, storage: .allocate(capacity: capacity)))
        return buffer
    }
}
