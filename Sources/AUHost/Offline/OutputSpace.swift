import AUCore
import AUFiles
import Foundation

/// Whether an output fits before anything is rendered: its container holds the expected
/// size (AIFF's sizes are 32-bit) and the destination's file system has room for it
/// (`statvfs`). The size is a bound: the input's length plus the longest tail, uncompressed.
/// - Thread: [control]
enum OutputSpace {
    /// Refuses `job` when `frames` frames of `channels` channels would not fit, together
    /// with the largest MIDI file `--midi-out` may write (its path and bytes) where it shares
    /// the audio's file system.
    static func check(_ job: RenderJob, frames: Int, channels: Int, midiOutput: (path: String, bytes: Int)? = nil) throws(AudioUnitError) {
        let bytes = job.encoding.expectedBytes(frames: frames, channels: channels)
        guard job.encoding.holds(bytes: bytes) else {
            throw AudioUnitError(
                .formatNotSupported,
                "\(job.output): the output may reach \(size(bytes)) and \(job.encoding.format) holds at most \(size(job.encoding.largestFileBytes ?? 0)); expected wav (RF64) or flac for an output this long")
        }
        let audio = freeSpace(beside: job.output)
        if let (path, midiBytes) = midiOutput, let midi = freeSpace(beside: path) {
            let shared = audio?.device == midi.device
            let need = midiBytes + (shared ? bytes : 0)
            guard need <= midi.free else {
                throw AudioUnitError(
                    .invalidFilePath,
                    "\(path): the MIDI output may take \(size(midiBytes))\(shared ? " beside the audio's \(size(bytes))" : "") and its file system has \(size(midi.free)) free; expected room for it")
            }
        }
        guard let audio else { return }
        guard bytes <= audio.free else {
            throw AudioUnitError(
                .invalidFilePath,
                "\(job.output): the output may take \(size(bytes)) and its file system has \(size(audio.free)) free; expected room for it (free some space, or render less with --tail)")
        }
    }

    /// The bytes free to an unprivileged writer on the file system of `path`'s folder, and
    /// that file system's device; nil when `statvfs` fails (the writer then reports).
    private static func freeSpace(beside path: String) -> (free: Int, device: UInt)? {
        let folder = (path as NSString).deletingLastPathComponent
        var status = statvfs()
        guard statvfs(folder.isEmpty ? "." : folder, &status) == 0 else { return nil }
        return (Int(clamping: UInt64(status.f_bavail).multipliedReportingOverflow(by: UInt64(status.f_frsize)).partialValue), status.f_fsid)
    }

    /// `1.5 GB`, `320 MB`, `12 kB`.
    static func size(_ bytes: Int) -> String {
        let value = Double(bytes)
        if value >= 1e9 { return String(format: "%.1f GB", value / 1e9) }
        if value >= 1e6 { return String(format: "%.0f MB", value / 1e6) }
        return String(format: "%.0f kB", value / 1e3)
    }
}
