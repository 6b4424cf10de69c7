/* CoreAudioClock.h for AUHost's AudioToolbox on Linux: the Core Audio Clock over AUMIDI's
   CAClock, synced internally to the host clock (CLOCK_MONOTONIC nanoseconds, the host time of
   MusicPlayerGetHostTimeForBeats) or to the MIDI clock a program hands it (CAClockParseMIDI). Written from Apple's public documentation;
   docs/AUDIOTOOLBOX.md lists what works. */
#ifndef AUHOST_COREAUDIOCLOCK_H
#define AUHOST_COREAUDIOCLOCK_H

#include <CoreAudio/CoreAudioTypes.h>
#include <CoreMIDI/MIDIServices.h>
#include <AudioToolbox/MusicPlayer.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct OpaqueCAClock *CAClockRef;
typedef Float64 CAClockBeats;
typedef Float64 CAClockTempo;
typedef Float64 CAClockSamples;
typedef Float64 CAClockSeconds;
typedef UInt32 CAClockPropertyID;
typedef UInt32 CAClockTimeFormat;
typedef UInt32 CAClockMessage;

AUHOST_ENUM(CAClockTimeFormat) {
    kCAClockTimeFormat_HostTime = 0x686F7374,       /* 'host' */
    kCAClockTimeFormat_Samples = 0x73616D70,        /* 'samp' */
    kCAClockTimeFormat_Beats = 0x62656174,          /* 'beat' */
    kCAClockTimeFormat_Seconds = 0x73656373,        /* 'secs' */
    kCAClockTimeFormat_SMPTESeconds = 0x736D7073,   /* 'smps' */
    kCAClockTimeFormat_SMPTETime = 0x736D7074,      /* 'smpt' */
    kCAClockTimeFormat_AbsoluteSeconds = 0x61736563 /* 'asec' */
};

AUHOST_ENUM(CAClockPropertyID) {
    kCAClockProperty_InternalTimebase = 0x696E7462, /* 'intb' */
    kCAClockProperty_TimebaseSource = 0x69746273,   /* 'itbs' */
    kCAClockProperty_SyncMode = 0x73796E6D,         /* 'synm' */
    kCAClockProperty_SyncSource = 0x73796E73,       /* 'syns' */
    kCAClockProperty_SMPTEFormat = 0x736D7066,      /* 'smpf' */
    kCAClockProperty_SMPTEOffset = 0x736D706F,      /* 'smpo' */
    kCAClockProperty_MIDIClockDestinations = 0x6D626364, /* 'mbcd' */
    kCAClockProperty_MTCDestinations = 0x6D746364,  /* 'mtcd' */
    kCAClockProperty_MTCFreewheelTime = 0x6D746677, /* 'mtfw' */
    kCAClockProperty_TempoMap = 0x746D706F,         /* 'tmpo' */
    kCAClockProperty_MeterTrack = 0x6D657472,       /* 'metr' */
    kCAClockProperty_Name = 0x6E616D65,             /* 'name' */
    kCAClockProperty_SendMIDISPP = 0x6D737070       /* 'mspp' */
};

AUHOST_ENUM(UInt32) {
    kCAClockSyncMode_Internal = 0x696E7472,         /* 'intr' */
    kCAClockSyncMode_MIDIClockTransport = 0x6D636C6B, /* 'mclk' */
    kCAClockSyncMode_MTCTransport = 0x6D6D7463,     /* 'mmtc' */
    /* AUHost's own: the JACK server's transport (the default server, JACK_DEFAULT_SERVER). */
    kCAClockSyncMode_JACKTransport = 0x6A61636B     /* 'jack' */
};

AUHOST_ENUM(CAClockMessage) {
    kCAClockMessage_StartTimeSet = 0x7374696D,      /* 'stim' */
    kCAClockMessage_Started = 0x73747274,           /* 'strt' */
    kCAClockMessage_Stopped = 0x73746F70,           /* 'stop' */
    kCAClockMessage_Armed = 0x61726D64,             /* 'armd' */
    kCAClockMessage_Disarmed = 0x6461726D,          /* 'darm' */
    kCAClockMessage_PropertyChanged = 0x70636867,   /* 'pchg' */
    kCAClockMessage_WrongSMPTEFormat = 0x3F736D70   /* '?smp' */
};

AUHOST_ENUM(OSStatus) {
    kCAClock_UnknownPropertyError = -66816,
    kCAClock_InvalidPropertySizeError = -66815,
    kCAClock_InvalidTimeFormatError = -66814,
    kCAClock_InvalidSyncModeError = -66813,
    kCAClock_InvalidSyncSourceError = -66812,
    kCAClock_InvalidTimebaseError = -66811,
    kCAClock_InvalidTimebaseSourceError = -66810,
    kCAClock_InvalidSMPTEFormatError = -66809,
    kCAClock_InvalidSMPTEOffsetError = -66808,
    kCAClock_InvalidUnitError = -66807,
    kCAClock_InvalidPlayRateError = -66806,
    kCAClock_CannotSetTimeError = -66805
};

typedef struct CAClockTime {
    CAClockTimeFormat format;
    UInt32 reserved;
    union {
        UInt64 hostTime;
        CAClockSamples samples;
        CAClockBeats beats;
        CAClockSeconds seconds;
        SMPTETime smpte;
    } time;
} CAClockTime;

typedef struct CATempoMapEntry {
    CAClockBeats beats;
    CAClockTempo tempoBPM;
} CATempoMapEntry;

typedef struct CAMeterTrackEntry {
    CAClockBeats beats;
    UInt16 meterNumer;
    UInt16 meterDenom;
} CAMeterTrackEntry;

typedef void (*CAClockListenerProc)(void *userData, CAClockMessage message, const void *param);

OSStatus CANewClock(CAClockRef *outCAClock);
OSStatus CAClockDispose(CAClockRef inCAClock);
OSStatus CAClockGetPropertyInfo(CAClockRef inCAClock, CAClockPropertyID inPropertyID, UInt32 *outSize, Boolean *outWritable);
OSStatus CAClockGetProperty(CAClockRef inCAClock, CAClockPropertyID inPropertyID, UInt32 *ioPropertyDataSize, void *outPropertyData);
OSStatus CAClockSetProperty(CAClockRef inCAClock, CAClockPropertyID inPropertyID, UInt32 inPropertyDataSize,
    const void *inPropertyData);
OSStatus CAClockAddListener(CAClockRef inCAClock, CAClockListenerProc inListenerProc, void *inUserData);
OSStatus CAClockRemoveListener(CAClockRef inCAClock, CAClockListenerProc inListenerProc, void *inUserData);
OSStatus CAClockSetCurrentTime(CAClockRef inCAClock, const CAClockTime *inTime);
OSStatus CAClockGetCurrentTime(CAClockRef inCAClock, CAClockTimeFormat inTimeFormat, CAClockTime *outTime);
OSStatus CAClockTranslateTime(CAClockRef inCAClock, const CAClockTime *inTime, CAClockTimeFormat inOutputTimeFormat,
    CAClockTime *outTime);
OSStatus CAClockStart(CAClockRef inCAClock);
OSStatus CAClockStop(CAClockRef inCAClock);
OSStatus CAClockSetPlayRate(CAClockRef inCAClock, Float64 inPlayRate);
OSStatus CAClockGetPlayRate(CAClockRef inCAClock, Float64 *outPlayRate);
OSStatus CAClockGetCurrentTempo(CAClockRef inCAClock, CAClockTempo *outTempo, CAClockTime *outTimestamp);
OSStatus CAClockSecondsToSMPTETime(CAClockRef inCAClock, CAClockSeconds inSeconds, UInt16 inSubframeDivisor,
    SMPTETime *outSMPTETime);
OSStatus CAClockSMPTETimeToSeconds(CAClockRef inCAClock, const SMPTETime *inSMPTETime, CAClockSeconds *outSeconds);
OSStatus CAClockBeatsToBarBeatTime(CAClockRef inCAClock, CAClockBeats inBeats, UInt16 inSubbeatDivisor,
    CABarBeatTime *outBBT);
OSStatus CAClockBarBeatTimeToBeats(CAClockRef inCAClock, const CABarBeatTime *inBBT, CAClockBeats *outBeats);
OSStatus CAClockArm(CAClockRef inCAClock);
OSStatus CAClockDisarm(CAClockRef inCAClock);
OSStatus CAClockParseMIDI(CAClockRef inCAClock, const MIDIPacketList *inMIDIPacketList);

#ifdef __cplusplus
}
#endif

#endif
