/// The Core Audio Clock's job as a value: converts between the driver's sample time, seconds
/// and beats of the timeline, bar:beat:subbeat and SMPTE timecode, and runs the timeline
/// from a sample time at a play rate.
///
/// The timeline is seconds from beat 0. While the clock runs, timeline seconds =
/// `anchorSeconds + (sampleTime - anchorSampleTime) / sampleRate * playRate`; start, stop,
/// a new play rate and `setCurrentTime` move the anchor (the time and sample time where the
/// present stretch began), so nothing accumulates. Stopped, the timeline stays at the
/// anchor's seconds; `translate` still maps sample times as the clock would run if it
/// started at the anchor. Beats come from the tempo map, bars from the meter track, SMPTE
/// from the timeline plus `smpteOffset` in `smpteFormat`.
///
/// Conversions do not allocate; the maps' arrays are read in place.
/// - Thread: [any]
public struct CAClock: Sendable {
    /// Samples per second of the driver's sample time.
    public var sampleRate: Double
    /// Beats <-> seconds (`kCAClockProperty_TempoMap`).
    public var tempoMap: MusicTempoMap
    /// Beats <-> bar:beat:subbeat (`kCAClockProperty_MeterTrack`).
    public var meterTrack: MusicTimeSignatureMap
    /// The SMPTE frame rate of `.smpteTime` times (`kCAClockProperty_SMPTEFormat`).
    public var smpteFormat: SMPTETimeType
    /// Seconds of timecode at timeline 0: 3600 puts beat 0 at 01:00:00:00
    /// (`kCAClockProperty_SMPTEOffset`).
    public var smpteOffset: Double
    /// Subframes per frame of `.smpteTime` times.
    public var subframeDivisor: Int
    /// Subbeats per beat of `.barBeatTime` times.
    public var subbeatDivisor: Int
    /// How fast the timeline runs against sample time, finite and above 0
    /// (`CAClockGetPlayRate`).
    public private(set) var playRate: Double = 1
    /// Whether the timeline moves with sample time (`CAClockStart`, `CAClockStop`).
    public private(set) var isRunning = false
    /// The sample time where the present stretch of the timeline began.
    private var anchorSampleTime: Double = 0
    /// The timeline's seconds at `anchorSampleTime`.
    private var anchorSeconds: Double = 0

    /// A stopped clock at timeline 0 (`CAClockNew`), at 120 BPM and 4/4 unless given maps.
    /// - Thread: [control]
    public init(sampleRate: Double,
                tempoMap: MusicTempoMap = MusicTempoMap(tempoTrack: MusicTrack()),
                meterTrack: MusicTimeSignatureMap = MusicTimeSignatureMap(tempoTrack: MusicTrack()),
                smpteFormat: SMPTETimeType = .type30, smpteOffset: Double = 0,
                subframeDivisor: Int = SMPTETime.defaultSubframeDivisor, subbeatDivisor: Int = 480) {
        self.sampleRate = sampleRate
        self.tempoMap = tempoMap
        self.meterTrack = meterTrack
        self.smpteFormat = smpteFormat
        self.smpteOffset = smpteOffset
        self.subframeDivisor = subframeDivisor
        self.subbeatDivisor = subbeatDivisor
    }

    /// A stopped clock with `sequence`'s tempo and time-signature maps.
    /// - Thread: [control]
    public init(sequence: MusicSequence, sampleRate: Double) {
        self.init(sampleRate: sampleRate, tempoMap: sequence.tempoMap,
                  meterTrack: sequence.timeSignatureMap)
    }

    /// Runs the timeline from where it stands, from `sampleTime` on (`CAClockStart`).
    /// - Thread: [any]
    public mutating func start(atSampleTime sampleTime: Double) {
        guard !isRunning else { return }
        anchorSampleTime = sampleTime
        isRunning = true
    }

    /// Stops the timeline where it is at `sampleTime` (`CAClockStop`).
    /// - Thread: [any]
    public mutating func stop(atSampleTime sampleTime: Double) {
        guard isRunning else { return }
        reanchor(atSampleTime: sampleTime)
        isRunning = false
    }

    /// Runs the timeline `rate` times as fast as sample time from `sampleTime` on
    /// (`CAClockSetPlayRate`); false, and no change, unless `rate` is finite and above 0.
    /// - Thread: [any]
    @discardableResult
    public mutating func setPlayRate(_ rate: Double, atSampleTime sampleTime: Double) -> Bool {
        guard rate.isFinite, rate > 0 else { return false }
        reanchor(atSampleTime: sampleTime)
        playRate = rate
        return true
    }

    /// Puts the timeline at `time` at `sampleTime` (`CAClockSetCurrentTime`: a locate). A
    /// sample time locates to the timeline's time there.
    /// - Thread: [any]
    public mutating func setCurrentTime(_ time: CAClockTime, atSampleTime sampleTime: Double)
        throws(SMPTETimeError) {
        anchorSeconds = try seconds(for: time)
        anchorSampleTime = sampleTime
    }

    /// The timeline's time at `sampleTime` in `format` (`CAClockGetCurrentTime`): where it
    /// stands when stopped.
    /// - Thread: [any]
    public func currentTime(_ format: CAClockTimeFormat, atSampleTime sampleTime: Double)
        throws(SMPTETimeError) -> CAClockTime {
        try time(forSeconds: timelineSeconds(atSampleTime: sampleTime), in: format)
    }

    /// `time` in `format` (`CAClockTranslateTime`). Only SMPTE can fail: a timeline time
    /// plus the SMPTE offset below 0 has no timecode.
    /// - Thread: [any]
    public func translate(_ time: CAClockTime, to format: CAClockTimeFormat)
        throws(SMPTETimeError) -> CAClockTime {
        if case .samples(let samples) = time, format == .samples { return .samples(samples) }
        return try self.time(forSeconds: seconds(for: time), in: format)
    }

    /// The timecode of timeline `seconds` in the clock's format and offset
    /// (`CAClockSecondsToSMPTETime`).
    /// - Thread: [any]
    public func smpteTime(forSeconds seconds: Double) throws(SMPTETimeError) -> SMPTETime {
        try SMPTETime(seconds: seconds + smpteOffset, type: smpteFormat, subframeDivisor: subframeDivisor)
    }

    /// The timeline seconds of `smpteTime` less the clock's offset (`CAClockSMPTETimeToSeconds`).
    /// - Thread: [any]
    public func seconds(for smpteTime: SMPTETime) -> Double {
        smpteTime.timeInSeconds - smpteOffset
    }

    /// Bar, beat and subbeat at `beats` (`CAClockBeatsToBarBeatTime`).
    /// - Thread: [any]
    public func barBeatTime(forBeats beats: MusicTimeStamp) -> CABarBeatTime {
        meterTrack.barBeatTime(forBeats: beats, subbeatDivisor: subbeatDivisor)
    }

    /// Beats at `barBeatTime` (`CAClockBarBeatTimeToBeats`).
    /// - Thread: [any]
    public func beats(for barBeatTime: CABarBeatTime) -> MusicTimeStamp {
        meterTrack.beats(for: barBeatTime)
    }

    /// The timeline's seconds at `sampleTime`: the anchor's when stopped.
    private func timelineSeconds(atSampleTime sampleTime: Double) -> Double {
        isRunning ? secondsOfSampleTime(sampleTime) : anchorSeconds
    }

    /// The timeline's seconds at `sampleTime` as the clock runs from its anchor.
    private func secondsOfSampleTime(_ sampleTime: Double) -> Double {
        anchorSeconds + (sampleTime - anchorSampleTime) / sampleRate * playRate
    }

    /// Starts a new stretch of the timeline at `sampleTime`, where it stands.
    private mutating func reanchor(atSampleTime sampleTime: Double) {
        anchorSeconds = timelineSeconds(atSampleTime: sampleTime)
        anchorSampleTime = sampleTime
    }

    /// Timeline seconds of `time`.
    private func seconds(for time: CAClockTime) throws(SMPTETimeError) -> Double {
        switch time {
        case .samples(let samples): secondsOfSampleTime(samples)
        case .seconds(let seconds): seconds
        case .beats(let beats): tempoMap.seconds(forBeats: beats)
        case .smpteTime(let smpte): self.seconds(for: smpte)
        case .barBeatTime(let barBeat): tempoMap.seconds(forBeats: meterTrack.beats(for: barBeat))
        }
    }

    /// Timeline `seconds` in `format`.
    private func time(forSeconds seconds: Double, in format: CAClockTimeFormat)
        throws(SMPTETimeError) -> CAClockTime {
        switch format {
        case .samples: .samples(anchorSampleTime + (seconds - anchorSeconds) * sampleRate / playRate)
        case .seconds: .seconds(seconds)
        case .beats: .beats(tempoMap.beats(forSeconds: seconds))
        case .smpteTime: .smpteTime(try smpteTime(forSeconds: seconds))
        case .barBeatTime: .barBeatTime(barBeatTime(forBeats: tempoMap.beats(forSeconds: seconds)))
        }
    }
}
