/* A file played through an AUGraph, in this project's own words: the pattern of "Learning
   Core Audio", chapter 7's CH07_AUGraphPlayer (whose code compiles unchanged here but for its
   file's path): the file opened with AudioFileOpenURL from a CFSTR path, an AUGraph of
   Apple's AUAudioFilePlayer into the default output unit, the whole file scheduled as one
   region, primed, started at the next render (sample time -1), and the main thread sleeping
   for the file's duration. The path is the program's one setting: kInputFileLocation. */
#include <AudioToolbox/AudioToolbox.h>

#ifndef kInputFileLocation
#define kInputFileLocation CFSTR("input.wav")
#endif

typedef struct FilePlayback {
    AudioStreamBasicDescription fileFormat;
    AudioFileID file;
    AUGraph graph;
    AudioUnit player;
} FilePlayback;

static void Check(OSStatus status, const char *what) {
    if (status == noErr) return;
    fprintf(stderr, "error: %s (%d)\n", what, (int)status);
    exit(1);
}

static void BuildGraph(FilePlayback *playback) {
    Check(NewAUGraph(&playback->graph), "NewAUGraph");
    AudioComponentDescription outputDescription = { kAudioUnitType_Output, kAudioUnitSubType_DefaultOutput,
                                                    kAudioUnitManufacturer_Apple, 0, 0 };
    AudioComponentDescription playerDescription = { kAudioUnitType_Generator, kAudioUnitSubType_AudioFilePlayer,
                                                    kAudioUnitManufacturer_Apple, 0, 0 };
    AUNode outputNode, playerNode;
    Check(AUGraphAddNode(playback->graph, &outputDescription, &outputNode), "AUGraphAddNode output");
    Check(AUGraphAddNode(playback->graph, &playerDescription, &playerNode), "AUGraphAddNode player");
    Check(AUGraphOpen(playback->graph), "AUGraphOpen");
    Check(AUGraphNodeInfo(playback->graph, playerNode, NULL, &playback->player), "AUGraphNodeInfo");
    Check(AUGraphConnectNodeInput(playback->graph, playerNode, 0, outputNode, 0), "AUGraphConnectNodeInput");
    Check(AUGraphInitialize(playback->graph), "AUGraphInitialize");
}

/* Schedules the whole file and returns its duration in seconds. */
static double ScheduleFile(FilePlayback *playback) {
    Check(AudioUnitSetProperty(playback->player, kAudioUnitProperty_ScheduledFileIDs, kAudioUnitScope_Global, 0,
                               &playback->file, sizeof(playback->file)), "ScheduledFileIDs");
    UInt64 packets = 0;
    UInt32 size = sizeof(packets);
    Check(AudioFileGetProperty(playback->file, kAudioFilePropertyAudioDataPacketCount, &size, &packets), "packet count");

    ScheduledAudioFileRegion region;
    memset(&region, 0, sizeof(region));
    region.mTimeStamp.mFlags = kAudioTimeStampSampleTimeValid;
    region.mTimeStamp.mSampleTime = 0;
    region.mAudioFile = playback->file;
    region.mStartFrame = 0;
    region.mFramesToPlay = (UInt32)(packets * playback->fileFormat.mFramesPerPacket);
    Check(AudioUnitSetProperty(playback->player, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0,
                               &region, sizeof(region)), "ScheduledFileRegion");
    UInt32 primeFrames = 0; /* 0: the unit's default */
    Check(AudioUnitSetProperty(playback->player, kAudioUnitProperty_ScheduledFilePrime, kAudioUnitScope_Global, 0,
                               &primeFrames, sizeof(primeFrames)), "ScheduledFilePrime");
    AudioTimeStamp start;
    memset(&start, 0, sizeof(start));
    start.mFlags = kAudioTimeStampSampleTimeValid;
    start.mSampleTime = -1; /* the next render */
    Check(AudioUnitSetProperty(playback->player, kAudioUnitProperty_ScheduleStartTimeStamp, kAudioUnitScope_Global, 0,
                               &start, sizeof(start)), "ScheduleStartTimeStamp");
    return region.mFramesToPlay / playback->fileFormat.mSampleRate;
}

int main(void) {
    FilePlayback playback = {0};
    CFURLRef url = CFURLCreateWithFileSystemPath(kCFAllocatorDefault, kInputFileLocation, kCFURLPOSIXPathStyle, false);
    Check(AudioFileOpenURL(url, kAudioFileReadPermission, 0, &playback.file), "AudioFileOpenURL");
    CFRelease(url);
    UInt32 size = sizeof(playback.fileFormat);
    Check(AudioFileGetProperty(playback.file, kAudioFilePropertyDataFormat, &size, &playback.fileFormat), "DataFormat");

    BuildGraph(&playback);
    double seconds = ScheduleFile(&playback);
    Check(AUGraphStart(playback.graph), "AUGraphStart");
    printf("playing %.2f s\n", seconds);
    usleep((useconds_t)(seconds * 1000.0 * 1000.0));

    AUGraphStop(playback.graph);
    AUGraphUninitialize(playback.graph);
    AUGraphClose(playback.graph);
    AudioFileClose(playback.file);
    return 0;
}
