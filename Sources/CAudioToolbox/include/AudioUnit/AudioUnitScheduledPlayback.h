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
