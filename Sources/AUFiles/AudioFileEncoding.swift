import AUCore

/// A container AUFiles writes: `wav`, `flac`, `aiff`, `caf` (Apple Core Audio Format) or
/// `ogg` (Ogg Vorbis).
/// - Thread: [any] (a plain value).
public enum AudioFileFormat: String, CaseIterable, Sendable, CustomStringConvertible {
    case wav, flac, aiff, caf, ogg

    /// The format a file name's extension names (`.wav`, `.flac`, `.aif`/`.aiff`, `.caf`,
    /// `.ogg`/`.oga`), case-insensitively; `nil` for any other extension and for a name
    /// without one (``extension(of:)``).
    /// - Thread: [any]
    public init?(fileExtensionOf path: String) {
        guard let named = Self.extension(of: path) else { return nil }
        switch named.lowercased() {
        case "wav", "wave": self = .wav
        case "flac": self = .flac
        case "aif", "aiff", "aifc": self = .aiff
        case "caf": self = .caf
        case "ogg", "oga": self = .ogg
        default: return nil
        }
    }

    /// The extension of the last component of `path`, without the dot (`out/take.CAF` →
    /// `CAF`); `nil` when the name has none (`out/take`, `out.d/take`, `.hidden`).
    /// - Thread: [any]
    public static func `extension`(of path: String) -> String? {
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last ?? Substring(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let named = name[name.index(after: dot)...]
        return named.isEmpty ? nil : String(named)
    }

    /// The extensions ``init(fileExtensionOf:)`` accepts, for messages:
    /// `wav|wave|flac|aif|aiff|aifc|caf|ogg|oga`.
    public static let acceptedExtensions = "wav|wave|flac|aif|aiff|aifc|caf|ogg|oga"

    /// The bit depths this container stores; empty for Ogg Vorbis, which is lossy and
    /// has none.
    /// - Thread: [any]
    public var bitDepths: [BitDepth] {
        switch self {
        case .wav, .aiff, .caf: [.int16, .int24, .float32]
        case .flac: [.int16, .int24]
        case .ogg: []
        }
    }

    /// The bit depth used when the caller names none (`nil` for Ogg Vorbis).
    /// - Thread: [any]
    public var defaultBitDepth: BitDepth? { self == .ogg ? nil : .int24 }

    /// The usual file extension, without the dot.
    /// - Thread: [any]
    public var fileExtension: String { rawValue }

    /// - Thread: [any]
    public var description: String { rawValue }
}

/// A sample encoding for writing: 16-bit or 24-bit integers, or 32-bit float
/// (the spellings `16`, `24`, `32f` of `--bit-depth`).
/// - Thread: [any] (a plain value).
public enum BitDepth: String, CaseIterable, Sendable, CustomStringConvertible {
    case int16 = "16"
    case int24 = "24"
    case float32 = "32f"

    /// Bits per integer sample; `nil` for float.
    /// - Thread: [any]
    public var integerBits: Int? {
        switch self {
        case .int16: 16
        case .int24: 24
        case .float32: nil
        }
    }

    /// - Thread: [any]
    public var description: String { rawValue }
}

/// A validated pair of container and bit depth: what ``AudioFileWriter`` writes.
/// - Thread: [any] (a plain value).
public struct AudioFileEncoding: Hashable, Sendable, CustomStringConvertible {
    public let format: AudioFileFormat
    /// `nil` only for Ogg Vorbis.
    public let bitDepth: BitDepth?
    /// Ogg Vorbis quality, 0 (smallest) ... 1 (best); ignored by lossless formats.
    public let vorbisQuality: Double

    /// Checks the combination: Ogg Vorbis takes no bit depth, FLAC takes no float, and a
    /// lossless format without a bit depth gets its ``AudioFileFormat/defaultBitDepth``.
    /// - Thread: [any]
    public init(format: AudioFileFormat, bitDepth: BitDepth? = nil, vorbisQuality: Double = 0.6) throws(AudioUnitError) {
        if format == .ogg, let bitDepth {
            throw AudioUnitError(
                .formatNotSupported,
                "format 'ogg' (Ogg Vorbis) is lossy and takes no bit depth; got --bit-depth \(bitDepth), expected none")
        }
        if let bitDepth, !format.bitDepths.contains(bitDepth) {
            let allowed = format.bitDepths.map(\.rawValue).joined(separator: "|")
            throw AudioUnitError(
                .formatNotSupported,
                "format '\(format)' cannot store bit depth \(bitDepth); expected one of \(allowed)")
        }
        guard vorbisQuality.isFinite, (0...1).contains(vorbisQuality) else {
            throw AudioUnitError(.parameterError, "Ogg Vorbis quality \(vorbisQuality) is not in 0...1")
        }
        self.format = format
        self.bitDepth = bitDepth ?? format.defaultBitDepth
        self.vorbisQuality = vorbisQuality
    }

    /// Parses the command line's spellings (`--format flac --bit-depth 24`); the error
    /// lists the accepted values.
    /// - Thread: [any]
    public init(format: String, bitDepth: String?) throws(AudioUnitError) {
        guard let parsedFormat = AudioFileFormat(rawValue: format.lowercased()) else {
            let allowed = AudioFileFormat.allCases.map(\.rawValue).joined(separator: "|")
            throw AudioUnitError(.unknownFileType, "unknown output format '\(format)'; expected one of \(allowed)")
        }
        var parsedDepth: BitDepth?
        if let bitDepth {
            guard let depth = BitDepth(rawValue: bitDepth.lowercased()) else {
                let allowed = BitDepth.allCases.map(\.rawValue).joined(separator: "|")
                throw AudioUnitError(.formatNotSupported, "unknown bit depth '\(bitDepth)'; expected one of \(allowed)")
            }
            parsedDepth = depth
        }
        try self.init(format: parsedFormat, bitDepth: parsedDepth)
    }

    /// The largest file the container can describe: AIFF's sizes are 32-bit, so 4 GiB;
    /// `nil` for no practical limit (WAV is written as RF64 and made a plain WAV when it
    /// ends under 4 GiB; CAF's sizes, FLAC's and Ogg's frame counts are 64-bit).
    /// - Thread: [any]
    public var largestFileBytes: Int? { format == .aiff ? Int(UInt32.max) : nil }

    /// A bound on the bytes `frames` frames of `channels` channels take in this encoding:
    /// the uncompressed size (FLAC and Ogg are smaller) plus room for headers.
    /// - Thread: [any]
    public func expectedBytes(frames: Int, channels: Int) -> Int {
        let bytesPerSample = switch bitDepth {
        case .int16: 2
        case .int24: 3
        case .float32, nil: 4
        }
        let (samples, tooMany) = frames.multipliedReportingOverflow(by: channels * bytesPerSample)
        let (total, tooLarge) = samples.addingReportingOverflow(65_536)
        return tooMany || tooLarge ? .max : total
    }

    /// Whether `bytes` fit the container (``largestFileBytes``).
    /// - Thread: [any]
    public func holds(bytes: Int) -> Bool { largestFileBytes.map { bytes <= $0 } ?? true }

    /// libsndfile's format code for this encoding; WAV is RF64, downgraded to WAV when
    /// small (``AudioFileWriter`` asks for it).
    var sndfileFormat: Int32 {
        let major: Int32 = switch format {
        case .wav: SndfileCode.rf64
        case .aiff: SndfileCode.aiff
        case .caf: SndfileCode.caf
        case .flac: SndfileCode.flac
        case .ogg: SndfileCode.ogg
        }
        let subtype: Int32 = switch bitDepth {
        case .int16: SndfileCode.pcm16
        case .int24: SndfileCode.pcm24
        case .float32: SndfileCode.float32
        case nil: SndfileCode.vorbis
        }
        return major | subtype
    }

    /// `flac 24-bit`, `wav 32-bit float`, `ogg vorbis`.
    /// - Thread: [any]
    public var description: String {
        switch bitDepth {
        case .int16: "\(format) 16-bit"
        case .int24: "\(format) 24-bit"
        case .float32: "\(format) 32-bit float"
        case nil: "\(format) vorbis"
        }
    }
}
