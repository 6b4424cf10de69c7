import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A list of values the control side replaces and the render thread reads, without a lock
/// on either side of the render: ``publish(_:)`` makes an immutable copy, publishes it in
/// a ``RenderSlot`` and frees the copy it replaced once no render reads it
/// (it waits for a render in progress, one cycle at most); ``read(_:)`` counts itself as a
/// reader while it looks at the current copy. With an empty list a read is one atomic load.
/// - Thread: [control] for ``publish(_:)``; render for ``read(_:)``.
package final class RenderSnapshot<Item>: @unchecked Sendable {
    /// One published copy, never changed.
    private final class Copy: @unchecked Sendable {
        let items: UnsafeMutableBufferPointer<Item>
        init(_ items: [Item]) {
            self.items = .allocate(capacity: items.count)
            _ = self.items.initialize(from: items)
        }
        deinit {
            items.deinitialize()
            items.deallocate()
        }
    }

    /// The published copy, empty when the list is empty.
    private let published = RenderSlot<Copy>()
    /// Renders reading the copy now.
    private let readers = Atomic<Int>(0)
    /// The published copy, kept alive here (control side).
    private let current = Mutex<Copy?>(nil)

    /// An empty list.
    package init() {}

    /// Whether nothing is published: one relaxed load, for a caller that skips its set-up.
    /// - Thread: [any]
    @inline(__always)
    package var isEmpty: Bool { published.isEmpty }

    /// Replaces the list; when it returns, no render reads the previous one (so never from
    /// a render: it would wait for itself).
    /// - Thread: [control]
    package func publish(_ items: [Item]) {
        RenderThread.assertNotCurrent("publishing to the render thread (MakeConnection, SetRenderCallback, render notifications)")
        current.withLock { current in
            let copy = items.isEmpty ? nil : Copy(items)
            let replaced = current
            published.publish(copy)
            while readers.load(ordering: .sequentiallyConsistent) != 0 {
                var pause = timespec(tv_sec: 0, tv_nsec: 50_000)
                nanosleep(&pause, nil)
            }
            current = copy
            // Held to here explicitly: an optimized build may otherwise free the replaced
            // copy as soon as it leaves `current`, before the wait above.
            withExtendedLifetime(replaced) {}
        }
    }

    /// Calls `body` with the current list (empty when there is none).
    /// - Thread: [render] No allocation, no lock.
    @inline(__always)
    package func read<Result>(_ body: (UnsafeMutableBufferPointer<Item>) -> Result) -> Result {
        guard !published.isEmpty else { return body(UnsafeMutableBufferPointer(start: nil, count: 0)) }
        readers.add(1, ordering: .sequentiallyConsistent)
        defer { readers.subtract(1, ordering: .sequentiallyConsistent) }
        guard let copy = published.reference else { return body(UnsafeMutableBufferPointer(start: nil, count: 0)) }
        return copy._withUnsafeGuaranteedRef { body($0.items) }
    }
}
