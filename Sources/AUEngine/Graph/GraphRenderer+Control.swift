import AUCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The control side of ``GraphRenderer``: publishing plans, freeing the retired ones,
/// queueing parameter events, and enabling and disabling render calls.
extension GraphRenderer {
    /// Hands `plan` to the render thread (it adopts it at the top of its next cycle).
    /// - Thread: [control]
    func publish(_ plan: RenderPlan) {
        pending.exchange(Unmanaged.passRetained(plan))?.release()
    }

    /// Releases the plans the render thread retired; returns how many.
    /// - Thread: [control]
    @discardableResult
    func collectRetiredPlans() -> Int {
        var count = 0
        while let plan = retired.pop() {
            plan.release()
            count += 1
        }
        return count
    }

    /// Queues a parameter change for the render thread; false when the queue is full.
    /// - Thread: [control]
    func queue(_ event: GraphParameterEvent) -> Bool {
        guard parameterEvents.push(event) else { return false }
        pendingEvents.wrappingAdd(1, ordering: .releasing)
        return true
    }

    /// Lets render calls run.
    /// - Thread: [control]
    func enable() { isEnabled.store(true, ordering: .sequentiallyConsistent) }

    /// Stops render calls (new ones return at once), waits for those in progress and for
    /// render workers still in a pipeline's last phase, and releases every plan. Afterwards the render side holds nothing.
    /// - Thread: [control]
    func disable() {
        isEnabled.store(false, ordering: .sequentiallyConsistent)
        while activeRenders.load(ordering: .sequentiallyConsistent) != 0 { Self.pause() }
        // A pipeline's phase left open to the workers: closed, and the workers in it waited for.
        let poolBits = deferredPool.exchange(0, ordering: .acquiringAndReleasing)
        deferredPipeline.store(0, ordering: .relaxed)
        deferredRetirement.store(-1, ordering: .relaxed)
        if poolBits != 0 {
            Unmanaged<RenderWorkerPool>.fromOpaque(UnsafeRawPointer(bitPattern: poolBits)!)._withUnsafeGuaranteedRef { pool in
                pool.closeSlice()
                while pool.busy.load(ordering: .sequentiallyConsistent) != 0 { Self.pause() }
            }
        }
        current.exchange(nil)?.release()
        pending.exchange(nil)?.release()
        collectRetiredPlans()
        adoptedGeneration.store(-1, ordering: .releasing)
        eventCount = 0
        while parameterEvents.pop() != nil {}
        pendingEvents.store(0, ordering: .relaxed)
    }

    private static func pause() {
        var spec = timespec(tv_sec: 0, tv_nsec: 200_000)
        nanosleep(&spec, nil)
    }
}
