import CSndfile

// The one file that names libsndfile's C symbols. Everything else in AUFiles calls these
// typed wrappers (the swift-system pattern, DESIGN.md §6).

/// An open libsndfile handle (`SNDFILE *`), closed when the object goes away.
/// - Thread: [control]; one handle is used by one thread at a time.
final class SndfileHandle {
    private var handle: OpaquePointer?
    /// What libsndfile reported when opening: rate, channels, frames, format code.
    let info: SF_INFO

    private init(handle: OpaquePointer, info: SF_INFO) {
        self.handle = handle
        self.info = info
    }

    deinit { _ = close() }

    /// Opens `path` for reading; `nil` and libsndfile's message when it cannot.
    static func openForReading(path: String) -> Result<SndfileHandle, SndfileFailure> {
        var info = SF_INFO()
        let opened = path.withCString { sf_open($0, Int32(SFM_READ), &info) }
        guard let opened else { return .failure(SndfileFailure.lastOpenFailure()) }
        return .success(SndfileHandle(handle: opened, info: info))
    }

    /// Opens the file descriptor `fd` for writing with `info`; the descriptor stays the
    /// caller's (libsndfile does not close it).
    static func openForWriting(fd: Int32, info: SF_INFO) -> Result<SndfileHandle, SndfileFailure> {
        var info = info
        guard let opened = sf_open_fd(fd, Int32(SFM_WRITE), &info, 0) else {
            return .failure(SndfileFailure.lastOpenFailure())
        }
        return .success(SndfileHandle(handle: opened, info: info))
    }

    /// Whether an error happened on this handle (a short read is only an error with one).
    var hasError: Bool {
        guard let handle else { return true }
        return sf_error(handle) != 0
    }

    /// libsndfile's message for the last error on this handle.
    var errorMessage: String {
        guard let handle else { return "the file is closed" }
        return String(cString: sf_strerror(handle))
    }

    /// Reads up to `frames` interleaved float frames; returns how many were read.
    func readFrames(into samples: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        guard let handle else { return 0 }
        return Int(sf_readf_float(handle, samples, sf_count_t(frames)))
    }

    /// Writes `frames` interleaved 32-bit integer frames (full scale is `Int32`'s).
    func writeFrames(_ samples: UnsafePointer<Int32>, frames: Int) -> Int {
        guard let handle else { return 0 }
        return Int(sf_writef_int(handle, samples, sf_count_t(frames)))
    }

    /// Writes `frames` interleaved float frames.
    func writeFrames(_ samples: UnsafePointer<Float>, frames: Int) -> Int {
        guard let handle else { return 0 }
        return Int(sf_writef_float(handle, samples, sf_count_t(frames)))
    }

    /// Moves the read position to `frame`; false when libsndfile refuses.
    func seek(toFrame frame: Int) -> Bool {
        guard let handle else { return false }
        return sf_seek(handle, sf_count_t(frame), SEEK_SET) == sf_count_t(frame)
    }

    /// Makes an RF64 file written through this handle a plain WAV when it closes under
    /// 4 GiB (`SFC_RF64_AUTO_DOWNGRADE`); call before writing.
    func setRF64AutoDowngrade() -> Bool {
        guard let handle else { return false }
        return sf_command(handle, Int32(SFC_RF64_AUTO_DOWNGRADE), nil, Int32(SF_TRUE)) == Int32(SF_TRUE)
    }

    /// The MIDI key the file's instrument chunk (WAV `smpl`, AIFF `INST`) gives its sound,
    /// nil when it has none (`SFC_GET_INSTRUMENT`).
    func instrumentRootKey() -> Int? {
        guard let handle else { return nil }
        var instrument = SF_INSTRUMENT()
        guard sf_command(handle, Int32(SFC_GET_INSTRUMENT), &instrument, Int32(MemoryLayout<SF_INSTRUMENT>.size)) == Int32(SF_TRUE),
              (0...127).contains(instrument.basenote) else { return nil }
        return Int(instrument.basenote)
    }

    /// The file's channel map, one libsndfile `SF_CHANNEL_MAP_*` code a channel, nil when it
    /// has none (`SFC_GET_CHANNEL_MAP_INFO`).
    func channelMap(channels: Int) -> [Int32]? {
        guard let handle else { return nil }
        var map = [Int32](repeating: 0, count: channels)
        let got = map.withUnsafeMutableBytes { sf_command(handle, Int32(SFC_GET_CHANNEL_MAP_INFO), $0.baseAddress, Int32($0.count)) }
        return got == Int32(SF_TRUE) ? map : nil
    }

    /// Gives the file `map` (`SFC_SET_CHANNEL_MAP_INFO`); false where the format keeps none.
    func setChannelMap(_ map: [Int32]) -> Bool {
        guard let handle else { return false }
        var map = map
        return map.withUnsafeMutableBytes { sf_command(handle, Int32(SFC_SET_CHANNEL_MAP_INFO), $0.baseAddress, Int32($0.count)) } == Int32(SF_TRUE)
    }

    /// What libsndfile noted while it opened the file (`SFC_GET_LOG_INFO`): a line per chunk
    /// it read, with `(should be N)` after a size the file does not hold.
    func log() -> String {
        guard let handle else { return "" }
        var text = [UInt8](repeating: 0, count: 16_384)
        _ = text.withUnsafeMutableBufferPointer { sf_command(handle, Int32(SFC_GET_LOG_INFO), $0.baseAddress, Int32($0.count - 1)) }
        return String(decoding: text.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The file's text of libsndfile's `SF_STR_*` kind `kind`, nil when it has none.
    func string(_ kind: Int32) -> String? {
        guard let handle, let text = sf_get_string(handle, kind) else { return nil }
        return String(cString: text)
    }

    /// Sets the text of kind `kind` in a file being written; false when the format keeps none.
    func setString(_ kind: Int32, _ text: String) -> Bool {
        guard let handle else { return false }
        return sf_set_string(handle, kind, text) == 0
    }

    /// Sets the Vorbis quality, 0 (smallest) ... 1 (best).
    func setVBRQuality(_ quality: Double) -> Bool {
        guard let handle else { return false }
        var value = quality
        return sf_command(handle, Int32(SFC_SET_VBR_ENCODING_QUALITY), &value, Int32(MemoryLayout<Double>.size)) == 1
    }

    /// Closes the handle, writing any pending header; libsndfile's message when it fails.
    func close() -> String? {
        guard let handle else { return nil }
        self.handle = nil
        let status = sf_close(handle)
        return status == 0 ? nil : String(cString: sf_error_number(status))
    }

    /// libsndfile's names for a format code: the major type ("WAV (Microsoft)") and the
    /// encoding ("Signed 16 bit PCM").
    static func formatNames(_ format: Int32) -> (major: String, subtype: String) {
        func name(_ code: Int32, command: Int) -> String {
            var formatInfo = SF_FORMAT_INFO()
            formatInfo.format = code
            let status = sf_command(nil, Int32(command), &formatInfo, Int32(MemoryLayout<SF_FORMAT_INFO>.size))
            guard status == 0, let text = formatInfo.name else { return "0x" + String(code, radix: 16, uppercase: true) }
            return String(cString: text)
        }
        return (
            name(format & Int32(SF_FORMAT_TYPEMASK), command: SFC_GET_FORMAT_INFO),
            name(format & Int32(SF_FORMAT_SUBMASK), command: SFC_GET_FORMAT_INFO)
        )
    }

    /// Whether libsndfile can write `info` (format, rate and channels together).
    static func canWrite(_ info: SF_INFO) -> Bool {
        var info = info
        return sf_format_check(&info) == 1
    }
}

/// libsndfile's explanation of a failure, copied out at once.
struct SndfileFailure: Error {
    enum Kind { case unrecognisedFormat, system, malformed, unsupportedEncoding, other }
    let kind: Kind
    let message: String

    /// The failure of the last `sf_open` (libsndfile keeps it process-wide).
    static func lastOpenFailure() -> SndfileFailure {
        let kind: Kind = switch Int(sf_error(nil)) {
        case SF_ERR_UNRECOGNISED_FORMAT: .unrecognisedFormat
        case SF_ERR_SYSTEM: .system
        case SF_ERR_MALFORMED_FILE: .malformed
        case SF_ERR_UNSUPPORTED_ENCODING: .unsupportedEncoding
        default: .other
        }
        return SndfileFailure(kind: kind, message: String(cString: sf_strerror(nil)))
    }
}

/// The libsndfile format codes AUFiles uses (imported C enum constants, typed once here).
enum SndfileCode {
    static let wav = Int32(SF_FORMAT_WAV)
    static let rf64 = Int32(SF_FORMAT_RF64)
    static let wavex = Int32(SF_FORMAT_WAVEX)
    static let aiff = Int32(SF_FORMAT_AIFF)
    static let caf = Int32(SF_FORMAT_CAF)
    static let flac = Int32(SF_FORMAT_FLAC)
    static let ogg = Int32(SF_FORMAT_OGG)
    static let vorbis = Int32(SF_FORMAT_VORBIS)
    static let opus = Int32(SF_FORMAT_OPUS)
    static let mpeg = Int32(SF_FORMAT_MPEG)
    static let mpegLayer1 = Int32(SF_FORMAT_MPEG_LAYER_I)
    static let mpegLayer2 = Int32(SF_FORMAT_MPEG_LAYER_II)
    static let mpegLayer3 = Int32(SF_FORMAT_MPEG_LAYER_III)

    /// The codec of a format code: FLAC's is its major type (its subtype the sample size),
    /// the others' their subtype.
    static func codec(_ format: Int32) -> AudioFileCodec {
        if format & typeMask == flac { return .flac }
        return switch format & subtypeMask {
        case Int32(SF_FORMAT_PCM_S8), Int32(SF_FORMAT_PCM_U8), Int32(SF_FORMAT_PCM_16), Int32(SF_FORMAT_PCM_24), Int32(SF_FORMAT_PCM_32),
             Int32(SF_FORMAT_FLOAT), Int32(SF_FORMAT_DOUBLE), Int32(SF_FORMAT_ULAW), Int32(SF_FORMAT_ALAW): AudioFileCodec.linearPCM
        case vorbis: .vorbis
        case opus: .opus
        case mpegLayer1: .mpeg(layer: 1)
        case mpegLayer2: .mpeg(layer: 2)
        case mpegLayer3: .mpeg(layer: 3)
        default: .otherCompressed
        }
    }
    /// libsndfile's `SF_STR_*` kind of a tag.
    static func stringKind(_ tag: AudioFileTag) -> Int32 {
        let kind = switch tag {
        case .title: SF_STR_TITLE
        case .copyright: SF_STR_COPYRIGHT
        case .software: SF_STR_SOFTWARE
        case .artist: SF_STR_ARTIST
        case .comment: SF_STR_COMMENT
        case .date: SF_STR_DATE
        case .album: SF_STR_ALBUM
        case .license: SF_STR_LICENSE
        case .trackNumber: SF_STR_TRACKNUMBER
        case .genre: SF_STR_GENRE
        }
        return Int32(kind)
    }
    static let pcm16 = Int32(SF_FORMAT_PCM_16)
    static let pcm24 = Int32(SF_FORMAT_PCM_24)
    static let float32 = Int32(SF_FORMAT_FLOAT)
    static let typeMask = Int32(SF_FORMAT_TYPEMASK)
    static let subtypeMask = Int32(SF_FORMAT_SUBMASK)

    /// A fresh `SF_INFO` for writing.
    static func info(sampleRate: Int, channels: Int, format: Int32) -> SF_INFO {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = format
        return info
    }
}
