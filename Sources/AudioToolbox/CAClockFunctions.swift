import Glibc
internal import AUMIDI
internal import AUMusicPlayer

// The Core Audio Clock's C API over AUMIDI's CAClock: its sample time is the host clock's
// nanoseconds (CLOCK_MONOTONIC, as MusicPlayer's host times), so the timeline moves with real
// time while the clock runs (internal sync), with the MIDI clock the program hands it
// (CAClockMIDISync.swift), or with JACK transport (CAClockJACKSync.swift).

/// A `CAClockRef`.
final class ClockHandle: @unchecked Sendable {
    static let live = LiveHandles<ClockHandle>()
    var clock = AUMIDI.CAClock(sampleRate: 1e9)
    var tempoEntries: [CATempoMapEntry] = [CATempoMapEntry(beats: 0, tempoBPM: 120)]
    var meterEntries: [CAMeterTrackEntry] = [CAMeterTrackEntry(beats: 0, meterNumer: 4, meterDenom: 4)]
    var listeners: [(proc: CAClockListenerProc, data: UnsafeMutableRawPointer?)] = []
    /// kCAClockProperty_SyncMode: internal, or MIDI clock (``ClockMIDISync``).
    var syncMode = kCAClockSyncMode_Internal
    var midiSync = ClockMIDISync()
    /// The JACK client of a clock synced to JACK transport (``ClockJACKSync``).
    var jackSync: ClockJACKSync?

    /// Tells the listeners (on the calling thread, after the change).
    func notify(_ message: UInt32) {
        for listener in listeners { listener.proc(listener.data, message, nil) }
    }
}

/// Apple's SMPTE types that AUMIDI has, both ways.
let smpteTypes: [(apple: UInt32, type: AUMIDI.SMPTETimeType)] = [
    (kSMPTETimeType24, .type24), (kSMPTETimeType25, .type25), (kSMPTETimeType2997Drop, .type2997Drop), (kSMPTETimeType2997, .type2997), (kSMPTETimeType30, .type30),
]

extension CAudioToolbox.SMPTETime {
    init(_ time: AUMIDI.SMPTETime) {
        self.init(mSubframes: Int16(clamping: time.subframes), mSubframeDivisor: Int16(clamping: time.subframeDivisor), mCounter: 0,
                  mType: smpteTypes.first { $0.type == time.type }!.apple, mFlags: kSMPTETimeValid, mHours: Int16(time.hours),
                  mMinutes: Int16(time.minutes), mSeconds: Int16(time.seconds), mFrames: Int16(time.frames))
    }

    var model: AUMIDI.SMPTETime? {
        guard let type = smpteTypes.first(where: { $0.apple == mType })?.type else { return nil }
        return try? AUMIDI.SMPTETime(type: type, hours: Int(mHours), minutes: Int(mMinutes), seconds: Int(mSeconds), frames: Int(mFrames),
                                     subframes: Int(mSubframes), subframeDivisor: max(1, Int(mSubframeDivisor)))
    }
}

/// AUMIDI's time for a C CAClockTime, or kCAClock_InvalidTimeFormatError.
private func clockTime(_ time: CAudioToolbox.CAClockTime) throws(StatusError) -> AUMIDI.CAClockTime {
    switch time.format {
    case kCAClockTimeFormat_HostTime: return .samples(Double(time.time.hostTime))
    case kCAClockTimeFormat_Seconds: return .seconds(time.time.seconds)
    case kCAClockTimeFormat_Beats: return .beats(time.time.beats)
    case kCAClockTimeFormat_SMPTETime:
        guard let smpte = time.time.smpte.model else { throw StatusError(kCAClock_InvalidSMPTEFormatError) }
        return .smpteTime(smpte)
    default: throw StatusError(kCAClock_InvalidTimeFormatError)
    }
}

/// AUMIDI's format for a C time format (host time, seconds, beats, SMPTE time).
private func clockFormat(_ format: UInt32) throws(StatusError) -> AUMIDI.CAClockTimeFormat {
    switch format {
    case kCAClockTimeFormat_HostTime: .samples
    case kCAClockTimeFormat_Seconds: .seconds
    case kCAClockTimeFormat_Beats: .beats
    case kCAClockTimeFormat_SMPTETime: .smpteTime
    default: throw StatusError(kCAClock_InvalidTimeFormatError)
    }
}

/// The C CAClockTime of an AUMIDI time (bar:beat:subbeat becomes beats through `clock`).
private func cTime(_ time: AUMIDI.CAClockTime, _ clock: AUMIDI.CAClock) -> CAudioToolbox.CAClockTime {
    var out = CAudioToolbox.CAClockTime()
    switch time {
    case .samples(let nanoseconds):
        out.format = kCAClockTimeFormat_HostTime
        out.time.hostTime = UInt64(max(0, nanoseconds.rounded()))
    case .seconds(let seconds):
        out.format = kCAClockTimeFormat_Seconds
        out.time.seconds = seconds
    case .beats(let beats):
        out.format = kCAClockTimeFormat_Beats
        out.time.beats = beats
    case .smpteTime(let smpte):
        out.format = kCAClockTimeFormat_SMPTETime
        out.time.smpte = CAudioToolbox.SMPTETime(smpte)
    case .barBeatTime(let time):
        out.format = kCAClockTimeFormat_Beats
        out.time.beats = clock.meterTrack.beats(for: time)
    }
    return out
}

/// Runs `body` with the live clock of `pointer`.
func withClock(_ pointer: OpaquePointer?, _ body: (ClockHandle) throws -> OSStatus) -> OSStatus {
    withHandle(ClockHandle.live, pointer, body)
}

/// `CANewClock`: a stopped clock at 0, 120 BPM, 4/4, 30 fps SMPTE, synced internally.
/// - Thread: [control]
@_cdecl("CANewClock")
public func _CANewClock(_ outClock: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    newHandle(ClockHandle.live, outClock, ClockHandle.init)
}

/// `CAClockDispose`.
/// - Thread: [control]
@_cdecl("CAClockDispose")
public func _CAClockDispose(_ inClock: OpaquePointer?) -> OSStatus {
    withClock(inClock) { clock in
        clock.syncToJACK(nil)
        ClockHandle.live.unregister(clock)
        return noErr
    }
}

/// `CAClockStart`: the timeline moves with host time from now (listeners: Started).
/// - Thread: [control]
@_cdecl("CAClockStart")
public func _CAClockStart(_ inClock: OpaquePointer?) -> OSStatus {
    withClock(inClock) { clock in
        guard !clock.followsMIDIClock else { return kCAClock_InvalidSyncModeError }
        if let jack = clock.jackSync {
            jack.client.startTransport()
            return noErr
        }
        guard !clock.clock.isRunning else { return noErr }
        clock.clock.start(atSampleTime: Double(hostTimeNow()))
        clock.notify(kCAClockMessage_Started)
        return noErr
    }
}

/// `CAClockStop`: the timeline stays where it is now (listeners: Stopped).
/// - Thread: [control]
@_cdecl("CAClockStop")
public func _CAClockStop(_ inClock: OpaquePointer?) -> OSStatus {
    withClock(inClock) { clock in
        guard !clock.followsMIDIClock else { return kCAClock_InvalidSyncModeError }
        if let jack = clock.jackSync {
            jack.client.stopTransport()
            return noErr
        }
        guard clock.clock.isRunning else { return noErr }
        clock.clock.stop(atSampleTime: Double(hostTimeNow()))
        clock.notify(kCAClockMessage_Stopped)
        return noErr
    }
}

/// `CAClockSetCurrentTime`: a locate to seconds, beats or SMPTE time, while stopped
/// (running: kCAClock_CannotSetTimeError, as on Apple); listeners: StartTimeSet.
/// - Thread: [control]
@_cdecl("CAClockSetCurrentTime")
public func _CAClockSetCurrentTime(_ inClock: OpaquePointer?, _ inTime: UnsafePointer<CAudioToolbox.CAClockTime>?) -> OSStatus {
    withClock(inClock) { clock in
        guard let inTime else { return kAudio_ParamError }
        guard !clock.followsMIDIClock else { return kCAClock_InvalidSyncModeError }
        let time = try clockTime(inTime.pointee)
        if case .samples = time { return kCAClock_InvalidTimeFormatError }
        if let jack = clock.jackSync {
            // A locate of the transport, for every client.
            guard case .seconds(let seconds) = try? clock.clock.translate(time, to: .seconds) else { return kCAClock_InvalidTimeFormatError }
            jack.client.locateTransport(toFrame: Int64((seconds * jack.client.sampleRate).rounded()))
            clock.notify(kCAClockMessage_StartTimeSet)
            return noErr
        }
        guard !clock.clock.isRunning else { return kCAClock_CannotSetTimeError }
        do {
            try clock.clock.setCurrentTime(time, atSampleTime: Double(hostTimeNow()))
        } catch {
            return kCAClock_InvalidSMPTEOffsetError
        }
        clock.notify(kCAClockMessage_StartTimeSet)
        return noErr
    }
}

/// `CAClockGetCurrentTime`: now, in host time, seconds, beats or SMPTE time.
/// - Thread: [control]
@_cdecl("CAClockGetCurrentTime")
public func _CAClockGetCurrentTime(_ inClock: OpaquePointer?, _ inFormat: UInt32, _ outTime: UnsafeMutablePointer<CAudioToolbox.CAClockTime>?) -> OSStatus {
    withClock(inClock) { clock in
        guard let outTime else { return kAudio_ParamError }
        let format = try clockFormat(inFormat)
        let now = hostTimeNow()
        if format == .samples {
            outTime.pointee = cTime(.samples(Double(now)), clock.clock)
            return noErr
        }
        do {
            if clock.followsMIDIClock {
                outTime.pointee = cTime(try clock.clock.translate(.beats(clock.midiClockBeats(at: now)), to: format), clock.clock)
                return noErr
            }
            if let jack = clock.jackSync {
                let time: AUMIDI.CAClockTime = format == .beats ? .beats(jack.beats) : try clock.clock.translate(.seconds(jack.seconds), to: format)
                outTime.pointee = cTime(time, clock.clock)
                return noErr
            }
            outTime.pointee = cTime(try clock.clock.currentTime(format, atSampleTime: Double(now)), clock.clock)
        } catch {
            return kCAClock_InvalidSMPTEOffsetError
        }
        return noErr
    }
}

/// `CAClockTranslateTime`: between host time, seconds, beats and SMPTE time.
/// - Thread: [control]
@_cdecl("CAClockTranslateTime")
public func _CAClockTranslateTime(
    _ inClock: OpaquePointer?, _ inTime: UnsafePointer<CAudioToolbox.CAClockTime>?, _ inFormat: UInt32, _ outTime: UnsafeMutablePointer<CAudioToolbox.CAClockTime>?
) -> OSStatus {
    withClock(inClock) { clock in
        guard let inTime, let outTime else { return kAudio_ParamError }
        let time = try clockTime(inTime.pointee)
        let format = try clockFormat(inFormat)
        do {
            outTime.pointee = cTime(try clock.clock.translate(time, to: format), clock.clock)
        } catch {
            return kCAClock_InvalidSMPTEOffsetError
        }
        return noErr
    }
}

/// `CAClockSetPlayRate`: finite and above 0 (else kCAClock_InvalidPlayRateError).
/// - Thread: [control]
@_cdecl("CAClockSetPlayRate")
public func _CAClockSetPlayRate(_ inClock: OpaquePointer?, _ inRate: Double) -> OSStatus {
    withClock(inClock) { clock in
        clock.clock.setPlayRate(inRate, atSampleTime: Double(hostTimeNow())) ? noErr : kCAClock_InvalidPlayRateError
    }
}

/// `CAClockGetPlayRate`.
/// - Thread: [control]
@_cdecl("CAClockGetPlayRate")
public func _CAClockGetPlayRate(_ inClock: OpaquePointer?, _ outRate: UnsafeMutablePointer<Double>?) -> OSStatus {
    withClock(inClock) { clock in
        guard let outRate else { return kAudio_ParamError }
        outRate.pointee = clock.clock.playRate
        return noErr
    }
}

/// `CAClockGetCurrentTempo`: the tempo map's tempo now (times the play rate), and the beat.
/// - Thread: [control]
@_cdecl("CAClockGetCurrentTempo")
public func _CAClockGetCurrentTempo(_ inClock: OpaquePointer?, _ outTempo: UnsafeMutablePointer<Double>?, _ outTime: UnsafeMutablePointer<CAudioToolbox.CAClockTime>?) -> OSStatus {
    withClock(inClock) { clock in
        guard let outTempo else { return kAudio_ParamError }
        if let jack = clock.jackSync {
            outTempo.pointee = jack.tempo
            outTime?.pointee = cTime(.beats(jack.beats), clock.clock)
            return noErr
        }
        if clock.followsMIDIClock {
            let beats = clock.midiClockBeats(at: hostTimeNow())
            outTempo.pointee = clock.midiSync.follower.bpm ?? clock.clock.tempoMap.bpm(atBeats: beats)
            outTime?.pointee = cTime(.beats(beats), clock.clock)
            return noErr
        }
        guard case .beats(let beats) = try? clock.clock.currentTime(.beats, atSampleTime: Double(hostTimeNow())) else { return kAudio_ParamError }
        outTempo.pointee = clock.clock.tempoMap.bpm(atBeats: beats) * clock.clock.playRate
        outTime?.pointee = cTime(.beats(beats), clock.clock)
        return noErr
    }
}

/// `CAClockSecondsToSMPTETime`: in the clock's SMPTE format and offset.
/// - Thread: [control]
@_cdecl("CAClockSecondsToSMPTETime")
public func _CAClockSecondsToSMPTETime(_ inClock: OpaquePointer?, _ inSeconds: Double, _ inDivisor: UInt16, _ outTime: UnsafeMutablePointer<CAudioToolbox.SMPTETime>?) -> OSStatus {
    withClock(inClock) { clock in
        guard let outTime, inDivisor > 0, inSeconds.isFinite else { return kAudio_ParamError }
        var copy = clock.clock
        copy.subframeDivisor = Int(inDivisor)
        guard let time = try? copy.smpteTime(forSeconds: inSeconds) else { return kCAClock_InvalidSMPTEOffsetError }
        outTime.pointee = CAudioToolbox.SMPTETime(time)
        return noErr
    }
}

/// `CAClockSMPTETimeToSeconds`.
/// - Thread: [control]
@_cdecl("CAClockSMPTETimeToSeconds")
public func _CAClockSMPTETimeToSeconds(_ inClock: OpaquePointer?, _ inTime: UnsafePointer<CAudioToolbox.SMPTETime>?, _ outSeconds: UnsafeMutablePointer<Double>?) -> OSStatus {
    withClock(inClock) { clock in
        guard let inTime, let outSeconds else { return kAudio_ParamError }
        guard let time = inTime.pointee.model else { return kCAClock_InvalidSMPTEFormatError }
        outSeconds.pointee = clock.clock.seconds(for: time)
        return noErr
    }
}

/// `CAClockBeatsToBarBeatTime`: through the meter track (bars and beats from 1).
/// - Thread: [control]
@_cdecl("CAClockBeatsToBarBeatTime")
public func _CAClockBeatsToBarBeatTime(_ inClock: OpaquePointer?, _ inBeats: Double, _ inDivisor: UInt16, _ outTime: UnsafeMutablePointer<CAudioToolbox.CABarBeatTime>?) -> OSStatus {
    withClock(inClock) { clock in
        guard let outTime, inDivisor > 0, inBeats.isFinite else { return kAudio_ParamError }
        let time = clock.clock.meterTrack.barBeatTime(forBeats: inBeats, subbeatDivisor: Int(inDivisor))
        outTime.pointee = CAudioToolbox.CABarBeatTime(bar: Int32(clamping: time.bar), beat: UInt16(clamping: time.beat), subbeat: UInt16(clamping: time.subbeat),
                                                     subbeatDivisor: inDivisor, reserved: 0)
        return noErr
    }
}

/// `CAClockBarBeatTimeToBeats`.
/// - Thread: [control]
@_cdecl("CAClockBarBeatTimeToBeats")
public func _CAClockBarBeatTimeToBeats(_ inClock: OpaquePointer?, _ inTime: UnsafePointer<CAudioToolbox.CABarBeatTime>?, _ outBeats: UnsafeMutablePointer<Double>?) -> OSStatus {
    withClock(inClock) { clock in
        guard let inTime, let outBeats, inTime.pointee.subbeatDivisor > 0 else { return kAudio_ParamError }
        let time = inTime.pointee
        outBeats.pointee = clock.clock.beats(for: AUMIDI.CABarBeatTime(bar: Int(time.bar), beat: Int(time.beat), subbeat: Int(time.subbeat), subbeatDivisor: Int(time.subbeatDivisor)))
        return noErr
    }
}
