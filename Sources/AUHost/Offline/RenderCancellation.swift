import Dispatch
import Foundation
import Synchronization

/// Stops a render run early: SIGINT or SIGTERM (while ``watchSignals()`` is in effect) or
/// ``cancel()`` sets a flag that each job's loop reads once per cycle; the job then abandons
/// its output (nothing is left at its path) and the jobs not started are skipped.
/// - Thread: any. ``isCancelled`` is one relaxed atomic load, fit for the render loop.
public final class RenderCancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    private let sources = Mutex<[any DispatchSourceSignal]>([])

    public init() {}

    public var isCancelled: Bool { flag.load(ordering: .relaxed) }

    public func cancel() { flag.store(true, ordering: .relaxed) }

    /// Turns SIGINT and SIGTERM into ``cancel()`` until ``stopWatchingSignals()``.
    /// - Thread: control.
    public func watchSignals() {
        sources.withLock { sources in
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [self] in cancel() }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Restores the default handling of SIGINT and SIGTERM.
    /// - Thread: control.
    public func stopWatchingSignals() {
        sources.withLock { sources in
            for source in sources { source.cancel() }
            sources.removeAll()
        }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
