import AUCore
import Foundation

/// A SoundFont made from audio files (``AudioFileSoundFont``), in a file of the temporary
/// folder that FluidSynth loads, removed when the bank is let go.
/// - Thread: [control]
final class AudioFileBank {
    let path: String
    let soundFont: Data

    /// Writes `soundFont` to a new file; `CannotDoInCurrentContext` naming the folder when
    /// it cannot be written.
    init(soundFont: [UInt8]) throws(AudioUnitError) {
        let folder = FileManager.default.temporaryDirectory
        let url = folder.appendingPathComponent("auhost-sampler-audio-files-\(getpid())-\(UUID().uuidString).sf2")
        self.soundFont = Data(soundFont)
        do {
            try self.soundFont.write(to: url, options: .withoutOverwriting)
        } catch {
            throw AudioUnitError(.cannotDoInCurrentContext, "the SoundFont of the audio files could not be written in \(folder.path)", underlying: error)
        }
        path = url.path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
