import AUCore
import Foundation

/// A fixed ring of audio slots handed back and forth between the job's thread and a
/// worker thread (``InputPipeline``'s reader, ``OutputPipeline``'s writer): the side that
/// fills a slot waits for a free one, writes it and its count, and marks it filled; the
/// side that drains it waits for a filled one and marks it free. Both walk the slots in
/// the same order, so neither needs more than its own index.
/// - Thread: [any] the filling side and the draining side each on one thread.
final class SlotRing: @unchecked Sendable {
    let slots: [OwnedAudioBuffers]
    /// Frames in each slot, written by the filling side before it marks the slot filled.
    let counts: UnsafeMutablePointer<Int>
    /// Semaphores start at zero and are signalled up: libdispatch refuses to free one left
    /// below the value it was made with.
    private let free = DispatchSemaphore(value: 0)
    private let filled = DispatchSemaphore(value: 0)
    private let workerLeft = DispatchSemaphore(value: 0)

    /// `slotCount` free slots of `channels` channels and `capacity` frames.
    /// - Thread: [control]
    init(slotCount: Int, channels: Int, capacity: Int) {
        slots = (0..<slotCount).map { _ in OwnedAudioBuffers(channels: channels, capacity: capacity) }
        counts = .allocate(capacity: slotCount)
        counts.initialize(repeating: 0, count: slotCount)
        for _ in 0..<slotCount { free.signal() }
    }

    deinit { counts.deallocate() }

    /// Runs `body` on a new thread named `name`; ``waitForWorker()`` returns once it did.
    func startWorker(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            body()
            workerLeft.signal()
        }
        thread.name = name
        thread.start()
    }

    func waitForWorker() { workerLeft.wait() }

    /// The slot after `slot`, in the order both sides walk.
    func after(_ slot: Int) -> Int { (slot + 1) % slots.count }

    /// Filling side: waits until the next slot is free.
    func awaitFree() { free.wait() }
    /// Filling side: the slot it holds is written (or it holds the end).
    func markFilled() { filled.signal() }
    /// Draining side: waits until the next slot is filled.
    func awaitFilled() { filled.wait() }
    /// Draining side: the slot it held may be filled again.
    func markFree() { free.signal() }
}
