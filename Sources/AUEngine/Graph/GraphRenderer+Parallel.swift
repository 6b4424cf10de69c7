import AUCore
import CAUSupport
import Synchronization

/// One slice of a parallel plan: what every thread that renders its steps reads.
struct ParallelSlice {
    var plan: Unmanaged<RenderPlan>
    var schedule: Unmanaged<ParallelSchedule>
    var measuresTime: Bool
    var plainCycle: Bool
    var events: Int
    var sliceOffset: Int
    var frames: Int
    var time: RenderTimestamp
}

/// Rendering a slice of a parallel plan: the calling thread opens the slice to the render
/// workers and renders ready steps with them until every step has rendered. Each step is
/// rendered exactly as the single-threaded loop renders it, and its output is scanned for
/// NaN before its dependents are released, so the output is the same, sample for sample.
/// No allocation and no lock; the one system call is the wake of parked workers.
/// - Thread: [render]
extension GraphRenderer {
    /// Renders the slice's steps with the pool's workers. False when the slice was abandoned:
    /// a worker was still inside a step at `deadline` (0: no deadline), reported by name.
    func renderSliceInParallel(_ slice: ParallelSlice, pool: RenderWorkerPool, deadline: UInt64) -> Bool {
        let first = slice.schedule._withUnsafeGuaranteedRef { $0.begin() }
        pool.work.pointee = slice
        pool.pipelinePhase.store(0, ordering: .relaxed)
        pool.openSlice()
        let lane = Unmanaged.passUnretained(mainLane)
        let finished = renderReadySteps(slice, first: first, lane: lane, pool: pool, deadline: deadline)
        return closeSlice(pool, finished: finished, deadline: deadline, sampleTime: slice.time.sampleTime)
    }

    /// Closes the open slice (or pipeline phase) and waits for the workers still in it: true
    /// when they all left, false when the slice was not `finished` or a worker was still in
    /// a step at `deadline` (0: none); then it is abandoned and the stuck nodes reported.
    @inline(__always)
    func closeSlice(_ pool: RenderWorkerPool, finished: Bool, deadline: UInt64, sampleTime: Double) -> Bool {
        pool.closeSlice()
        // Workers leave as soon as nothing is left; one still inside a step holds the slice.
        var finished = finished
        var spins = 0
        while finished && pool.busy.load(ordering: .sequentiallyConsistent) > 0 {
            au_cpu_relax()
            spins += 1
            if spins & 1023 == 0 { showWorkersNode(pool) }
            if deadline != 0 && spins & 255 == 0 && MonotonicClock.nanoseconds() > deadline { finished = false }
        }
        mainLane.renderingNode.store(-1, ordering: .relaxed)
        if !finished { abandon(at: sampleTime, pool: pool) }
        return finished
    }

    /// While the calling thread waits for the workers, the node one of them is inside
    /// becomes the calling thread's (``AudioGraph/renderActivity``): a watchdog then tells a
    /// unit stuck on a worker from a render between cycles, and names it.
    @inline(__always)
    private func showWorkersNode(_ pool: RenderWorkerPool) {
        // Indices, not a for-in over the buffer: its iterator's generic metadata is made (and
        // allocated) on first use in a debug build, and this runs only when a wait is long.
        for index in 0..<pool.laneTable.count {
            let node = pool.laneTable[index]._withUnsafeGuaranteedRef { $0.renderingNode.load(ordering: .relaxed) }
            if node >= 0 {
                mainLane.renderingNode.store(node, ordering: .relaxed)
                return
            }
        }
    }

    /// A worker's share of the open slice.
    /// - Thread: [worker] a render worker, joined to the slice.
    func workerRendersSlice(_ pool: RenderWorkerPool, lane: Unmanaged<RenderLane>) {
        activeRenders.add(1, ordering: .sequentiallyConsistent)
        defer { activeRenders.subtract(1, ordering: .sequentiallyConsistent) }
        let phase = pool.pipelinePhase.load(ordering: .acquiring)
        if phase != 0 {
            let pipeline = Unmanaged<PipelineSchedule>.fromOpaque(UnsafeRawPointer(bitPattern: phase)!)
            // A worker leaves an abandoned phase as it leaves a finished one.
            _ = RenderThread.run { pipeline._withUnsafeGuaranteedRef { renderPhaseTasks($0, lane: lane, pool: pool) } }
            return
        }
        let slice = pool.work.pointee
        RenderThread.run { _ = renderReadySteps(slice, first: -1, lane: lane, pool: pool, deadline: 0) }
    }

    /// Renders ready steps, starting with `first` (-1: none), until every step of the slice
    /// has rendered (true), or the slice is abandoned or `deadline` passes (false).
    @inline(__always)
    private func renderReadySteps(_ slice: ParallelSlice, first: Int32, lane: Unmanaged<RenderLane>, pool: RenderWorkerPool, deadline: UInt64) -> Bool {
        let isCallingThread = lane.toOpaque() == Unmanaged.passUnretained(mainLane).toOpaque()
        return slice.schedule._withUnsafeGuaranteedRef { schedule in
            slice.plan._withUnsafeGuaranteedRef { plan in
                let firstStep = plan.steps.baseAddress.unsafelyUnwrapped
                var next = first
                var idle = 0
                while true {
                    if next < 0 { next = schedule.pop() }
                    if next >= 0 {
                        if pool.abandoned.load(ordering: .relaxed) { return false }
                        var unscanned: UnsafeMutablePointer<PlanStep>?
                        renderStepOfSlice(
                            firstStep + Int(next), plan, plainCycle: slice.plainCycle, measuresTime: slice.measuresTime, events: slice.events,
                            sliceOffset: slice.sliceOffset, frames: slice.frames, time: slice.time, unscanned: &unscanned, lane: lane)
                        isolateNonFinite(&unscanned, frames: slice.frames, time: slice.time, lane: lane)
                        lane._withUnsafeGuaranteedRef { lane in
                            lane.renderingNode.store(-1, ordering: .relaxed)
                            lane.stepsRendered.store(lane.stepsRendered.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
                        }
                        next = schedule.complete(next)
                        idle = 0
                        continue
                    }
                    if schedule.remaining.load(ordering: .acquiring) == 0 { return true }
                    if pool.abandoned.load(ordering: .relaxed) { return false }
                    idle += 1
                    if isCallingThread && idle & 1023 == 0 { showWorkersNode(pool) }
                    if deadline != 0 && idle & 255 == 0 && MonotonicClock.nanoseconds() > deadline { return false }
                    au_cpu_relax()
                }
            }
        }
    }

    /// Gives up on the slice and names each node a worker is still inside.
    private func abandon(at sampleTime: Double, pool: RenderWorkerPool) {
        pool.abandoned.store(true, ordering: .sequentiallyConsistent)
        for lane in pool.laneTable {
            let node = lane._withUnsafeGuaranteedRef { $0.renderingNode.load(ordering: .relaxed) }
            guard node >= 0 else { continue }
            report(GraphNotice(kind: .workerStalled, node: GraphNode(rawValue: node), status: 0, sampleTime: sampleTime))
        }
    }
}
