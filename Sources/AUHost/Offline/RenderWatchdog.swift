import AUCore
import AUEngine
import Foundation
import Synchronization

/// Ends an offline render that a unit has stopped: a plugin whose `run()` never returns
/// would otherwise hang `auhost render` forever, deaf to SIGINT and SIGTERM (they only set
/// a flag the stuck loop never reads again).
///
/// While a job renders, a control thread of the watchdog reads its graph's
/// ``AudioGraph/renderActivity`` (the cycles rendered and the node, or the song's player, the
/// render thread is inside: two relaxed loads the render loop's stores make cheap) four times per
/// ``interruptedTimeout``. When the render thread is inside a node or the player and neither changes for
/// ``timeout`` seconds — or for ``interruptedTimeout`` once the render was cancelled (a
/// signal or `quit`) — the render is stuck: a thread inside a unit
/// cannot be taken back, so the watchdog calls its stall action with a ``Stall`` naming
/// the job and the place, and the standard action prints it and ends the process with
/// status 1.
/// - Thread: [control] ``watch(_:job:cancellation:)`` and ``Watch/stop()`` from
///   the job's thread; the stall action on the watchdog's thread.
public final class RenderWatchdog: Sendable {
    /// A render that made no progress.
    /// - Thread: [control]
    public struct Stall: Sendable, Error {
        /// The job's input file (live: the preset).
        public var job: String
        /// What the render thread is inside: `node 'id' (unit name, reference)` or `the song's player`.
        public var place: String
        /// Seconds without progress.
        public var seconds: TimeInterval
        /// Whether the render had been cancelled (SIGINT or SIGTERM) and did not stop.
        public var wasInterrupted: Bool

        /// `IN.wav: node 'verb' (Name, URI) has not returned for 10 s: the render is stuck; ending the process`.
        /// - Thread: [control]
        public var message: String {
            "\(job): \(place) has not returned for \(ProbeProcess.seconds(seconds)) s"
                + "\(wasInterrupted ? " after an interrupt" : ""): the render is stuck; ending the process"
        }
    }

    /// Seconds without progress before a render is stuck.
    public let timeout: TimeInterval
    /// Seconds without progress, once the render was cancelled, before it is stuck.
    public let interruptedTimeout: TimeInterval
    private let action: @Sendable (Stall) -> Void

    /// The environment variable that sets the standard watchdog's timeout in seconds.
    public static let timeoutVariable = "AUHOST_RENDER_WATCHDOG"

    /// A watchdog calling `onStall` for a render without progress for `timeout` seconds
    /// (`interruptedTimeout` once cancelled).
    /// - Thread: [control]
    public init(timeout: TimeInterval = 10, interruptedTimeout: TimeInterval = 1, onStall: @escaping @Sendable (Stall) -> Void = RenderWatchdog.endProcess) {
        self.timeout = timeout
        self.interruptedTimeout = min(timeout, interruptedTimeout)
        action = onStall
    }

    /// The watchdog of `auhost render` and ``BatchRenderer``: 10 s, or `AUHOST_RENDER_WATCHDOG`
    /// seconds when set to a positive number; ends the process on a stall.
    /// - Thread: [control]
    public static func standard() -> RenderWatchdog {
        let configured = ProcessInfo.processInfo.environment[timeoutVariable].flatMap(TimeInterval.init).flatMap { $0 > 0 ? $0 : nil }
        return RenderWatchdog(timeout: configured ?? 10)
    }

    /// The standard stall action: the stall's message on standard error, then exit status 1.
    public static let endProcess: @Sendable (Stall) -> Void = { stall in
        FileHandle.standardError.write(Data("auhost: \(stall.message)\n".utf8))
        exit(1)
    }

    /// One render being watched; ``stop()`` when it is over.
    /// - Thread: [control]
    public final class Watch: Sendable {
        fileprivate let isStopped = Atomic<Bool>(false)
        /// Stops watching (the watchdog's thread ends within a quarter of ``RenderWatchdog/interruptedTimeout``).
        /// - Thread: [control]
        public func stop() { isStopped.store(true, ordering: .relaxed) }
    }

    /// Watches `chain` while it renders `job` (its input file's path); `cancellation`, once
    /// set, shortens the timeout to ``interruptedTimeout``.
    /// - Thread: [control]
    public func watch(_ chain: ChainGraph, job: String, cancellation: RenderCancellation?) -> Watch {
        let nodeNames = Dictionary(uniqueKeysWithValues: zip(chain.nodes, chain.loaded.nodes).map { entry, loaded in
            (entry.node, "'\(entry.id)' (\(loaded.component.name), \(loaded.reference))")
        })
        let graph = chain.graph
        let watch = Watch()
        let thread = Thread { [self] in
            var last = graph.renderActivity
            var lastChange = Date()
            while !watch.isStopped.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: interruptedTimeout / 4)
                let now = graph.renderActivity
                if now != last {
                    last = now
                    lastChange = Date()
                    continue
                }
                let interrupted = cancellation?.isCancelled ?? false
                let idle = Date().timeIntervalSince(lastChange)
                // Only a call into a unit or the song's player can be stuck: between cycles
                // (reading, writing, winding up after an interrupt) the render thread is the host's.
                let place = now.node.map { "node \(nodeNames[$0] ?? $0.description)" } ?? (now.isSchedulingMIDI ? "the song's player" : nil)
                guard let place, idle >= (interrupted ? interruptedTimeout : timeout), !watch.isStopped.load(ordering: .relaxed) else { continue }
                action(Stall(job: job, place: place, seconds: idle.rounded(), wasInterrupted: interrupted))
                return
            }
        }
        thread.name = "auhost render watchdog"
        thread.start()
        return watch
    }
}
