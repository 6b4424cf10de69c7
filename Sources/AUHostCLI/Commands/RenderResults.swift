import AUHost
import Foundation

/// `--results RESULTS.jsonl`: one JSON line appended per file as soon as it is done (so a
/// batch killed halfway leaves the lines of the files it finished), written with one
/// `write` each on a descriptor opened for appending (shards of one batch may share a file).
/// - Thread: [control] (the batch's `finished` calls, one at a time).
final class RenderResults: @unchecked Sendable {
    private let handle: FileHandle
    let path: String

    init(path: String) throws(CLIError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CLIError("\(path): cannot open the results file: \(String(cString: strerror(errno)))") }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        self.path = path
    }

    /// Appends the line of `job`: rendered with its report, failed with its error, or skipped.
    func record(_ job: RenderJob, _ outcome: Result<RenderReport, AudioUnitError>?) {
        var row: [String: Any] = ["input": job.input, "output": job.output, "set": job.overrides]
        switch outcome {
        case .success(let report)?:
            row["status"] = "rendered"
            row["seconds"] = report.renderSeconds
            row["frames"] = report.frames
            row["sample_rate"] = report.sampleRate
            row["channels"] = report.channels
            row["peak_dbfs"] = Self.finite(report.levels.samplePeakDBFS)
            row["rms_dbfs"] = Self.finite(report.levels.rmsDBFS)
            if report.levels.measuresTruePeak { row["true_peak_dbtp"] = Self.finite(report.levels.truePeakDBTP) }
            row["warnings"] = report.warnings
        case .failure(let error)?:
            row["status"] = "failed"
            row["error"] = error.message
        case nil:
            row["status"] = "skipped"
        }
        guard var data = try? JSONSerialization.data(withJSONObject: row, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        data.append(0x0A)
        handle.write(data)
    }

    /// JSON has no infinity: a silent file's level in dB is null.
    private static func finite(_ value: Double) -> Any { value.isFinite ? value : NSNull() }
}
