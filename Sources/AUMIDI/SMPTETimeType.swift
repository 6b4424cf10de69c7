/// An SMPTE frame rate and counting, as Core Audio's `SMPTETimeType`: 24, 25, 29.97
/// drop-frame, 29.97 non-drop and 30 frames per second. The 29.97 rates run at 30000/1001
/// frames per second of real time; drop frame numbers its frames so that the timecode keeps
/// up with the clock on the wall (frames 0 and 1 of every minute are skipped, except in
/// every tenth minute), non-drop numbers them as 30 fps and runs 0.1% behind the wall.
/// - Thread: [any]
public enum SMPTETimeType: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 24 fps (`kSMPTETimeType24`): film.
    case type24
    /// 25 fps (`kSMPTETimeType25`): PAL.
    case type25
    /// 29.97 fps drop frame (`kSMPTETimeType2997Drop`): NTSC, wall-clock timecode.
    case type2997Drop
    /// 29.97 fps non-drop (`kSMPTETimeType2997`): NTSC frames numbered as 30 fps.
    case type2997
    /// 30 fps (`kSMPTETimeType30`).
    case type30

    /// Frames numbered in a second of timecode: 24, 25 or 30.
    /// - Thread: [any]
    public var framesPerSecond: Int {
        switch self {
        case .type24: 24
        case .type25: 25
        case .type2997Drop, .type2997, .type30: 30
        }
    }

    /// Frames per second of real time as a fraction (30000/1001 for the 29.97 rates).
    /// - Thread: [any]
    public var frameRate: (numerator: Int64, denominator: Int64) {
        switch self {
        case .type2997Drop, .type2997: (30000, 1001)
        case .type24, .type25, .type30: (Int64(framesPerSecond), 1)
        }
    }

    /// Whether frames 0 and 1 of each minute but every tenth are skipped in the numbering.
    /// - Thread: [any]
    public var isDropFrame: Bool { self == .type2997Drop }

    /// Frames in 24 hours of timecode, after which it starts again at 00:00:00:00.
    /// - Thread: [any]
    public var framesPerDay: Int64 {
        isDropFrame ? 24 * 6 * Self.dropFramesPerTenMinutes : 24 * 3600 * Int64(framesPerSecond)
    }

    /// Frames in ten minutes of drop-frame timecode: 10 * 1800 - 9 * 2.
    static let dropFramesPerTenMinutes: Int64 = 17_982

    /// Frames in a minute of drop-frame timecode that is not a tenth minute: 1800 - 2.
    static let dropFramesPerMinute: Int64 = 1_798

    /// `24`, `25`, `29.97 drop`, `29.97`, `30`.
    /// - Thread: [any]
    public var description: String {
        switch self {
        case .type24: "24"
        case .type25: "25"
        case .type2997Drop: "29.97 drop"
        case .type2997: "29.97"
        case .type30: "30"
        }
    }
}
