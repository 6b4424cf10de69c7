import Foundation
internal import AUEngine

/// One lock for the C API's control side: AUHost's control calls are made from one thread
/// at a time, and a C program may call from several (its main thread, a UI thread) while
/// the library's notification pump runs. Recursive, since a property listener called inside
/// a property change may call the API again. The render path (AudioUnitRender, callbacks)
/// never takes it.
let apiLock = NSRecursiveLock()

/// Delivers what a running graph's render thread left for listeners (meters, render errors,
/// latency changes), about every 20 ms on a thread of the library's, so that a Core Audio
/// program, which never calls a dispatch function, hears them. It only tries the API lock:
/// a control call in progress (one that may wait for the render thread) is never waited for.
final class NotificationPump: @unchecked Sendable {
    private let timer: DispatchSourceTimer

    init(graph: AudioGraph) {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + .milliseconds(20), repeating: .milliseconds(20))
        timer.setEventHandler { [weak graph] in
            guard let graph, apiLock.try() else { return }
            defer { apiLock.unlock() }
            _ = graph.dispatchPendingNotifications()
        }
        timer.resume()
    }

    /// Stops the pump; no delivery starts after this returns.
    func stop() {
        timer.cancel()
        apiLock.lock()  // a delivery in progress holds the lock (recursive: safe under it)
        apiLock.unlock()
    }

    deinit { timer.cancel() }
}
