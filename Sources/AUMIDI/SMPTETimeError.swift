/// Why a time has no SMPTE timecode, or a timecode is not one: each case names the value and
/// what was expected.
/// - Thread: [any]
public enum SMPTETimeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Seconds below zero, infinite or NaN (timecode starts at 00:00:00:00).
    case secondsOutOfRange(Double)
    /// A frame count below zero.
    case negativeFrameCount(Int64)
    /// A field past its range, as `frames` 30 at 30 fps.
    case fieldOutOfRange(field: String, value: Int, range: ClosedRange<Int>)
    /// A drop-frame label that is skipped: frames 0 and 1 at second 0 of a minute not
    /// divisible by ten.
    case droppedFrame(hours: Int, minutes: Int, frames: Int)
    /// Text that is not `HH:MM:SS:FF` (`HH:MM:SS;FF` for drop frame).
    case unreadable(text: String, expected: String)

    /// The message, with the value and what was expected.
    /// - Thread: [control]
    public var description: String {
        switch self {
        case .secondsOutOfRange(let seconds):
            "\(seconds) s has no SMPTE time; expected finite seconds at or after 0"
        case .negativeFrameCount(let count):
            "frame \(count) has no SMPTE time; expected a frame count at or after 0"
        case .fieldOutOfRange(let field, let value, let range):
            "SMPTE \(field) \(value) is out of range; expected \(range.lowerBound)-\(range.upperBound)"
        case .droppedFrame(let hours, let minutes, let frames):
            "frame \(frames) of minute \(hours * 60 + minutes) is dropped in 29.97 drop-frame "
                + "timecode; expected frames 2-29 at second 0 of a minute not divisible by 10"
        case .unreadable(let text, let expected):
            "'\(text)' is not an SMPTE time; expected \(expected)"
        }
    }
}
