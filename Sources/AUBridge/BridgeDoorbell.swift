import CAUSupport
import Glibc

/// A unit-host child's doorbell (`au_bridge_doorbell`): a small memfd the host makes for
/// each child and both map. The child's one render thread sleeps on it for the requests of
/// all its units; the host rings it when it posts a request while that thread sleeps, and
/// sets how long the thread spins for a request before it sleeps.
/// - Thread: [control] to make; the pointer is used on both processes' render threads.
final class BridgeDoorbell: @unchecked Sendable {
    /// The bytes of the memfd.
    static let size = 64
    let pointer: UnsafeMutablePointer<au_bridge_doorbell>

    /// Maps `descriptor` (``size`` bytes, read and write, shared).
    init?(descriptor: Int32) {
        guard let mapped = mmap(nil, Self.size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED else { return nil }
        pointer = mapped.bindMemory(to: au_bridge_doorbell.self, capacity: 1)
    }

    deinit { munmap(pointer, Self.size) }

    /// Seconds the child's render thread spins for a request after its last one before it sleeps.
    var spin: Double {
        get { Double(au_bridge_doorbell_spin(pointer)) / 1e9 }
        set { pointer.pointee.spinNanos = UInt64(max(0, newValue) * 1e9) }
    }

    /// How many times the host has rung the doorbell (woken the child's sleeping render thread).
    var rings: UInt32 { pointer.pointee.rings }

    /// Whether the child's render thread sleeps now (neither renders nor spins).
    var childSleeps: Bool { pointer.pointee.sleeping != 0 }
}
