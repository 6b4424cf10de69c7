/* The scheduled-playback properties of Apple's AudioUnitProperties.h (AUAudioFilePlayer), for
   AUHost's AudioToolbox on Linux. Written from Apple's public documentation. */
#ifndef AUHOST_AUDIOUNITSCHEDULEDPLAYBACK_H
#define AUHOST_AUDIOUNITSCHEDULEDPLAYBACK_H

#include <AudioUnit/AUComponent.h>

#ifdef __cplusplus
extern "C" {
#endif

AUHOST_ENUM(AudioUnitPropertyID) {
    kAudioUnitProperty_ScheduleAudioSlice = 3300,
    kAudioUnitProperty_CurrentPlayTime = 3302,
    kAudioUnitProperty_ScheduledFileIDs = 3310,
    kAudioUnitProperty_ScheduleStartTimeStamp = 3316,
    kAudioUnitProperty_ScheduledFileRegion = 3321,
    kAudioUnitProperty_ScheduledFileBufferSizeFrames = 3322,
    kAudioUnitProperty_ScheduledFilePrime = 3323,
    kAudioUnitProperty_ScheduledFileNumberBuffers = 3324
};

/* The flags of a scheduled slice: the program clears them; the unit sets them as it plays. */
typedef UInt32 AUScheduledAudioSliceFlags;
AUHOST_ENUM(AUScheduledAudioSliceFlags) {
    kScheduledAudioSliceFlag_Complete = 0x01,
    kScheduledAudioSliceFlag_BeganToRender = 0x02,
    kScheduledAudioSliceFlag_BeganToRenderLate = 0x04,
    kScheduledAudioSliceFlag_Loop = 0x08,
    kScheduledAudioSliceFlag_Interrupt = 0x10,
    kScheduledAudioSliceFlag_InterruptAtLoop = 0x20
};

struct ScheduledAudioSlice;
typedef void (*ScheduledAudioSliceCompletionProc)(void *userData, struct ScheduledAudioSlice *bufferList);

/* One buffer of audio for a ScheduledSoundPlayer (kAudioUnitProperty_ScheduleAudioSlice):
   the unit keeps the pointer, so the slice and its buffers live until it is complete. */
typedef struct ScheduledAudioSlice {
    AudioTimeStamp mTimeStamp;
    ScheduledAudioSliceCompletionProc mCompletionProc;
    void *mCompletionProcUserData;
    AUScheduledAudioSliceFlags mFlags;
    UInt32 mReserved;
    void *mReserved2;
    UInt32 mNumberFrames;
    AudioBufferList *mBufferList;
} ScheduledAudioSlice;

struct ScheduledAudioFileRegion;
typedef void (*ScheduledAudioFileRegionCompletionProc)(void *userData, struct ScheduledAudioFileRegion *fileRegion, OSStatus result);

typedef struct ScheduledAudioFileRegion {
    AudioTimeStamp mTimeStamp;
    ScheduledAudioFileRegionCompletionProc mCompletionProc;
    void *mCompletionProcUserData;
    struct OpaqueAudioFileID *mAudioFile;
    UInt32 mLoopCount;
    SInt64 mStartFrame;
    UInt32 mFramesToPlay;
} ScheduledAudioFileRegion;

#ifdef __cplusplus
}
#endif

#endif
