import Synchronization

/// One pointer the control side publishes to the render thread: a word in its owner (a
/// `let`, as an `Atomic`) that a render reads with one load, without a lock, a retain or
/// an exclusivity check. Stores and loads are sequentially consistent, so that a publisher
/// that then counts the readers (``RenderSnapshot``) sees every render that may still hold
/// the pointer it replaced.
///
/// The slot holds its pointer unretained: whoever publishes keeps the object or memory
/// alive until no render reads it, and says how: it publishes only while no render runs (a
/// unit's render resources), waits for the readers to leave (``RenderSnapshot``), takes the
/// replaced one back once the render thread handed it on (a graph's plans), or stops the
/// callback that reads it first (JACK's cycle).
///
/// The render side's members are `@inlinable`: a render in another module (an LV2 unit, the
/// bridge) then reads the slot specialized for its type. Called through the generic entry
/// point they looked up `Unmanaged<T>`'s metadata on every call (`_swift_getGenericMetadata`:
/// 4 % of `auhost bench graph --profile graph`, the reference chain 7 % slower than before
/// the slot).
/// - Thread: [any] each member says which side calls it.
package struct RenderSlot<Pointee>: ~Copyable, @unchecked Sendable {
    /// The published address, 0 when none.
    @usableFromInline let address = Atomic<UInt>(0)

    /// An empty slot.
    package init() {}

    /// Whether nothing is published: one load.
    /// - Thread: [any]
    @inlinable @inline(__always)
    package var isEmpty: Bool { address.load(ordering: .relaxed) == 0 }

    @inline(__always)
    private func exchangeAddress(_ new: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        UnsafeMutableRawPointer(bitPattern: address.exchange(UInt(bitPattern: new), ordering: .sequentiallyConsistent))
    }

    @usableFromInline @inline(__always)
    var loadedAddress: UnsafeMutableRawPointer? {
        UnsafeMutableRawPointer(bitPattern: address.load(ordering: .sequentiallyConsistent))
    }
}

extension RenderSlot where Pointee: AnyObject {
    /// Publishes `object` (nil: none), unretained: the caller keeps it alive while a render
    /// may read it.
    /// - Thread: [control], or the render thread for the slot of its current plan.
    @inline(__always)
    package func publish(_ object: Pointee?) {
        _ = exchangeAddress(object.map { Unmanaged.passUnretained($0).toOpaque() })
    }

    /// Publishes `object` (nil: none) and returns the one it replaces, each owned as the
    /// caller owns it (a reference passed retained comes back retained).
    /// - Thread: [control], or the render thread taking what the control side handed over.
    @inline(__always)
    package func exchange(_ object: Unmanaged<Pointee>?) -> Unmanaged<Pointee>? {
        exchangeAddress(object?.toOpaque()).map { Unmanaged.fromOpaque($0) }
    }

    /// The published object, unretained.
    /// - Thread: [render] No allocation, no lock, no retain.
    @inlinable @inline(__always)
    package var reference: Unmanaged<Pointee>? {
        guard let address = loadedAddress else { return nil }
        return Unmanaged.fromOpaque(address)
    }

    /// The published object as the class its publisher stored (a slot of `AnyObject` that a
    /// subclass fills), unretained.
    /// - Thread: [render] No allocation, no lock, no retain.
    @inlinable @inline(__always)
    package func reference<Stored: AnyObject>(as type: Stored.Type) -> Unmanaged<Stored>? {
        guard let address = loadedAddress else { return nil }
        return Unmanaged.fromOpaque(address)
    }
}

extension RenderSlot {
    /// Publishes `pointer` to plain memory (nil: none) and returns the one it replaces, for
    /// the caller to free once no render reads it.
    /// - Thread: [control]
    @inline(__always)
    package func exchange(pointer: UnsafeMutablePointer<Pointee>?) -> UnsafeMutablePointer<Pointee>? {
        exchangeAddress(pointer.map { UnsafeMutableRawPointer($0) })?.assumingMemoryBound(to: Pointee.self)
    }

    /// The published memory.
    /// - Thread: [render] No allocation, no lock.
    @inlinable @inline(__always)
    package var pointer: UnsafeMutablePointer<Pointee>? { loadedAddress?.assumingMemoryBound(to: Pointee.self) }
}
