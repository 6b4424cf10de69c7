import AUCore
import CAUSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A graph's render workers: threads that render the ready steps of a parallel plan beside
/// the thread that calls ``AudioGraph/render(frameCount:timestamp:input:output:midi:)``.
///
/// Between slices a worker spins briefly, then parks on a futex (`epoch`). The calling
/// thread opens a slice by bumping `epoch` and, only when a worker is parked, wakes them
/// with one FUTEX_WAKE: the one system call of a parallel render path. A worker joins a
/// slice by counting itself `busy` and checking that the slice is still open; the calling
/// thread closes the slice and waits for `busy` to reach zero before it touches the
/// schedule again. A worker that does not come back by the cycle's deadline leaves the
/// slice `abandoned`: the calling thread silences the cycle and later cycles until it
/// returns.
/// - Thread: [control] creates, configures and stops it; [render] the calling thread
///   opens and closes slices; [worker] its own threads.
final class RenderWorkerPool: @unchecked Sendable {
    /// The work of the open slice, written by the calling thread before it opens it.
    let work: UnsafeMutablePointer<ParallelSlice>
    /// The ``PipelineSchedule`` whose phase is open instead (0: a parallel slice).
    let pipelinePhase = Atomic<UInt>(0)
    /// One lane per worker.
    let lanes: [RenderLane]
    /// The lanes unretained, for the render thread (reading an array's element retains it).
    let laneTable: UnsafeMutableBufferPointer<Unmanaged<RenderLane>>
    /// Workers inside a slice (joined, not yet left).
    let busy = Atomic<Int32>(0)
    /// Workers parked on `epoch`.
    let parked = Atomic<Int32>(0)
    /// True from a slice's opening to its closing.
    let sliceOpen = Atomic<Bool>(false)
    /// Set when the calling thread gave up on a slice (a worker missed the deadline).
    let abandoned = Atomic<Bool>(false)
    private let isRunning = Atomic<Bool>(true)
    /// Bumped once per slice; the futex word workers park on.
    private let epoch: UnsafeMutablePointer<Atomic<UInt32>>
    /// How long a worker spins for the next slice before it parks.
    static let spinNanoseconds: UInt64 = 50_000
    /// Set by alloc-check: new workers put themselves under the strict check's filter (also
    /// when the environment asks for it, ``StrictRenderCheck/isRequested``).
    static let workersWatchStrictly = Atomic<Bool>(false)

    private let renderer: Unmanaged<GraphRenderer>
    private var threads: [pthread_t] = []

    /// Starts `count` workers for `renderer` (which outlives the pool: the plans that hold
    /// the pool are released by the renderer).
    /// - Thread: [control]
    init(workers count: Int, renderer: GraphRenderer) {
        work = .allocate(capacity: 1)
        epoch = .allocate(capacity: 1)
        epoch.initialize(to: Atomic(0))
        lanes = (0..<count).map { _ in RenderLane() }
        laneTable = .allocate(capacity: count)
        _ = laneTable.initialize(from: lanes.map { Unmanaged.passUnretained($0) })
        self.renderer = Unmanaged.passUnretained(renderer)
        for index in 0..<count {
            let context = UnsafeMutablePointer<WorkerContext>.allocate(capacity: 1)
            context.initialize(to: WorkerContext(pool: Unmanaged.passUnretained(self), index: index))
            var thread = pthread_t()
            let status = pthread_create(&thread, nil, { raw in
                let context = raw!.assumingMemoryBound(to: WorkerContext.self)
                let (pool, index) = (context.pointee.pool, context.pointee.index)
                context.deallocate()
                pool._withUnsafeGuaranteedRef { $0.runWorker(index) }
                return nil
            }, context)
            guard status == 0 else {
                context.deallocate()
                continue
            }
            threads.append(thread)
        }
    }

    deinit {
        isRunning.store(false, ordering: .sequentiallyConsistent)
        epoch.pointee.add(1, ordering: .sequentiallyConsistent)
        _ = au_futex_wake(epochWord, Int32.max)
        for thread in threads { pthread_join(thread, nil) }
        work.deallocate()
        laneTable.deallocate()
        epoch.deinitialize(count: 1)
        epoch.deallocate()
    }

    /// How many workers run.
    /// - Thread: [any]
    var workerCount: Int { threads.count }

    /// Gives every worker the real-time policy and priority of a driver's thread (JACK's
    /// process thread); returns 0 or the first errno.
    /// - Thread: [control]
    func adoptScheduling(policy: Int32, priority: Int32) -> Int32 {
        var parameters = sched_param()
        parameters.sched_priority = priority
        var failure: Int32 = 0
        for thread in threads {
            let status = pthread_setschedparam(thread, policy, &parameters)
            if status != 0 && failure == 0 { failure = status }
        }
        return failure
    }

    // MARK: - The calling thread

    /// Opens a slice whose `work` is written: bumps the epoch and wakes parked workers.
    /// - Thread: [render]
    @inline(__always)
    func openSlice() {
        abandoned.store(false, ordering: .relaxed)
        sliceOpen.store(true, ordering: .sequentiallyConsistent)
        epoch.pointee.add(1, ordering: .sequentiallyConsistent)
        if parked.load(ordering: .sequentiallyConsistent) > 0 { _ = au_futex_wake(epochWord, Int32.max) }
    }

    /// Closes the slice: no worker joins it from now on.
    /// - Thread: [render]
    @inline(__always)
    func closeSlice() { sliceOpen.store(false, ordering: .sequentiallyConsistent) }

    private var epochWord: UnsafeMutablePointer<UInt32> { UnsafeMutableRawPointer(epoch).assumingMemoryBound(to: UInt32.self) }

    // MARK: - Workers

    private struct WorkerContext {
        var pool: Unmanaged<RenderWorkerPool>
        var index: Int
    }

    private func runWorker(_ index: Int) {
        au_name_this_thread("auhost-render-\(index + 1)")
        if Self.workersWatchStrictly.load(ordering: .relaxed) || StrictRenderCheck.isRequested { StrictRenderCheck.watchThisThread() }
        RenderThread.flushDenormalsForThisThread()
        let lane = Unmanaged.passUnretained(lanes[index])
        var seen = epoch.pointee.load(ordering: .acquiring)
        while isRunning.load(ordering: .relaxed) {
            guard waitForSlice(after: seen) else { continue }
            seen = epoch.pointee.load(ordering: .sequentiallyConsistent)
            guard isRunning.load(ordering: .relaxed) else { break }
            busy.add(1, ordering: .sequentiallyConsistent)
            if sliceOpen.load(ordering: .sequentiallyConsistent) && epoch.pointee.load(ordering: .sequentiallyConsistent) == seen {
                renderer._withUnsafeGuaranteedRef { $0.workerRendersSlice(self, lane: lane) }
            }
            busy.subtract(1, ordering: .sequentiallyConsistent)
        }
    }

    /// Spins, then parks, until the epoch moves past `seen`; false when it has not yet.
    private func waitForSlice(after seen: UInt32) -> Bool {
        let start = MonotonicClock.nanoseconds()
        var spins = 0
        while epoch.pointee.load(ordering: .acquiring) == seen {
            au_cpu_relax()
            spins += 1
            if spins & 63 == 0 && MonotonicClock.nanoseconds() &- start > Self.spinNanoseconds {
                parked.add(1, ordering: .sequentiallyConsistent)
                _ = au_futex_wait(epochWord, seen, 100_000_000)
                parked.subtract(1, ordering: .sequentiallyConsistent)
                return epoch.pointee.load(ordering: .acquiring) != seen
            }
        }
        return true
    }
}
