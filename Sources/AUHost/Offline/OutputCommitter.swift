import AUCore
import Dispatch

/// Puts a batch's rendered outputs in place off its render workers: a file's commit (the
/// `fsync` of its contents, the rename, the `fsync` of its folder: milliseconds of waiting
/// for the disk per file, a fifth of a batch of one-second files) runs on one thread of its
/// own, in job order, while the worker that rendered it renders the next file. A file still
/// appears at its path only once it is on disk whole. At most ``capacity`` commits wait (a
/// worker then waits too), so few outputs are open at once.
/// - Thread: [control] to make and ``drain()``; ``enqueue(_:)`` from the workers.
final class OutputCommitter: Sendable {
    static let capacity = 8
    private let queue = DispatchQueue(label: "auhost render commit")
    private let slots = DispatchSemaphore(value: capacity)
    private let group = DispatchGroup()

    /// Runs `work` on the committer's thread after everything enqueued before it.
    func enqueue(_ work: @escaping @Sendable () -> Void) {
        slots.wait()
        queue.async(group: group) { [slots] in
            work()
            slots.signal()
        }
    }

    /// Waits until everything enqueued has run.
    func drain() { group.wait() }
}

/// The commit a job's render left for the ``OutputCommitter``: set once the output is
/// complete under its temporary name.
/// - Thread: [control] the job's worker sets it; the committer's thread runs it.
final class DeferredCommit: @unchecked Sendable {
    var commit: (() throws(AudioUnitError) -> Void)?

    /// `outcome`, with the output put in place first when it succeeded (a failed commit
    /// fails the job; nothing is left at its path).
    func committing(_ outcome: Result<RenderReport, AudioUnitError>) -> Result<RenderReport, AudioUnitError> {
        guard case .success(let report) = outcome, let commit else { return outcome }
        return Result { () throws(AudioUnitError) in
            try commit()
            return report
        }
    }
}
