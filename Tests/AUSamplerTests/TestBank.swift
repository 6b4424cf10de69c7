import AUCore
import AUFiles
import Foundation

/// ``TestSoundFont`` written to a file, as SF2 or as SF3 (the sample compressed to Ogg
/// Vorbis by libsndfile through AUFiles).
enum TestBank {
    enum Format: String { case sf2, sf3 }

    /// Writes the bank into `folder` and returns its path.
    static func write(_ format: Format, into folder: URL) throws -> String {
        let bank = folder.appendingPathComponent("sine.\(format.rawValue)")
        switch format {
        case .sf2: try TestSoundFont.data().write(to: bank)
        case .sf3: try TestSoundFont.data(compressedSample: try vorbis(TestSoundFont.sine, in: folder)).write(to: bank)
        }
        return bank.path
    }

    /// `samples` (mono, at the bank's rate) as an Ogg Vorbis stream.
    private static func vorbis(_ samples: [Float], in folder: URL) throws -> Data {
        let path = folder.appendingPathComponent("sample.ogg").path
        let writer = try AudioFileWriter(
            path: path, encoding: AudioFileEncoding(format: .ogg), sampleRate: Double(TestSoundFont.sampleRate), channels: 1)
        let buffers = OwnedAudioBuffers(channels: 1, capacity: 4096)
        var start = 0
        while start < samples.count {
            let count = min(4096, samples.count - start)
            let view = buffers.buffers(frameCount: count)
            for frame in 0..<count { view[0][frame] = samples[start + frame] }
            try writer.write(view)
            start += count
        }
        try writer.finish()
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
