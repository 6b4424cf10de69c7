import Synchronization

/// A Boolean any thread may read and write without a lock (a unit's bypass switch).
/// - Thread: any.
final class AtomicFlag: Sendable {
    private let storage = Atomic<Bool>(false)
    var value: Bool {
        get { storage.load(ordering: .relaxed) }
        set { storage.store(newValue, ordering: .relaxed) }
    }
}

/// A status any thread may read and write without a lock (a unit's last render error).
/// - Thread: any.
final class AtomicStatus: Sendable {
    private let storage = Atomic<Int32>(0)
    var value: AudioUnitStatus {
        get { storage.load(ordering: .relaxed) }
        set { storage.store(newValue, ordering: .relaxed) }
    }
}
