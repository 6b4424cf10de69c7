import Synchronization

/// System-exclusive messages on their way to a unit's render: a bounded queue from the
/// control side (`MusicDeviceSysEx`, applied at the start of the next render call) and one
/// from the render thread (a player's raw-data events, each at its sample time). A unit that
/// takes SysEx owns one, publishes it through ``property`` (so a caller finds it without a
/// cast) and drains it in its render with ``nextDue(before:)``. Each side copies a message's
/// bytes into a slot of its own preallocated pool and queues a plain ``Message`` naming the
/// slot: nothing allocates after init (and no generic value type is first met on the render
/// thread, whose metadata the runtime would allocate). A message longer than
/// ``maximumLength`` or a full queue is refused.
/// - Thread: [control] ``send(_:)``; [render] ``sendFromRender(_:atSampleTime:)`` (one
///   producer, the thread that renders the unit's graph) and ``nextDue(before:)`` and
///   ``bytes(of:)`` (the unit's render).
public final class SysExQueue: @unchecked Sendable {
    /// The longest message kept, F0 and F7 included (a GM, GS or XG reset and the Universal
    /// Real Time device controls are at most 11 bytes; bulk dumps do not fit).
    public static let maximumLength = 64
    /// Messages waiting on each side at most.
    public static let capacity = 64

    /// A unit's queue (global scope, read-only), the property a unit that takes SysEx declares.
    public static let property = PropertyKey<SysExQueue?>(custom: PropertyID(rawValue: 64102))

    /// One message: when it is due and where its bytes are.
    /// - Thread: [any]
    public struct Message: BitwiseCopyable {
        /// The sample time at which it takes effect (`Int64.min`: at the start of the next call).
        public var sampleTime: Int64
        var length: Int32
        /// The slot of its bytes, in the pool of its side (``Side``).
        var slot: Int32
        var fromControl: Bool
    }

    /// One producer's ring and pool. The pool has slots for twice ``capacity`` messages,
    /// filled in turn, and at most ``capacity`` wait in the ring beside the one the consumer
    /// holds, so a slot is written again only after its message was taken.
    private final class Side {
        let ring = RealTimeRing<Message>(minimumCapacity: SysExQueue.capacity + 1)
        let pool = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * SysExQueue.capacity * SysExQueue.maximumLength)
        /// The next message's number (producer side only).
        var next = 0

        deinit { pool.deallocate() }

        /// Copies `bytes` into the next slot and queues them for `sampleTime`.
        func push(_ bytes: UnsafeBufferPointer<UInt8>, at sampleTime: Int64, fromControl: Bool) -> Bool {
            guard bytes.count <= SysExQueue.maximumLength, ring.count < SysExQueue.capacity, let source = bytes.baseAddress else { return false }
            let slot = next % (2 * SysExQueue.capacity)
            (pool + slot * SysExQueue.maximumLength).update(from: source, count: bytes.count)
            guard ring.push(Message(sampleTime: sampleTime, length: Int32(bytes.count), slot: Int32(slot), fromControl: fromControl)) else { return false }
            next += 1
            return true
        }
    }

    private let control = Side()
    private let render = Side()
    /// ``control`` and ``render`` as the render thread reads them (no retain).
    private let controlSide: Unmanaged<Side>
    private let renderSide: Unmanaged<Side>
    /// The control side's producers take turns.
    private let producers = Mutex<Void>(())
    /// A render message popped but not yet due (render side only; plain memory).
    private let held: UnsafeMutablePointer<Message?>

    /// - Thread: [control]
    public init() {
        controlSide = Unmanaged.passUnretained(control)
        renderSide = Unmanaged.passUnretained(render)
        held = .allocate(capacity: 1)
        held.initialize(to: nil)
    }

    deinit { held.deallocate() }

    /// Queues `bytes` for the start of the unit's next render call; false when the message
    /// is longer than ``maximumLength`` or the queue is full.
    /// - Thread: [control]
    public func send(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        producers.withLock { _ in control.push(bytes, at: .min, fromControl: true) }
    }

    /// Queues `bytes` for `sampleTime` from the render thread; false when too long or full.
    /// - Thread: [render] No allocation, no lock.
    public func sendFromRender(_ bytes: UnsafeBufferPointer<UInt8>, atSampleTime sampleTime: Int64) -> Bool {
        renderSide._withUnsafeGuaranteedRef { $0.push(bytes, at: sampleTime, fromControl: false) }
    }

    /// The next message due before sample time `end`, removed from the queue: the control
    /// side's first, then the render side's in the order they were sent; nil when none is due.
    /// Its bytes (``bytes(of:)``) stay until the next call.
    /// - Thread: [render] No allocation, no lock.
    public func nextDue(before end: Int64) -> Message? {
        if let message = controlSide._withUnsafeGuaranteedRef({ $0.ring.pop() }) { return message }
        if held.pointee == nil { held.pointee = renderSide._withUnsafeGuaranteedRef { $0.ring.pop() } }
        guard let message = held.pointee, message.sampleTime < end else { return nil }
        held.pointee = nil
        return message
    }

    /// A message's bytes, F0 to F7.
    /// - Thread: [render]
    public func bytes(of message: Message) -> UnsafeBufferPointer<UInt8> {
        let side = message.fromControl ? controlSide : renderSide
        return side._withUnsafeGuaranteedRef {
            UnsafeBufferPointer(start: $0.pool + Int(message.slot) * SysExQueue.maximumLength, count: Int(message.length))
        }
    }
}
