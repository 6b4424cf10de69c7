import AUCore

extension BatchRenderer {
    /// Renders a job; when an isolated node's child crashed, exited or hung
    /// (`InstanceInvalidated`), renders it once more through fresh children: a file fails
    /// only when both tries fail, and says so.
    /// - Thread: [control] (a worker), playing the render thread for its graph.
    func renderRetryingIsolationFaults(
        _ job: RenderJob, progress: (Int) -> Void, notice: (String) -> Void, deferringCommitTo deferred: DeferredCommit? = nil
    ) -> Result<RenderReport, AudioUnitError> {
        let first = render(job, progress: progress, notice: notice, deferringCommitTo: deferred)
        guard case .failure(let fault) = first, fault.code == .instanceInvalidated, !cancellation.isCancelled else { return first }
        switch render(job, progress: progress, notice: { _ in }, deferringCommitTo: deferred) {
        case .success(var report):
            report.faults.insert("\(fault.message); the second try, in fresh processes, rendered it", at: 0)
            return .success(report)
        case .failure(let again):
            return .failure(AudioUnitError(again.code, "\(again.message) (tried twice, each time in fresh processes)"))
        }
    }
}
