import AUHost
import Foundation
import Synchronization

/// Ends the process when a stop (`quit`, SIGINT, SIGTERM, the song's end) takes longer than
/// ``seconds``, whatever holds it: a JACK server that no longer answers the client's close,
/// a unit's dispose that never returns. (A render thread stuck inside a unit or the song's
/// player is the render watchdog's, within its one-second interrupted timeout.) Armed once;
/// the process exits normally long before it fires.
/// - Thread: [any]
final class StopDeadline: Sendable {
    /// Seconds a stop may take.
    let seconds: TimeInterval
    private let isArmed = Atomic<Bool>(false)

    /// The environment variable that sets ``seconds`` (a positive number).
    static let variable = "AUHOST_STOP_DEADLINE"

    /// A deadline of `AUHOST_STOP_DEADLINE` seconds when set to a positive number, else 3 s.
    /// - Thread: [any]
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        seconds = environment[Self.variable].flatMap(TimeInterval.init).flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? 3
    }

    /// Starts the countdown (once; later calls do nothing): after ``seconds``, one line on
    /// standard error and exit status 1.
    /// - Thread: [any]
    func arm() {
        guard !isArmed.exchange(true, ordering: .relaxed) else { return }
        let seconds = seconds
        let thread = Thread {
            Thread.sleep(forTimeInterval: seconds)
            let text = "\nauhost: the stop did not finish within \(ProbeProcess.seconds(seconds)) s; ending the process\n"
            _ = text.withCString { write(2, $0, strlen($0)) }
            _exit(1)
        }
        thread.name = "auhost stop deadline"
        thread.start()
    }
}
