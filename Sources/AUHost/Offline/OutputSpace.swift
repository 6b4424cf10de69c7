import AUCore
import AUFiles
import Foundation

/// Whether an output fits before anything is rendered: its container holds the expected
/// size (AIFF's sizes are 32-bit) and the destination's file system has room for it
/// (`statvfs`). The size is a bound: the input's length plus the longest tail, uncompressed.
/// - Thread: [control]
enum OutputSpace {
    /// Refuses `job` when `frames` frames of `channels` channels would not fit.
    static func check(_ job: RenderJob, frames: Int, channels: Int) throws(AudioUnitError) {
        let bytes = job.encoding.expectedBytes(frames: frames, channels: channels)
        guard job.encoding.holds(bytes: bytes) else {
            throw AudioUnitError(
                .formatNotSupported,
                "\(job.output): the output may reach \(size(bytes)) and \(job.encoding.format) holds at most \(size(job.encoding.largestFileBytes ?? 0)); expected wav (RF64) or flac for an output this long")
        }
        let folder = (job.output as NSString).deletingLastPathComponent
        var status = statvfs()
        guard statvfs(folder.isEmpty ? "." : folder, &status) == 0 else { return }
        let free = Int(clamping: UInt64(status.f_bavail).multipliedReportingOverflow(by: UInt64(status.f_frsize)).partialValue)
        guard bytes <= free else {
            throw AudioUnitError(
                .invalidFilePath,
                "\(job.output): the output may take \(size(bytes)) and its file system has \(size(free)) free; expected room for it (free some space, or render less with --tail)")
        }
    }

    /// `1.5 GB`, `320 MB`, `12 kB`.
    static func size(_ bytes: Int) -> String {
        let value = Double(bytes)
        if value >= 1e9 { return String(format: "%.1f GB", value / 1e9) }
        if value >= 1e6 { return String(format: "%.0f MB", value / 1e6) }
        return String(format: "%.0f kB", value / 1e3)
    }
}
