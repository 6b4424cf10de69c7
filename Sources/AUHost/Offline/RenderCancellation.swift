import Dispatch
import Foundation
import Synchronization

/// Stops a render run early: SIGINT, SIGTERM or SIGHUP (while ``watchSignals()`` is in effect) or
/// ``cancel()`` sets a flag that each job's loop reads once per cycle; the job then abandons
/// its output (nothing is left at its path) and the jobs not started are skipped.
/// - Thread: [any] ``isCancelled`` is one relaxed atomic load, fit for the render loop.
public final class RenderCancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    /// The signal that cancelled, 0 for none (or ``cancel()``).
    private let signalNumber = Atomic<Int32>(0)
    /// The signals ``watchSignals()`` turns into a cancel.
    public static let watchedSignals = [SIGINT, SIGTERM, SIGHUP]
    private let sources = Mutex<[any DispatchSourceSignal]>([])

    /// - Thread: [any]
    public init() {}

    /// - Thread: [any]
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }

    /// The signal that cancelled the run, if one did.
    /// - Thread: [any]
    public var signal: Int32? {
        let number = signalNumber.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// The exit status a run cancelled by ``signal`` reports: 128 + the signal (130 for
    /// SIGINT, 143 for SIGTERM, 129 for SIGHUP), 130 when cancelled without one.
    /// - Thread: [any]
    public var exitStatus: Int32 { 128 + (signal ?? SIGINT) }

    /// - Thread: [any]
    public func cancel() { flag.store(true, ordering: .relaxed) }

    /// Turns SIGINT, SIGTERM and SIGHUP into ``cancel()`` until ``stopWatchingSignals()``.
    /// - Thread: [control]
    public func watchSignals() {
        sources.withLock { sources in
            for number in Self.watchedSignals {
                Glibc.signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [self] in
                    _ = signalNumber.compareExchange(expected: 0, desired: number, ordering: .relaxed)
                    cancel()
                }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Restores the default handling of the watched signals.
    /// - Thread: [control]
    public func stopWatchingSignals() {
        sources.withLock { sources in
            for source in sources { source.cancel() }
            sources.removeAll()
        }
        for number in Self.watchedSignals { Glibc.signal(number, SIG_DFL) }
    }
}
