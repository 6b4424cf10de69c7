import AUCore

/// What an audio file holds, as libsndfile reports it.
/// - Thread: [any] (a plain value).
public struct AudioFileInfo: Sendable, CustomStringConvertible {
    public let path: String
    public let sampleRate: Double
    public let channels: Int
    /// Frames per channel (libsndfile's count; exact for every format AUFiles writes).
    public let frames: Int
    /// The container, when it is one AUFiles also writes; `nil` for others (AU, W64...).
    public let format: AudioFileFormat?
    /// libsndfile's name of the container, such as `WAV (Microsoft)`.
    public let containerName: String
    /// libsndfile's name of the encoding, such as `Signed 24 bit PCM`.
    public let encodingName: String
    /// How the audio data is coded: linear PCM (any sample type) or a compressed codec.
    public let codec: AudioFileCodec
    /// Set when the file holds less audio data than its header gives (cut short: a copy
    /// that stopped, a recorder that crashed before it finished its header); the reader
    /// reads the ``frames`` it holds.
    public var truncation: Truncation?

    /// How much audio data a cut-short file's header gives and how much the file holds.
    /// - Thread: [any] (a plain value).
    public struct Truncation: Sendable, Equatable {
        public let headerBytes: Int
        public let heldBytes: Int
    }

    /// `cut short: its header gives 192000 bytes of audio, the file holds 56 (14 frames)`
    /// when it is (``truncation``).
    /// - Thread: [any]
    public var cutShort: String? {
        truncation.map { "cut short: its header gives \($0.headerBytes) bytes of audio, the file holds \($0.heldBytes) (\(frames) frame\(frames == 1 ? "" : "s"))" }
    }

    /// The data chunk's sizes when libsndfile's `log` says it (WAV, W64 and RF64 `data`,
    /// AIFF `SSND`) claims more bytes than the file holds (`data : 192000 (should be 56)`);
    /// nil when it does not.
    /// - Thread: [any]
    static func truncation(log: String) -> Truncation? {
        for line in log.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count == 6, ["data", "SSND"].contains(words[0]), words[1] == ":", words[3] == "(should", words[4] == "be",
                  let claimed = Int(words[2]), let held = Int(words[5].dropLast()), claimed > held else { continue }
            return Truncation(headerBytes: claimed, heldBytes: held)
        }
        return nil
    }

    /// Duration in seconds.
    /// - Thread: [any]
    public var duration: Double { Double(frames) / sampleRate }

    /// The canonical (float, non-interleaved) stream format of the decoded samples.
    /// - Thread: [any]
    public var streamFormat: StreamFormat { .canonical(sampleRate: sampleRate, channels: channels) }

    /// `in.wav: WAV (Microsoft), Signed 16 bit PCM, 44100 Hz, 2 ch, 88200 frames (2.000 s)`.
    /// - Thread: [any]
    public var description: String {
        let rate = sampleRate == sampleRate.rounded() ? String(Int(sampleRate)) : String(sampleRate)
        let millis = Int((duration * 1000).rounded())
        let seconds = "\(millis / 1000).\(String(1000 + millis % 1000).dropFirst())"
        return "\(path): \(containerName), \(encodingName), \(rate) Hz, \(channels) ch, \(frames) frames (\(seconds) s)"
    }
}

/// How a file's audio data is coded, as libsndfile reports its encoding.
/// - Thread: [any] (a plain value).
public enum AudioFileCodec: Sendable, Equatable {
    /// Samples as they are (integers, floats, and the companded 8-bit codes).
    case linearPCM
    case flac
    case vorbis
    case opus
    /// MPEG-1/2 audio layer 1, 2 or 3.
    case mpeg(layer: Int)
    /// Another compressed codec libsndfile decodes (ADPCM, GSM...).
    case otherCompressed
}
