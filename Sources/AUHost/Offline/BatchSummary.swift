import AUCore

/// What a batch render did, as the one line `auhost render` ends a batch with: the files
/// rendered of those asked for, how many failed and were skipped, the length of the audio
/// written, the time it took and the speed as a multiple of real time.
/// - Thread: [any]
public struct BatchSummary: Sendable, Equatable {
    public var rendered = 0
    public var failed = 0
    /// Jobs left out because their output existed (`--skip-existing`).
    public var skipped = 0
    /// The rendered outputs' length, in seconds of audio.
    public var audioSeconds = 0.0
    public var elapsedSeconds = 0.0

    /// The summary of `outcomes`, with `skipped` jobs not run, over `elapsedSeconds`.
    /// - Thread: [any]
    public init(outcomes: [Result<RenderReport, AudioUnitError>], skipped: Int, elapsedSeconds: Double) {
        for outcome in outcomes {
            switch outcome {
            case .success(let report):
                rendered += 1
                audioSeconds += report.duration
            case .failure:
                failed += 1
            }
        }
        self.skipped = skipped
        self.elapsedSeconds = elapsedSeconds
    }

    /// `batch: 2 of 4 files rendered (1 failed, 1 skipped), 0:04.2 of audio in 1.3 s, 3.2× real time`.
    /// - Thread: [any]
    public var text: String {
        let total = rendered + failed + skipped
        var apart: [String] = []
        if failed > 0 { apart.append("\(failed) failed") }
        if skipped > 0 { apart.append("\(skipped) skipped") }
        var line = "batch: \(rendered) of \(total) file\(total == 1 ? "" : "s") rendered"
        if !apart.isEmpty { line += " (" + apart.joined(separator: ", ") + ")" }
        line += ", \(RenderReport.clock(audioSeconds)) of audio in \(String(format: "%.1f", elapsedSeconds)) s"
        if elapsedSeconds > 0 && audioSeconds > 0 { line += String(format: ", %.1f× real time", audioSeconds / elapsedSeconds) }
        return line
    }
}
