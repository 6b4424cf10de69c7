import Synchronization

/// A small mutex wrapper for test bookkeeping (never used on a render path).
final class NSLockLike: Sendable {
    private let mutex = Mutex<Void>(())
    func with<T>(_ body: () -> T) -> T { mutex.withLock { _ in body() } }
}
