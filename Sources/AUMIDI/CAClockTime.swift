/// A time format of the clock, as Core Audio's `CAClockTimeFormat`.
/// - Thread: [any]
public enum CAClockTimeFormat: Sendable, Hashable, CaseIterable {
    /// The driver's sample time (`kCAClockTimeFormat_Samples`): `RenderTimestamp.sampleTime`.
    case samples
    /// Seconds of the timeline, 0 at beat 0 (`kCAClockTimeFormat_Seconds`).
    case seconds
    /// Beats (quarter notes) of the timeline, through the tempo map (`kCAClockTimeFormat_Beats`).
    case beats
    /// SMPTE timecode of the timeline plus the clock's SMPTE offset (`kCAClockTimeFormat_SMPTETime`).
    case smpteTime
    /// Bar, beat and subbeat, through the meter track (`CAClockBeatsToBarBeatTime`).
    case barBeatTime
}

/// A time in one of the clock's formats, as Core Audio's `CAClockTime` (a format and a value).
/// - Thread: [any]
public enum CAClockTime: Sendable, Hashable {
    /// A sample time of the driver (fractional samples allowed).
    case samples(Double)
    /// Seconds of the timeline.
    case seconds(Double)
    /// Beats of the timeline.
    case beats(MusicTimeStamp)
    /// SMPTE timecode (the clock's offset included).
    case smpteTime(SMPTETime)
    /// Bar, beat and subbeat.
    case barBeatTime(CABarBeatTime)

    /// The format of this time.
    /// - Thread: [any]
    public var format: CAClockTimeFormat {
        switch self {
        case .samples: .samples
        case .seconds: .seconds
        case .beats: .beats
        case .smpteTime: .smpteTime
        case .barBeatTime: .barBeatTime
        }
    }
}
