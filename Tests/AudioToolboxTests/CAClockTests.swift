import AudioToolbox
import Foundation
import Testing

/// The Core Audio Clock's C API: tempo map and meter track, translations between seconds,
/// beats, SMPTE time and bar:beat, start and stop against the host clock with listeners,
/// and the OSStatus of wrong arguments.
@Suite struct CAClockTests {
    static func beats(_ value: Double) -> CAClockTime {
        var time = CAClockTime()
        time.format = kCAClockTimeFormat_Beats
        time.time.beats = value
        return time
    }

    @Test func mapsAndTranslations() throws {
        var clock: CAClockRef?
        #expect(CANewClock(&clock) == noErr)
        defer { CAClockDispose(clock) }
        var tempo = [CATempoMapEntry(beats: 0, tempoBPM: 60), CATempoMapEntry(beats: 4, tempoBPM: 120)]
        #expect(CAClockSetProperty(clock, kCAClockProperty_TempoMap, UInt32(MemoryLayout<CATempoMapEntry>.stride * 2), &tempo) == noErr)
        var size: UInt32 = 0
        var writable: DarwinBoolean = false
        #expect(CAClockGetPropertyInfo(clock, kCAClockProperty_TempoMap, &size, &writable) == noErr && Int(size) == MemoryLayout<CATempoMapEntry>.stride * 2)
        var readTempo = [CATempoMapEntry](repeating: CATempoMapEntry(), count: 2)
        #expect(CAClockGetProperty(clock, kCAClockProperty_TempoMap, &size, &readTempo) == noErr && readTempo[1].tempoBPM == 120)
        var six = Self.beats(6), out = CAClockTime()
        #expect(CAClockTranslateTime(clock, &six, kCAClockTimeFormat_Seconds, &out) == noErr)
        #expect(out.format == kCAClockTimeFormat_Seconds && abs(out.time.seconds - 5) < 1e-9, "4 beats at 60 BPM, 2 at 120")
        var seconds = CAClockTime()
        seconds.format = kCAClockTimeFormat_Seconds
        seconds.time.seconds = 5
        #expect(CAClockTranslateTime(clock, &seconds, kCAClockTimeFormat_Beats, &out) == noErr && abs(out.time.beats - 6) < 1e-9)

        var meter = [CAMeterTrackEntry(beats: 0, meterNumer: 3, meterDenom: 4)]
        #expect(CAClockSetProperty(clock, kCAClockProperty_MeterTrack, UInt32(MemoryLayout<CAMeterTrackEntry>.stride), &meter) == noErr)
        var bbt = CABarBeatTime()
        #expect(CAClockBeatsToBarBeatTime(clock, 4.5, 480, &bbt) == noErr)
        #expect(bbt.bar == 2 && bbt.beat == 2 && bbt.subbeat == 240)
        var back = 0.0
        #expect(CAClockBarBeatTimeToBeats(clock, &bbt, &back) == noErr && abs(back - 4.5) < 1e-9)

        var format = kSMPTETimeType25
        #expect(CAClockSetProperty(clock, kCAClockProperty_SMPTEFormat, 4, &format) == noErr)
        var offset = 3600.0
        #expect(CAClockSetProperty(clock, kCAClockProperty_SMPTEOffset, 8, &offset) == noErr)
        var smpte = SMPTETime()
        #expect(CAClockSecondsToSMPTETime(clock, 1.5, 80, &smpte) == noErr)
        #expect(smpte.mHours == 1 && smpte.mMinutes == 0 && smpte.mSeconds == 1 && smpte.mFrames == 12 && smpte.mType == kSMPTETimeType25)
        #expect(CAClockSMPTETimeToSeconds(clock, &smpte, &back) == noErr && abs(back - 1.5) < 1e-9, "12.5 frames: 12 and 40 of 80 subframes")
        var invalid = kSMPTETimeType60
        #expect(CAClockSetProperty(clock, kCAClockProperty_SMPTEFormat, 4, &invalid) == kCAClock_InvalidSMPTEFormatError)
        smpte.mType = kSMPTETimeType60
        #expect(CAClockSMPTETimeToSeconds(clock, &smpte, &back) == kCAClock_InvalidSMPTEFormatError)
    }

    final class Messages: @unchecked Sendable {
        var received: [CAClockMessage] = []
    }

    static let listener: CAClockListenerProc = { data, message, _ in
        Unmanaged<Messages>.fromOpaque(data!).takeUnretainedValue().received.append(message)
    }

    @Test func runsWithTheHostClockAndTellsItsListeners() throws {
        var clock: CAClockRef?
        #expect(CANewClock(&clock) == noErr)
        defer { CAClockDispose(clock) }
        let messages = Messages()
        #expect(CAClockAddListener(clock, Self.listener, Unmanaged.passUnretained(messages).toOpaque()) == noErr)
        var two = Self.beats(2)
        #expect(CAClockSetCurrentTime(clock, &two) == noErr)
        var now = CAClockTime()
        #expect(CAClockGetCurrentTime(clock, kCAClockTimeFormat_Beats, &now) == noErr && now.time.beats == 2, "stopped, it stays where it was set")
        #expect(CAClockStart(clock) == noErr)
        #expect(CAClockSetCurrentTime(clock, &two) == kCAClock_CannotSetTimeError)
        // It moves with host time: wait (5 s at most) until it has passed beat 2.
        let deadline = Date().addingTimeInterval(5)
        repeat {
            usleep(5_000)
            #expect(CAClockGetCurrentTime(clock, kCAClockTimeFormat_Beats, &now) == noErr)
        } while now.time.beats <= 2 && Date() < deadline
        #expect(now.time.beats > 2)
        var tempo = 0.0
        #expect(CAClockGetCurrentTempo(clock, &tempo, nil) == noErr && tempo == 120)
        #expect(CAClockStop(clock) == noErr)
        var first = CAClockTime(), second = CAClockTime()
        #expect(CAClockGetCurrentTime(clock, kCAClockTimeFormat_Seconds, &first) == noErr)
        usleep(5_000)
        #expect(CAClockGetCurrentTime(clock, kCAClockTimeFormat_Seconds, &second) == noErr && first.time.seconds == second.time.seconds)
        #expect(CAClockGetCurrentTime(clock, kCAClockTimeFormat_HostTime, &now) == noErr && now.format == kCAClockTimeFormat_HostTime && now.time.hostTime > 0)
        #expect(messages.received == [kCAClockMessage_StartTimeSet, kCAClockMessage_Started, kCAClockMessage_Stopped])
        #expect(CAClockRemoveListener(clock, Self.listener, Unmanaged.passUnretained(messages).toOpaque()) == noErr)
        #expect(CAClockStart(clock) == noErr)
        #expect(messages.received.count == 3, "a removed listener hears nothing")
    }

    @Test func wrongArgumentsGetTheirStatus() throws {
        #expect(CANewClock(nil) == kAudio_ParamError)
        var clock: CAClockRef?
        #expect(CANewClock(&clock) == noErr)
        var rate = 0.0
        #expect(CAClockGetPlayRate(clock, &rate) == noErr && rate == 1)
        #expect(CAClockSetPlayRate(clock, 0) == kCAClock_InvalidPlayRateError)
        #expect(CAClockSetPlayRate(clock, 2) == noErr)
        #expect(CAClockGetPlayRate(clock, &rate) == noErr && rate == 2)
        var size: UInt32 = 4
        var value: UInt32 = 0
        #expect(CAClockGetProperty(clock, 0x1234, &size, &value) == kCAClock_UnknownPropertyError)
        #expect(CAClockGetProperty(clock, kCAClockProperty_Name, &size, &value) == kAudio_UnimplementedError)
        #expect(CAClockGetProperty(clock, kCAClockProperty_SyncMode, &size, &value) == noErr && value == kCAClockSyncMode_Internal)
        var mode = kCAClockSyncMode_MTCTransport
        #expect(CAClockSetProperty(clock, kCAClockProperty_SyncMode, 4, &mode) == kCAClock_InvalidSyncModeError)
        #expect(CAClockArm(clock) == kCAClock_InvalidSyncModeError, "an internally synced clock")
        #expect(CAClockParseMIDI(clock, nil) == kAudio_ParamError)
        var offset = 1.0
        #expect(CAClockSetProperty(clock, kCAClockProperty_SMPTEOffset, 4, &offset) == kCAClock_InvalidPropertySizeError)
        size = 2
        var offsetOut = 0.0
        #expect(CAClockGetProperty(clock, kCAClockProperty_SMPTEOffset, &size, &offsetOut) == kCAClock_InvalidPropertySizeError)
        var badTempo = [CATempoMapEntry(beats: 0, tempoBPM: -1)]
        #expect(CAClockSetProperty(clock, kCAClockProperty_TempoMap, UInt32(MemoryLayout<CATempoMapEntry>.stride), &badTempo) == kAudio_ParamError)
        var badMeter = [CAMeterTrackEntry(beats: 0, meterNumer: 3, meterDenom: 3)]
        #expect(CAClockSetProperty(clock, kCAClockProperty_MeterTrack, UInt32(MemoryLayout<CAMeterTrackEntry>.stride), &badMeter) == kAudio_ParamError)
        var samples = CAClockTime()
        samples.format = kCAClockTimeFormat_Samples
        var out = CAClockTime()
        #expect(CAClockTranslateTime(clock, &samples, kCAClockTimeFormat_Beats, &out) == kCAClock_InvalidTimeFormatError)
        var beats = Self.beats(1)
        #expect(CAClockTranslateTime(clock, &beats, kCAClockTimeFormat_AbsoluteSeconds, &out) == kCAClock_InvalidTimeFormatError)
        #expect(CAClockGetCurrentTime(clock, kCAClockTimeFormat_Beats, nil) == kAudio_ParamError)
        var smpte = SMPTETime()
        #expect(CAClockSecondsToSMPTETime(clock, 1, 0, &smpte) == kAudio_ParamError)
        var bbt = CABarBeatTime()
        #expect(CAClockBeatsToBarBeatTime(clock, .nan, 480, &bbt) == kAudio_ParamError)
        #expect(CAClockBarBeatTimeToBeats(clock, nil, nil) == kAudio_ParamError)
        #expect(CAClockAddListener(clock, nil, nil) == kAudio_ParamError)
        #expect(CAClockDispose(clock) == noErr)
        #expect(CAClockStart(clock) == kAudio_ParamError, "a disposed clock")
    }
}
