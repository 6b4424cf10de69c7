import AUCore
import CAUSupport
import Synchronization

/// The dependencies between a plan's steps, and the state that lets several threads render
/// one slice of them: a counter per step of the steps it still waits for, and a ready queue.
/// A step is ready when every step whose output it reads (audio or MIDI) has rendered; the
/// thread that renders a step's last dependency makes it ready, keeps one newly ready step
/// to render next itself and queues the rest (Ardour's graph works the same way). Lock-free
/// and allocation-free: each step enters the queue once per slice, so the queue is an array
/// of one slot per step that a slice fills from the front.
/// - Thread: [control] builds it; [render] the calling thread and the render workers run it.
final class ParallelSchedule: @unchecked Sendable {
    let stepCount: Int
    /// Steps that depend on no other step, in render order.
    let roots: UnsafeMutableBufferPointer<Int32>
    /// Step `i`'s dependents are `dependents[dependentStart[i] ..< dependentStart[i + 1]]`.
    private let dependentStart: UnsafeMutableBufferPointer<Int32>
    private let dependents: UnsafeMutableBufferPointer<Int32>
    /// How many steps each step waits for at the start of a slice.
    private let initialPending: UnsafeMutableBufferPointer<Int32>
    /// How many it still waits for in this slice.
    private let pending: UnsafeMutablePointer<Atomic<Int32>>
    /// The ready queue: `slots[head ..< tail]` wait to be taken (-1: being written).
    private let slots: UnsafeMutablePointer<Atomic<Int32>>
    private let head = Atomic<Int32>(0)
    private let tail = Atomic<Int32>(0)
    /// Steps of the slice not yet rendered.
    let remaining = Atomic<Int32>(0)

    /// - Parameter dependencies: for each step in render order, the distinct steps before it
    ///   whose output it reads.
    /// - Thread: [control]
    init(dependencies: [[Int]]) {
        stepCount = dependencies.count
        var dependentsOf = [[Int32]](repeating: [], count: stepCount)
        for (step, sources) in dependencies.enumerated() {
            for source in sources { dependentsOf[source].append(Int32(step)) }
        }
        let rootList = dependencies.indices.filter { dependencies[$0].isEmpty }.map { Int32($0) }
        roots = .allocate(capacity: rootList.count)
        _ = roots.initialize(from: rootList)
        dependentStart = .allocate(capacity: stepCount + 1)
        dependents = .allocate(capacity: max(1, dependentsOf.reduce(0) { $0 + $1.count }))
        var position: Int32 = 0
        for step in 0..<stepCount {
            dependentStart[step] = position
            for dependent in dependentsOf[step].sorted() {
                dependents[Int(position)] = dependent
                position += 1
            }
        }
        dependentStart[stepCount] = position
        initialPending = .allocate(capacity: max(1, stepCount))
        for step in 0..<stepCount { initialPending[step] = Int32(dependencies[step].count) }
        pending = .allocate(capacity: max(1, stepCount))
        slots = .allocate(capacity: max(1, stepCount))
        for step in 0..<stepCount {
            (pending + step).initialize(to: Atomic(0))
            (slots + step).initialize(to: Atomic(-1))
        }
    }

    deinit {
        roots.deallocate()
        dependentStart.deallocate()
        dependents.deallocate()
        initialPending.deallocate()
        pending.deinitialize(count: stepCount)
        pending.deallocate()
        slots.deinitialize(count: stepCount)
        slots.deallocate()
    }

    /// Prepares a slice: every counter at its start value, the queue empty. Returns the
    /// first root, for the calling thread to render itself, after queueing the others.
    /// - Thread: [render] the calling thread, while no worker is in the slice.
    func begin() -> Int32 {
        for step in 0..<stepCount {
            pending[step].store(initialPending[step], ordering: .relaxed)
            slots[step].store(-1, ordering: .relaxed)
        }
        head.store(0, ordering: .relaxed)
        tail.store(0, ordering: .relaxed)
        remaining.store(Int32(stepCount), ordering: .releasing)
        guard roots.count > 0 else { return -1 }
        // Indices, not dropFirst(): its slice allocates in debug builds.
        for index in 1..<roots.count { push(roots[index]) }
        return roots[0]
    }

    /// Marks `step` rendered: each dependent whose last dependency it was becomes ready.
    /// Returns one of them for the calling thread to render next (-1: none) and queues the
    /// others.
    /// - Thread: [render]
    @inline(__always)
    func complete(_ step: Int32) -> Int32 {
        var next: Int32 = -1
        for index in Int(dependentStart[Int(step)])..<Int(dependentStart[Int(step) + 1]) {
            let dependent = dependents[index]
            guard pending[Int(dependent)].subtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { continue }
            if next < 0 { next = dependent } else { push(dependent) }
        }
        remaining.subtract(1, ordering: .acquiringAndReleasing)
        return next
    }

    /// Takes a ready step; -1 when none is queued now.
    /// - Thread: [render]
    @inline(__always)
    func pop() -> Int32 {
        while true {
            let taken = head.load(ordering: .acquiring)
            guard taken < tail.load(ordering: .acquiring) else { return -1 }
            let step = slots[Int(taken)].load(ordering: .acquiring)
            // Reserved by a push that has not stored the step yet.
            if step < 0 {
                au_cpu_relax()
                continue
            }
            if head.compareExchange(expected: taken, desired: taken + 1, ordering: .acquiringAndReleasing).exchanged { return step }
        }
    }

    @inline(__always)
    private func push(_ step: Int32) {
        let slot = tail.add(1, ordering: .acquiringAndReleasing).oldValue
        slots[Int(slot)].store(step, ordering: .releasing)
    }
}
