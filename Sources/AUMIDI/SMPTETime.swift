/// An SMPTE timecode, as Core Audio's `SMPTETime`: hours, minutes, seconds and frames of a
/// `SMPTETimeType`, and subframes of 1/`subframeDivisor` frame. Every value is a timecode that
/// exists: fields in range, and no frame that drop frame skips. Timecode runs 24 hours and
/// starts again at 00:00:00:00, so frame counts and seconds past a day wrap.
/// - Thread: [any]
public struct SMPTETime: Sendable, Hashable, CustomStringConvertible {
    /// The subframe divisor when none is given (as Core Audio's clock, 80 per frame).
    /// - Thread: [any]
    public static let defaultSubframeDivisor = 80

    /// The frame rate and numbering.
    public let type: SMPTETimeType
    /// 0-23.
    public let hours: Int
    /// 0-59.
    public let minutes: Int
    /// 0-59.
    public let seconds: Int
    /// 0 to `type.framesPerSecond - 1` (2-29 at second 0 of most drop-frame minutes).
    public let frames: Int
    /// 0 to `subframeDivisor - 1`.
    public let subframes: Int
    /// Subframes per frame, 1 or more.
    public let subframeDivisor: Int

    /// The timecode `hours:minutes:seconds:frames` plus `subframes`; refused when a field is
    /// out of range or the frame is one that drop frame skips.
    /// - Thread: [any]
    public init(type: SMPTETimeType, hours: Int, minutes: Int, seconds: Int, frames: Int,
                subframes: Int = 0, subframeDivisor: Int = defaultSubframeDivisor)
        throws(SMPTETimeError) {
        try Self.check("hours", hours, 0...23)
        try Self.check("minutes", minutes, 0...59)
        try Self.check("seconds", seconds, 0...59)
        try Self.check("frames", frames, 0...(type.framesPerSecond - 1))
        try Self.check("subframe divisor", subframeDivisor, 1...Int(Int32.max))
        try Self.check("subframes", subframes, 0...(subframeDivisor - 1))
        if type.isDropFrame, seconds == 0, frames < 2, minutes % 10 != 0 {
            throw .droppedFrame(hours: hours, minutes: minutes, frames: frames)
        }
        self.type = type
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
        self.frames = frames
        self.subframes = subframes
        self.subframeDivisor = subframeDivisor
    }

    /// The timecode of frame `frameCount` counted from 00:00:00:00 (wrapping at 24 hours),
    /// plus `subframes`. Drop frame skips the labels of frames 0 and 1 in each minute but
    /// every tenth: frame 1800 is 00:01:00;02.
    /// - Thread: [any]
    public init(frameCount: Int64, subframes: Int = 0, subframeDivisor: Int = defaultSubframeDivisor,
                type: SMPTETimeType) throws(SMPTETimeError) {
        guard frameCount >= 0 else { throw .negativeFrameCount(frameCount) }
        var label = frameCount % type.framesPerDay
        if type.isDropFrame {
            let tens = label / SMPTETimeType.dropFramesPerTenMinutes
            let inTen = label % SMPTETimeType.dropFramesPerTenMinutes
            let skippedMinutes = inTen < 2 ? 0 : (inTen - 2) / SMPTETimeType.dropFramesPerMinute
            label += 18 * tens + 2 * skippedMinutes
        }
        let perSecond = Int64(type.framesPerSecond)
        try self.init(type: type,
                      hours: Int(label / (perSecond * 3600)),
                      minutes: Int(label / (perSecond * 60) % 60),
                      seconds: Int(label / perSecond % 60),
                      frames: Int(label % perSecond),
                      subframes: subframes, subframeDivisor: subframeDivisor)
    }

    /// The timecode at `seconds` of real time from 00:00:00:00 (wrapping at 24 hours), in
    /// whole subframes: rounded down, except that a time within 1e-6 subframe below a whole
    /// subframe counts as that subframe (so a frame boundary such as 1001/30000 s is exactly
    /// frame 1 at 29.97). Refused for negative, infinite or NaN seconds.
    /// - Thread: [any]
    public init(seconds: Double, type: SMPTETimeType,
                subframeDivisor: Int = defaultSubframeDivisor) throws(SMPTETimeError) {
        guard seconds.isFinite, seconds >= 0 else { throw .secondsOutOfRange(seconds) }
        try Self.check("subframe divisor", subframeDivisor, 1...Int(Int32.max))
        let rate = type.frameRate
        let divisor = Int64(subframeDivisor)
        let day = Double(type.framesPerDay) * Double(rate.denominator) / Double(rate.numerator)
        let inDay = seconds.truncatingRemainder(dividingBy: day)
        let exact = inDay * Double(rate.numerator * divisor) / Double(rate.denominator)
        let nearest = exact.rounded()
        let total = Int64(clamping: abs(exact - nearest) <= 1e-6 ? nearest : exact, rounding: .down)
        try self.init(frameCount: total / divisor, subframes: Int(total % divisor),
                      subframeDivisor: subframeDivisor, type: type)
    }

    /// Frames from 00:00:00:00 to this timecode's frame (without subframes).
    /// - Thread: [any]
    public var frameCount: Int64 {
        let perSecond = Int64(type.framesPerSecond)
        let wholeMinutes = Int64(hours * 60 + minutes)
        let count = (wholeMinutes * 60 + Int64(seconds)) * perSecond + Int64(frames)
        return type.isDropFrame ? count - 2 * (wholeMinutes - wholeMinutes / 10) : count
    }

    /// Seconds of real time from 00:00:00:00 to this timecode, subframes included
    /// (Core Audio's `CAClockSMPTETimeToSeconds` without the clock's offset).
    /// - Thread: [any]
    public var timeInSeconds: Double {
        let rate = type.frameRate
        let divisor = Int64(subframeDivisor)
        let subframeCount = frameCount * divisor + Int64(subframes)
        return Double(subframeCount) * Double(rate.denominator) / Double(rate.numerator * divisor)
    }

    /// `HH:MM:SS:FF`, or `HH:MM:SS;FF` for drop frame (subframes are not shown).
    /// - Thread: [control]
    public var description: String {
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let separator = type.isDropFrame ? ";" : ":"
        return "\(twoDigits(hours)):\(twoDigits(minutes)):\(twoDigits(seconds))"
            + "\(separator)\(twoDigits(frames))"
    }

    /// The timecode written `HH:MM:SS:FF` (two digits each), with `;` before the frames
    /// exactly when `type` is drop frame, as `description` writes it; subframes are 0.
    /// - Thread: [control]
    public init(parsing text: String, type: SMPTETimeType,
                subframeDivisor: Int = defaultSubframeDivisor) throws(SMPTETimeError) {
        let separator = type.isDropFrame ? UInt8(ascii: ";") : UInt8(ascii: ":")
        let expected = type.isDropFrame ? "HH:MM:SS;FF (29.97 drop frame)" : "HH:MM:SS:FF"
        let bytes = Array(text.utf8)
        let marks = [UInt8(ascii: ":"), UInt8(ascii: ":"), separator]
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        guard bytes.count == 11,
              (0..<3).allSatisfy({ bytes[$0 * 3 + 2] == marks[$0] }),
              (0..<4).allSatisfy({ digits.contains(bytes[$0 * 3]) && digits.contains(bytes[$0 * 3 + 1]) })
        else { throw .unreadable(text: text, expected: expected) }
        let fields = (0..<4).map {
            Int(bytes[$0 * 3] - UInt8(ascii: "0")) * 10 + Int(bytes[$0 * 3 + 1] - UInt8(ascii: "0"))
        }
        try self.init(type: type, hours: fields[0], minutes: fields[1], seconds: fields[2],
                      frames: fields[3], subframeDivisor: subframeDivisor)
    }

    /// Refuses `value` outside `range`.
    private static func check(_ field: String, _ value: Int, _ range: ClosedRange<Int>)
        throws(SMPTETimeError) {
        guard range.contains(value) else {
            throw .fieldOutOfRange(field: field, value: value, range: range)
        }
    }
}
