/* MusicPlayer.h for AUHost's AudioToolbox on Linux: MusicSequence, MusicTrack,
   MusicEventIterator and MusicPlayer over AUMIDI. Written from Apple's public
   documentation, with Apple's structure layouts and constant values.
   docs/AUDIOTOOLBOX.md lists what works. */
#ifndef AUHOST_MUSICPLAYER_H
#define AUHOST_MUSICPLAYER_H

#include <CoreFoundation/CoreFoundation.h>
#include <AudioUnit/AudioUnit.h>
#include <AudioUnit/MusicDevice.h>
#include <AudioToolbox/AUGraph.h>
#include <CoreServices/CoreServices.h>

#ifdef __cplusplus
extern "C" {
#endif

AUHOST_NAMED_ENUM(UInt32, MusicEventType) {
    kMusicEventType_NULL = 0,
    kMusicEventType_ExtendedNote = 1,
    kMusicEventType_ExtendedTempo = 3,
    kMusicEventType_User = 4,
    kMusicEventType_Meta = 5,
    kMusicEventType_MIDINoteMessage = 6,
    kMusicEventType_MIDIChannelMessage = 7,
    kMusicEventType_MIDIRawData = 8,
    kMusicEventType_Parameter = 9,
    kMusicEventType_AUPreset = 10
};

AUHOST_NAMED_ENUM(UInt32, MusicSequenceLoadFlags) {
    kMusicSequenceLoadSMF_PreserveTracks = 0,
    kMusicSequenceLoadSMF_ChannelsToTracks = (1U << 0)
};

AUHOST_NAMED_ENUM(UInt32, MusicSequenceType) {
    kMusicSequenceType_Beats = 0x62656174,   /* 'beat' */
    kMusicSequenceType_Seconds = 0x73656373, /* 'secs' */
    kMusicSequenceType_Samples = 0x73616D70  /* 'samp' */
};

AUHOST_NAMED_ENUM(UInt32, MusicSequenceFileTypeID) {
    kMusicSequenceFile_AnyType = 0,
    kMusicSequenceFile_MIDIType = 0x6D696469,   /* 'midi' */
    kMusicSequenceFile_iMelodyType = 0x696D656C /* 'imel' */
};

AUHOST_NAMED_ENUM(UInt32, MusicSequenceFileFlags) {
    kMusicSequenceFileFlags_Default = 0,
    kMusicSequenceFileFlags_EraseFile = 1
};

typedef Float64 MusicTimeStamp;
#define kMusicTimeStamp_EndOfTrack 1000000000.0

typedef struct MIDINoteMessage {
    UInt8 channel;
    UInt8 note;
    UInt8 velocity;
    UInt8 releaseVelocity;
    Float32 duration;
} MIDINoteMessage;

typedef struct MIDIChannelMessage {
    UInt8 status;
    UInt8 data1;
    UInt8 data2;
    UInt8 reserved;
} MIDIChannelMessage;

typedef struct MIDIRawData {
    UInt32 length;
    UInt8 data[1];
} MIDIRawData;

typedef struct MIDIMetaEvent {
    UInt8 metaEventType;
    UInt8 unused1;
    UInt8 unused2;
    UInt8 unused3;
    UInt32 dataLength;
    UInt8 data[1];
} MIDIMetaEvent;

typedef struct MusicEventUserData {
    UInt32 length;
    UInt8 data[1];
} MusicEventUserData;

typedef struct ExtendedNoteOnEvent {
    MusicDeviceInstrumentID instrumentID;
    MusicDeviceGroupID groupID;
    Float32 duration;
    MusicDeviceNoteParams extendedParams;
} ExtendedNoteOnEvent;

typedef struct ParameterEvent {
    AudioUnitParameterID parameterID;
    AudioUnitScope scope;
    AudioUnitElement element;
    AudioUnitParameterValue value;
} ParameterEvent;

typedef struct ExtendedTempoEvent {
    Float64 bpm;
} ExtendedTempoEvent;

typedef const void *CFPropertyListRef;

typedef struct AUPresetEvent {
    AudioUnitScope scope;
    AudioUnitElement element;
    CFPropertyListRef preset;
} AUPresetEvent;

typedef struct CABarBeatTime {
    SInt32 bar;
    UInt16 beat;
    UInt16 subbeat;
    UInt16 subbeatDivisor;
    UInt16 reserved;
} CABarBeatTime;

typedef struct MusicTrackLoopInfo {
    MusicTimeStamp loopDuration;
    SInt32 numberOfLoops;
} MusicTrackLoopInfo;

typedef struct OpaqueMusicPlayer *MusicPlayer;
typedef struct OpaqueMusicSequence *MusicSequence;
typedef struct OpaqueMusicTrack *MusicTrack;
typedef struct OpaqueMusicEventIterator *MusicEventIterator;

/* CoreMIDI's endpoint reference: no CoreMIDI yet (MusicSequenceSetMIDIEndpoint and
   MusicTrackSetDestMIDIEndpoint return kAudio_UnimplementedError). */
typedef UInt32 MIDIObjectRef;
typedef MIDIObjectRef MIDIEndpointRef;

typedef void (*MusicSequenceUserCallback)(void *inClientData, MusicSequence inSequence, MusicTrack inTrack,
    MusicTimeStamp inEventTime, const MusicEventUserData *inEventData, MusicTimeStamp inStartSliceBeat,
    MusicTimeStamp inEndSliceBeat);

AUHOST_ENUM(OSStatus) {
    kAudioToolboxErr_InvalidSequenceType = -10846,
    kAudioToolboxErr_TrackIndexError = -10859,
    kAudioToolboxErr_TrackNotFound = -10858,
    kAudioToolboxErr_EndOfTrack = -10857,
    kAudioToolboxErr_StartOfTrack = -10856,
    kAudioToolboxErr_IllegalTrackDestination = -10855,
    kAudioToolboxErr_NoSequence = -10854,
    kAudioToolboxErr_InvalidEventType = -10853,
    kAudioToolboxErr_InvalidPlayerState = -10852,
    kAudioToolboxErr_CannotDoInCurrentContext = -10863,
    kAudioToolboxError_NoTrackDestination = -66720
};

AUHOST_ENUM(UInt32) {
    kSequenceTrackProperty_LoopInfo = 0,
    kSequenceTrackProperty_OffsetTime = 1,
    kSequenceTrackProperty_MuteStatus = 2,
    kSequenceTrackProperty_SoloStatus = 3,
    kSequenceTrackProperty_AutomatedParameters = 4,
    kSequenceTrackProperty_TrackLength = 5,
    kSequenceTrackProperty_TimeResolution = 6
};

/* MusicPlayer */
OSStatus NewMusicPlayer(MusicPlayer *outPlayer);
OSStatus DisposeMusicPlayer(MusicPlayer inPlayer);
OSStatus MusicPlayerSetSequence(MusicPlayer inPlayer, MusicSequence inSequence);
OSStatus MusicPlayerGetSequence(MusicPlayer inPlayer, MusicSequence *outSequence);
OSStatus MusicPlayerSetTime(MusicPlayer inPlayer, MusicTimeStamp inTime);
OSStatus MusicPlayerGetTime(MusicPlayer inPlayer, MusicTimeStamp *outTime);
OSStatus MusicPlayerGetHostTimeForBeats(MusicPlayer inPlayer, MusicTimeStamp inBeats, UInt64 *outHostTime);
OSStatus MusicPlayerGetBeatsForHostTime(MusicPlayer inPlayer, UInt64 inHostTime, MusicTimeStamp *outBeats);
OSStatus MusicPlayerPreroll(MusicPlayer inPlayer);
OSStatus MusicPlayerStart(MusicPlayer inPlayer);
OSStatus MusicPlayerStop(MusicPlayer inPlayer);
OSStatus MusicPlayerIsPlaying(MusicPlayer inPlayer, Boolean *outIsPlaying);
OSStatus MusicPlayerSetPlayRateScalar(MusicPlayer inPlayer, Float64 inScaleRate);
OSStatus MusicPlayerGetPlayRateScalar(MusicPlayer inPlayer, Float64 *outScaleRate);

/* MusicSequence */
OSStatus NewMusicSequence(MusicSequence *outSequence);
OSStatus DisposeMusicSequence(MusicSequence inSequence);
OSStatus MusicSequenceNewTrack(MusicSequence inSequence, MusicTrack *outTrack);
OSStatus MusicSequenceDisposeTrack(MusicSequence inSequence, MusicTrack inTrack);
OSStatus MusicSequenceGetTrackCount(MusicSequence inSequence, UInt32 *outNumberOfTracks);
OSStatus MusicSequenceGetIndTrack(MusicSequence inSequence, UInt32 inTrackIndex, MusicTrack *outTrack);
OSStatus MusicSequenceGetTrackIndex(MusicSequence inSequence, MusicTrack inTrack, UInt32 *outTrackIndex);
OSStatus MusicSequenceGetTempoTrack(MusicSequence inSequence, MusicTrack *outTrack);
OSStatus MusicSequenceSetAUGraph(MusicSequence inSequence, AUGraph inGraph);
OSStatus MusicSequenceGetAUGraph(MusicSequence inSequence, AUGraph *outGraph);
OSStatus MusicSequenceSetMIDIEndpoint(MusicSequence inSequence, MIDIEndpointRef inEndpoint);
OSStatus MusicSequenceSetSequenceType(MusicSequence inSequence, MusicSequenceType inType);
OSStatus MusicSequenceGetSequenceType(MusicSequence inSequence, MusicSequenceType *outType);
OSStatus MusicSequenceFileLoad(MusicSequence inSequence, CFURLRef inFileRef, MusicSequenceFileTypeID inFileTypeHint,
    MusicSequenceLoadFlags inFlags);
OSStatus MusicSequenceFileLoadData(MusicSequence inSequence, CFDataRef inData, MusicSequenceFileTypeID inFileTypeHint,
    MusicSequenceLoadFlags inFlags);
OSStatus MusicSequenceFileCreate(MusicSequence inSequence, CFURLRef inFileRef, MusicSequenceFileTypeID inFileType,
    MusicSequenceFileFlags inFlags, SInt16 inResolution);
OSStatus MusicSequenceFileCreateData(MusicSequence inSequence, MusicSequenceFileTypeID inFileType,
    MusicSequenceFileFlags inFlags, SInt16 inResolution, CFDataRef *outData);
OSStatus MusicSequenceLoadSMFDataWithFlags(MusicSequence inSequence, CFDataRef inData, MusicSequenceLoadFlags inFlags);
OSStatus MusicSequenceLoadSMFWithFlags(MusicSequence inSequence, const FSRef *inFileRef, MusicSequenceLoadFlags inFlags);
OSStatus MusicSequenceSaveSMFData(MusicSequence inSequence, CFDataRef *outData, UInt16 inResolution);
OSStatus MusicSequenceGetSecondsForBeats(MusicSequence inSequence, MusicTimeStamp inBeats, Float64 *outSeconds);
OSStatus MusicSequenceGetBeatsForSeconds(MusicSequence inSequence, Float64 inSeconds, MusicTimeStamp *outBeats);
CFDictionaryRef MusicSequenceGetInfoDictionary(MusicSequence inSequence);
OSStatus MusicSequenceSetUserCallback(MusicSequence inSequence, MusicSequenceUserCallback inCallback, void *inClientData);
OSStatus MusicSequenceBeatsToBarBeatTime(MusicSequence inSequence, MusicTimeStamp inBeats, UInt32 inSubbeatDivisor,
    CABarBeatTime *outBarBeatTime);
OSStatus MusicSequenceBarBeatTimeToBeats(MusicSequence inSequence, const CABarBeatTime *inBarBeatTime,
    MusicTimeStamp *outBeats);

/* MusicTrack */
OSStatus MusicTrackGetSequence(MusicTrack inTrack, MusicSequence *outSequence);
OSStatus MusicTrackSetDestNode(MusicTrack inTrack, AUNode inNode);
OSStatus MusicTrackGetDestNode(MusicTrack inTrack, AUNode *outNode);
OSStatus MusicTrackSetDestMIDIEndpoint(MusicTrack inTrack, MIDIEndpointRef inEndpoint);
OSStatus MusicTrackSetProperty(MusicTrack inTrack, UInt32 inPropertyID, void *inData, UInt32 inLength);
OSStatus MusicTrackGetProperty(MusicTrack inTrack, UInt32 inPropertyID, void *outData, UInt32 *ioLength);
OSStatus MusicTrackMoveEvents(MusicTrack inTrack, MusicTimeStamp inStartTime, MusicTimeStamp inEndTime,
    MusicTimeStamp inMoveTime);
OSStatus MusicTrackClear(MusicTrack inTrack, MusicTimeStamp inStartTime, MusicTimeStamp inEndTime);
OSStatus MusicTrackCut(MusicTrack inTrack, MusicTimeStamp inStartTime, MusicTimeStamp inEndTime);
OSStatus MusicTrackCopyInsert(MusicTrack inSourceTrack, MusicTimeStamp inSourceStartTime,
    MusicTimeStamp inSourceEndTime, MusicTrack inDestTrack, MusicTimeStamp inDestInsertTime);
OSStatus MusicTrackMerge(MusicTrack inSourceTrack, MusicTimeStamp inSourceStartTime, MusicTimeStamp inSourceEndTime,
    MusicTrack inDestTrack, MusicTimeStamp inDestInsertTime);
OSStatus MusicTrackNewMIDINoteEvent(MusicTrack inTrack, MusicTimeStamp inTimeStamp, const MIDINoteMessage *inMessage);
OSStatus MusicTrackNewMIDIChannelEvent(MusicTrack inTrack, MusicTimeStamp inTimeStamp,
    const MIDIChannelMessage *inMessage);
OSStatus MusicTrackNewMIDIRawDataEvent(MusicTrack inTrack, MusicTimeStamp inTimeStamp, const MIDIRawData *inRawData);
OSStatus MusicTrackNewExtendedNoteEvent(MusicTrack inTrack, MusicTimeStamp inTimeStamp,
    const ExtendedNoteOnEvent *inInfo);
OSStatus MusicTrackNewParameterEvent(MusicTrack inTrack, MusicTimeStamp inTimeStamp, const ParameterEvent *inInfo);
OSStatus MusicTrackNewExtendedTempoEvent(MusicTrack inTrack, MusicTimeStamp inTimeStamp, Float64 inBPM);
OSStatus MusicTrackNewMetaEvent(MusicTrack inTrack, MusicTimeStamp inTimeStamp, const MIDIMetaEvent *inMetaEvent);
OSStatus MusicTrackNewUserEvent(MusicTrack inTrack, MusicTimeStamp inTimeStamp, const MusicEventUserData *inUserData);
OSStatus MusicTrackNewAUPresetEvent(MusicTrack inTrack, MusicTimeStamp inTimeStamp, const AUPresetEvent *inPresetEvent);

/* MusicEventIterator */
OSStatus NewMusicEventIterator(MusicTrack inTrack, MusicEventIterator *outIterator);
OSStatus DisposeMusicEventIterator(MusicEventIterator inIterator);
OSStatus MusicEventIteratorSeek(MusicEventIterator inIterator, MusicTimeStamp inTimeStamp);
OSStatus MusicEventIteratorNextEvent(MusicEventIterator inIterator);
OSStatus MusicEventIteratorPreviousEvent(MusicEventIterator inIterator);
OSStatus MusicEventIteratorGetEventInfo(MusicEventIterator inIterator, MusicTimeStamp *outTimeStamp,
    MusicEventType *outEventType, const void **outEventData, UInt32 *outEventDataSize);
OSStatus MusicEventIteratorSetEventInfo(MusicEventIterator inIterator, MusicEventType inEventType,
    const void *inEventData);
OSStatus MusicEventIteratorSetEventTime(MusicEventIterator inIterator, MusicTimeStamp inTimeStamp);
OSStatus MusicEventIteratorDeleteEvent(MusicEventIterator inIterator);
OSStatus MusicEventIteratorHasPreviousEvent(MusicEventIterator inIterator, Boolean *outHasPrevEvent);
OSStatus MusicEventIteratorHasNextEvent(MusicEventIterator inIterator, Boolean *outHasNextEvent);
OSStatus MusicEventIteratorHasCurrentEvent(MusicEventIterator inIterator, Boolean *outHasCurEvent);

#ifdef __cplusplus
}
#endif

#endif
