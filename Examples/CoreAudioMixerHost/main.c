/*
 * MixerHost for Linux: the Audio Unit Hosting Guide's patterns (Remote I/O + Multichannel
 * Mixer + iPod EQ in an AUGraph) assembled into one complete C program, built against
 * AUHost's AudioToolbox (docs/AUDIOTOOLBOX.md):
 *
 *   cc -Wno-multichar -I include Examples/CoreAudioMixerHost/main.c \
 *      -L .build/debug -lAudioToolbox -Wl,-rpath,$PWD/.build/debug -lm -o mixerhost
 *   AUHOST_DEVICE=file:mixerhost.wav ./mixerhost      # or through JACK with no variable
 *
 * What it plays (3 seconds):
 *   0-1 s  440 Hz (mixer bus 0: a 16-bit interleaved render callback)
 *          + 660 Hz (mixer bus 1: a float render callback through the iPod EQ)
 *   1-2 s  440 Hz alone: bus 1's volume set to 0 while the graph runs
 *   2-3 s  880 Hz + 660 Hz: bus 0's callback replaced (AUGraphSetNodeInputCallback +
 *          AUGraphUpdate while running), bus 1's volume back to 1
 */
#include <AudioToolbox/AudioToolbox.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CHECK(call)                                                                   \
    do {                                                                              \
        OSStatus status_ = (call);                                                    \
        if (status_ != noErr) {                                                       \
            fprintf(stderr, "mixerhost: %s failed: %d\n", #call, (int)status_);       \
            return 1;                                                                 \
        }                                                                             \
    } while (0)

static const Float64 graphSampleRate = 44100.0;

typedef struct {
    double phase;
    double frequency;
} Tone;

/* Mixer bus 0: stereo 16-bit signed integer, interleaved (one buffer, two channels). */
static OSStatus int16ToneCallback(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                                  UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    Tone *tone = (Tone *)inRefCon;
    SInt16 *samples = (SInt16 *)ioData->mBuffers[0].mData;
    double step = 2.0 * M_PI * tone->frequency / graphSampleRate;
    for (UInt32 frame = 0; frame < inNumberFrames; frame++) {
        SInt16 value = (SInt16)(sin(tone->phase) * 0.25 * 32767.0);
        samples[2 * frame] = value;
        samples[2 * frame + 1] = value;
        tone->phase += step;
        if (tone->phase > 2.0 * M_PI) tone->phase -= 2.0 * M_PI;
    }
    return noErr;
}

/* The iPod EQ's input: stereo 32-bit float, non-interleaved (one buffer per channel). */
static OSStatus floatToneCallback(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                                  UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    Tone *tone = (Tone *)inRefCon;
    double step = 2.0 * M_PI * tone->frequency / graphSampleRate;
    double phase = tone->phase;
    for (UInt32 buffer = 0; buffer < ioData->mNumberBuffers; buffer++) {
        Float32 *samples = (Float32 *)ioData->mBuffers[buffer].mData;
        phase = tone->phase;
        for (UInt32 frame = 0; frame < inNumberFrames; frame++) {
            samples[frame] = (Float32)(sin(phase) * 0.25);
            phase += step;
        }
    }
    tone->phase = fmod(phase, 2.0 * M_PI);
    return noErr;
}

static void printASBD(const char *label, AudioStreamBasicDescription asbd) {
    char formatIDString[5];
    UInt32 formatID = CFSwapInt32HostToBig(asbd.mFormatID);
    memcpy(formatIDString, &formatID, 4);
    formatIDString[4] = '\0';
    printf("%s: %.0f Hz '%s' flags 0x%X, %u bytes/packet, %u frames/packet, %u bytes/frame, %u channels, %u bits\n", label,
           asbd.mSampleRate, formatIDString, (unsigned)asbd.mFormatFlags, (unsigned)asbd.mBytesPerPacket,
           (unsigned)asbd.mFramesPerPacket, (unsigned)asbd.mBytesPerFrame, (unsigned)asbd.mChannelsPerFrame,
           (unsigned)asbd.mBitsPerChannel);
}

int main(void) {
    static Tone lowTone = {0, 440.0}, eqTone = {0, 660.0}, highTone = {0, 880.0};

    AudioComponentDescription ioUnitDescription = {0};
    ioUnitDescription.componentType = kAudioUnitType_Output;
    ioUnitDescription.componentSubType = kAudioUnitSubType_RemoteIO;
    ioUnitDescription.componentManufacturer = kAudioUnitManufacturer_Apple;

    AudioComponentDescription mixerDescription = {0};
    mixerDescription.componentType = kAudioUnitType_Mixer;
    mixerDescription.componentSubType = kAudioUnitSubType_MultiChannelMixer;
    mixerDescription.componentManufacturer = kAudioUnitManufacturer_Apple;

    AudioComponentDescription eqDescription = {0};
    eqDescription.componentType = kAudioUnitType_Effect;
    eqDescription.componentSubType = kAudioUnitSubType_AUiPodEQ;
    eqDescription.componentManufacturer = kAudioUnitManufacturer_Apple;

    /* The audio processing graph and its nodes. */
    AUGraph processingGraph;
    CHECK(NewAUGraph(&processingGraph));
    AUNode ioNode, mixerNode, eqNode;
    CHECK(AUGraphAddNode(processingGraph, &ioUnitDescription, &ioNode));
    CHECK(AUGraphAddNode(processingGraph, &mixerDescription, &mixerNode));
    CHECK(AUGraphAddNode(processingGraph, &eqDescription, &eqNode));
    CHECK(AUGraphOpen(processingGraph));

    AudioUnit ioUnit, mixerUnit, eqUnit;
    CHECK(AUGraphNodeInfo(processingGraph, ioNode, NULL, &ioUnit));
    CHECK(AUGraphNodeInfo(processingGraph, mixerNode, NULL, &mixerUnit));
    CHECK(AUGraphNodeInfo(processingGraph, eqNode, NULL, &eqUnit));

    /* Output enabled on the I/O unit's element 0 (the default). */
    UInt32 enableOutput = 1;
    CHECK(AudioUnitSetProperty(ioUnit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, &enableOutput, sizeof(enableOutput)));

    /* The mixer: two input buses, MaximumFramesPerSlice, its output's sample rate. */
    UInt32 busCount = 2;
    CHECK(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &busCount, sizeof(busCount)));
    UInt32 maximumFramesPerSlice = 4096;
    CHECK(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maximumFramesPerSlice,
                               sizeof(maximumFramesPerSlice)));
    CHECK(AudioUnitSetProperty(eqUnit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maximumFramesPerSlice,
                               sizeof(maximumFramesPerSlice)));
    Float64 sampleRate = graphSampleRate;
    CHECK(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &sampleRate, sizeof(sampleRate)));

    /* Mixer bus 0: 16-bit stereo, interleaved. Set, then read back. */
    AudioStreamBasicDescription int16Stereo = {0};
    int16Stereo.mSampleRate = graphSampleRate;
    int16Stereo.mFormatID = kAudioFormatLinearPCM;
    int16Stereo.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked;
    int16Stereo.mBytesPerPacket = 4;
    int16Stereo.mFramesPerPacket = 1;
    int16Stereo.mBytesPerFrame = 4;
    int16Stereo.mChannelsPerFrame = 2;
    int16Stereo.mBitsPerChannel = 16;
    CHECK(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &int16Stereo, sizeof(int16Stereo)));

    /* The iPod EQ and mixer bus 1: 32-bit float stereo, non-interleaved. */
    AudioStreamBasicDescription floatStereo = {0};
    floatStereo.mSampleRate = graphSampleRate;
    floatStereo.mFormatID = kAudioFormatLinearPCM;
    floatStereo.mFormatFlags = kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved;
    floatStereo.mBytesPerPacket = 4;
    floatStereo.mFramesPerPacket = 1;
    floatStereo.mBytesPerFrame = 4;
    floatStereo.mChannelsPerFrame = 2;
    floatStereo.mBitsPerChannel = 32;
    CHECK(AudioUnitSetProperty(eqUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &floatStereo, sizeof(floatStereo)));
    CHECK(AudioUnitSetProperty(eqUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &floatStereo, sizeof(floatStereo)));
    CHECK(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 1, &floatStereo, sizeof(floatStereo)));

    AudioStreamBasicDescription readBack;
    for (UInt32 bus = 0; bus < 2; bus++) {
        UInt32 size = sizeof(readBack);
        memset(&readBack, 0, sizeof(readBack));
        CHECK(AudioUnitGetProperty(mixerUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, bus, &readBack, &size));
        const AudioStreamBasicDescription *expected = bus == 0 ? &int16Stereo : &floatStereo;
        printASBD(bus == 0 ? "mixer input 0" : "mixer input 1", readBack);
        if (size != sizeof(readBack) || memcmp(&readBack, expected, sizeof(readBack)) != 0) {
            fprintf(stderr, "mixerhost: mixer input %u's format reads back different\n", (unsigned)bus);
            return 1;
        }
    }

    /* The iPod EQ's preset: "Disabled" (number 0) keeps the tone's level. */
    AUPreset flat = {0, NULL};
    CHECK(AudioUnitSetProperty(eqUnit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &flat, sizeof(flat)));

    /* Two render callbacks, attached through the graph. */
    AURenderCallbackStruct lowCallback = {int16ToneCallback, &lowTone};
    CHECK(AUGraphSetNodeInputCallback(processingGraph, mixerNode, 0, &lowCallback));
    AURenderCallbackStruct eqCallback = {floatToneCallback, &eqTone};
    CHECK(AUGraphSetNodeInputCallback(processingGraph, eqNode, 0, &eqCallback));

    /* The EQ into mixer bus 1 through the graph API... */
    CHECK(AUGraphConnectNodeInput(processingGraph, eqNode, 0, mixerNode, 1));

    /* ...and the mixer into the I/O unit's output element through the property. */
    AudioUnitConnection mixerOutToIoUnitIn;
    mixerOutToIoUnitIn.sourceAudioUnit = mixerUnit;
    mixerOutToIoUnitIn.sourceOutputNumber = 0;
    mixerOutToIoUnitIn.destInputNumber = 0;
    CHECK(AudioUnitSetProperty(ioUnit, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, 0, &mixerOutToIoUnitIn,
                               sizeof(mixerOutToIoUnitIn)));

    CHECK(AUGraphInitialize(processingGraph));
    CAShow(processingGraph);
    CHECK(AUGraphStart(processingGraph));
    printf("playing\n");
    fflush(stdout);

    usleep(1000000);
    CHECK(AudioUnitSetParameter(mixerUnit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 1, 0.0f, 0));
    printf("bus 1 volume 0\n");
    fflush(stdout);

    usleep(1000000);
    AURenderCallbackStruct highCallback = {int16ToneCallback, &highTone};
    CHECK(AUGraphSetNodeInputCallback(processingGraph, mixerNode, 0, &highCallback));
    Boolean graphUpdated = 0;
    CHECK(AUGraphUpdate(processingGraph, &graphUpdated));
    CHECK(AudioUnitSetParameter(mixerUnit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 1, 1.0f, 0));
    printf("bus 0 callback replaced (updated: %d), bus 1 volume 1\n", graphUpdated);
    fflush(stdout);

    usleep(1000000);
    Boolean running = 0;
    CHECK(AUGraphIsRunning(processingGraph, &running));
    CHECK(AUGraphStop(processingGraph));
    CHECK(DisposeAUGraph(processingGraph));
    printf("stopped (was running: %d)\n", running);
    return running ? 0 : 1;
}
