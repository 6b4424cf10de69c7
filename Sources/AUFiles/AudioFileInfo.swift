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
