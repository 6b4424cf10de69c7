import Synchronization

/// A fixed-capacity single-producer / single-consumer ring of variable-size messages
/// (a 4-byte length, then the bytes): how worker requests and responses cross threads.
/// A message becomes visible whole or not at all; a full ring refuses it.
/// - Thread: [control] init / deinit; ``write(_:count:)`` on the producer's
///   thread, ``read(into:capacity:)`` on the consumer's; never allocates or locks.
final class ByteRing: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private let head = Atomic<Int>(0)  // bytes read, written by the consumer
    private let tail = Atomic<Int>(0)  // bytes written, written by the producer

    init(capacity: Int) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
        storage.initialize(repeating: 0, count: capacity)
    }

    deinit { storage.deallocate() }

    /// Appends one message; false when it does not fit.
    /// - Thread: [any] the one producer's thread.
    func write(_ bytes: UnsafeRawPointer?, count: Int) -> Bool {
        let tailIndex = tail.load(ordering: .relaxed)
        let free = capacity - (tailIndex - head.load(ordering: .acquiring))
        guard count >= 0, count + 4 <= free else { return false }
        var length = UInt32(count)
        withUnsafeBytes(of: &length) { copyIn($0.baseAddress!, count: 4, at: tailIndex) }
        if let bytes, count > 0 { copyIn(bytes, count: count, at: tailIndex + 4) }
        tail.store(tailIndex + 4 + count, ordering: .releasing)
        return true
    }

    /// Takes the oldest message into `buffer` and returns its size, or nil when the ring is
    /// empty or the message is larger than `capacity` (then it is dropped).
    /// - Thread: [any] the one consumer's thread.
    func read(into buffer: UnsafeMutableRawPointer, capacity bufferCapacity: Int) -> Int? {
        guard let size = nextMessageSize else { return nil }
        let headIndex = head.load(ordering: .relaxed)
        guard size <= bufferCapacity else {
            head.store(headIndex + 4 + size, ordering: .releasing)
            return nil
        }
        copyOut(buffer, count: size, at: headIndex + 4)
        head.store(headIndex + 4 + size, ordering: .releasing)
        return size
    }

    /// The size of the oldest message, nil when the ring is empty.
    /// - Thread: [any] the one consumer's thread.
    var nextMessageSize: Int? {
        let headIndex = head.load(ordering: .relaxed)
        guard tail.load(ordering: .acquiring) - headIndex >= 4 else { return nil }
        var length: UInt32 = 0
        withUnsafeMutableBytes(of: &length) { copyOut($0.baseAddress!, count: 4, at: headIndex) }
        return Int(length)
    }

    private func copyIn(_ source: UnsafeRawPointer, count: Int, at position: Int) {
        let start = position % capacity
        let first = min(count, capacity - start)
        UnsafeMutableRawPointer(storage + start).copyMemory(from: source, byteCount: first)
        if first < count { UnsafeMutableRawPointer(storage).copyMemory(from: source + first, byteCount: count - first) }
    }

    private func copyOut(_ target: UnsafeMutableRawPointer, count: Int, at position: Int) {
        let start = position % capacity
        let first = min(count, capacity - start)
        target.copyMemory(from: storage + start, byteCount: first)
        if first < count { (target + first).copyMemory(from: storage, byteCount: count - first) }
    }
}
