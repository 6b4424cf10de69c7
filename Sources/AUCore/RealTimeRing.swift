import Synchronization

/// A fixed-capacity single-producer / single-consumer queue of plain values, the way
/// messages cross between the render thread and the others. Never allocates after init,
/// never locks, never blocks: a full ring refuses the push, an empty one returns nil.
///
/// Exactly one thread may push and one may pop at a time. Where several control threads
/// produce, wrap the pushes in ``SharedProducerRing``.
/// - Thread: [any] push on the one producer's thread, pop on the consumer's (either may be
///   the render thread); [control] init and deinit.
public final class RealTimeRing<Element: BitwiseCopyable>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Element>
    private let mask: Int
    /// Next slot to read; written by the consumer only.
    private let head = Atomic<Int>(0)
    /// Next slot to write; written by the producer only.
    private let tail = Atomic<Int>(0)

    /// Makes a ring holding at least `minimumCapacity` elements (rounded up to a power of two).
    /// - Thread: [control]
    public init(minimumCapacity: Int) {
        var capacity = 2
        while capacity < minimumCapacity { capacity <<= 1 }
        storage = .allocate(capacity: capacity)
        mask = capacity - 1
    }

    deinit { storage.deallocate() }

    /// - Thread: [any]
    public var capacity: Int { mask + 1 }

    /// Appends `element`; returns false, changing nothing, when the ring is full.
    /// - Thread: [any] the one producer's thread.
    @discardableResult
    public func push(_ element: Element) -> Bool {
        let tailIndex = tail.load(ordering: .relaxed)
        guard tailIndex - head.load(ordering: .acquiring) <= mask else { return false }
        (storage + (tailIndex & mask)).initialize(to: element)
        tail.store(tailIndex + 1, ordering: .releasing)
        return true
    }

    /// Removes and returns the oldest element, or nil when the ring is empty.
    /// - Thread: [any] the one consumer's thread.
    public func pop() -> Element? {
        let headIndex = head.load(ordering: .relaxed)
        guard headIndex != tail.load(ordering: .acquiring) else { return nil }
        let element = storage[headIndex & mask]
        head.store(headIndex + 1, ordering: .releasing)
        return element
    }

    /// How many elements wait; exact on either end's thread, a snapshot elsewhere.
    /// - Thread: [any]
    public var count: Int { tail.load(ordering: .acquiring) - head.load(ordering: .acquiring) }
}

/// A ring that many control threads may push into (they take turns under a mutex) while
/// one consumer, usually the render thread, pops without any lock.
/// - Thread: [control] push from any thread but the render thread; pop on the one consumer thread.
public final class SharedProducerRing<Element: BitwiseCopyable>: @unchecked Sendable {
    private let ring: RealTimeRing<Element>
    /// ``ring`` unretained, for the consumer: reading the reference itself retains it.
    private let consumerRing: Unmanaged<RealTimeRing<Element>>
    private let producers = Mutex<Void>(())

    /// - Thread: [control]
    public init(minimumCapacity: Int) {
        ring = RealTimeRing(minimumCapacity: minimumCapacity)
        consumerRing = Unmanaged.passUnretained(ring)
    }

    /// Appends `element`; false when the ring is full.
    /// - Thread: [control] (any thread but the render thread).
    @discardableResult
    public func push(_ element: Element) -> Bool {
        producers.withLock { _ in ring.push(element) }
    }

    /// - Thread: [any] the one consumer's thread.
    public func pop() -> Element? { consumerRing._withUnsafeGuaranteedRef { $0.pop() } }

    /// - Thread: [control]
    public var count: Int { ring.count }
}
