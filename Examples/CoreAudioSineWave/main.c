/*
 * SineWave: the textbook render-callback program: the default output unit alone (no AUGraph),
 * a render callback on its input scope, AudioOutputUnitStart, two seconds of a 440 Hz sine in
 * 16-bit interleaved stereo (the client format set on the output unit's input scope, converted
 * by the library), AudioOutputUnitStop, dispose.
 *
 *   cc -Wno-multichar -I include Examples/CoreAudioSineWave/main.c -L .build/debug -lAudioToolbox \
 *      -Wl,-rpath,$PWD/.build/debug -lm -o sinewave && AUHOST_DEVICE=file:sine.wav ./sinewave
 */
#include <AudioToolbox/AudioToolbox.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>

typedef struct {
    double startingFrameCount;
    double sampleRate;
} SineWavePlayer;

static OSStatus SineWaveRenderProc(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                                   UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    SineWavePlayer *player = (SineWavePlayer *)inRefCon;
    double cycleLength = player->sampleRate / 440.0;
    double j = player->startingFrameCount;
    SInt16 *samples = (SInt16 *)ioData->mBuffers[0].mData;
    for (UInt32 frame = 0; frame < inNumberFrames; ++frame) {
        SInt16 value = (SInt16)(sin(2 * M_PI * (j / cycleLength)) * 0.5 * 32767.0);
        samples[2 * frame] = value;
        samples[2 * frame + 1] = value;
        j += 1.0;
        if (j > cycleLength) j -= cycleLength;
    }
    player->startingFrameCount = j;
    return noErr;
}

#define CHECK(call, what)                                                          \
    do {                                                                           \
        OSStatus status_ = (call);                                                 \
        if (status_ != noErr) {                                                    \
            fprintf(stderr, "sinewave: %s failed: %d\n", what, (int)status_);     \
            return 1;                                                              \
        }                                                                          \
    } while (0)

int main(void) {
    SineWavePlayer player = {0, 0};
    AudioComponentDescription outputcd = {0};
    outputcd.componentType = kAudioUnitType_Output;
    outputcd.componentSubType = kAudioUnitSubType_DefaultOutput;
    outputcd.componentManufacturer = kAudioUnitManufacturer_Apple;
    AudioComponent comp = AudioComponentFindNext(NULL, &outputcd);
    if (comp == NULL) {
        fprintf(stderr, "sinewave: can't get output unit\n");
        return 1;
    }
    AudioUnit outputUnit;
    CHECK(AudioComponentInstanceNew(comp, &outputUnit), "AudioComponentInstanceNew");

    /* The device's rate, from the output unit's input scope (the side the program feeds). */
    AudioStreamBasicDescription format;
    UInt32 size = sizeof(format);
    CHECK(AudioUnitGetProperty(outputUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, &size),
          "get the stream format");
    player.sampleRate = format.mSampleRate;

    AudioStreamBasicDescription int16Stereo = {0};
    int16Stereo.mSampleRate = format.mSampleRate;
    int16Stereo.mFormatID = kAudioFormatLinearPCM;
    int16Stereo.mFormatFlags = kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked;
    int16Stereo.mBytesPerPacket = 4;
    int16Stereo.mFramesPerPacket = 1;
    int16Stereo.mBytesPerFrame = 4;
    int16Stereo.mChannelsPerFrame = 2;
    int16Stereo.mBitsPerChannel = 16;
    CHECK(AudioUnitSetProperty(outputUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &int16Stereo, sizeof(int16Stereo)),
          "set the stream format");

    AURenderCallbackStruct input;
    input.inputProc = SineWaveRenderProc;
    input.inputProcRefCon = &player;
    CHECK(AudioUnitSetProperty(outputUnit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &input, sizeof(input)),
          "set the render callback");
    CHECK(AudioUnitInitialize(outputUnit), "AudioUnitInitialize");
    CHECK(AudioOutputUnitStart(outputUnit), "AudioOutputUnitStart");
    printf("playing 440 Hz at %.0f Hz\n", player.sampleRate);
    fflush(stdout);
    usleep(2000000);
    UInt32 running = 0;
    size = sizeof(running);
    CHECK(AudioUnitGetProperty(outputUnit, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0, &running, &size), "IsRunning");
    CHECK(AudioOutputUnitStop(outputUnit), "AudioOutputUnitStop");
    CHECK(AudioUnitUninitialize(outputUnit), "AudioUnitUninitialize");
    CHECK(AudioComponentInstanceDispose(outputUnit), "AudioComponentInstanceDispose");
    printf("stopped (was running: %u)\n", (unsigned)running);
    return running ? 0 : 1;
}
