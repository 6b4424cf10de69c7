/* The textbook render-callback program, in this project's own words: the pattern of
   "Learning Core Audio" (Adamson & Avila), chapter 7's CH07_AUGraphSineWave, whose code
   compiles unchanged against these headers (docs/AUDIOTOOLBOX.md). Like it, this program
   includes nothing but <AudioToolbox/AudioToolbox.h> and relies on it for the C library
   (printf, sin, isprint, exit, sleep), never sets a stream format (it writes Apple's default:
   32-bit float, non-interleaved, stereo), makes the default output unit alone, sets a render
   callback on its input, starts it and sleeps. It plays 880 Hz at 0.5 for two seconds. */
#include <AudioToolbox/AudioToolbox.h>

#define kToneFrequency 880.0
#define kToneRate 44100.0

typedef struct ToneState {
    AudioUnit output;
    double phase; /* in frames, within one cycle */
} ToneState;

/* Prints what failed (as a four-character code when it reads as one) and ends the program. */
static void Check(OSStatus status, const char *what) {
    if (status == noErr) return;
    char text[20];
    *(UInt32 *)(text + 1) = CFSwapInt32HostToBig((UInt32)status);
    if (isprint(text[1]) && isprint(text[2]) && isprint(text[3]) && isprint(text[4])) {
        text[0] = text[5] = '\'';
        text[6] = '\0';
    } else {
        sprintf(text, "%d", (int)status);
    }
    fprintf(stderr, "error: %s (%s)\n", what, text);
    exit(1);
}

static OSStatus RenderTone(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time,
                           UInt32 bus, UInt32 frames, AudioBufferList *data) {
    ToneState *state = (ToneState *)refCon;
    double cycle = kToneRate / kToneFrequency;
    double phase = state->phase;
    Float32 *left = (Float32 *)data->mBuffers[0].mData;
    Float32 *right = (Float32 *)data->mBuffers[1].mData;
    for (UInt32 frame = 0; frame < frames; frame++) {
        Float32 sample = (Float32)(0.5 * sin(2 * M_PI * phase / cycle));
        left[frame] = sample;
        right[frame] = sample;
        phase += 1;
        if (phase > cycle) phase -= cycle;
    }
    state->phase = phase;
    return noErr;
}

int main(void) {
    ToneState state = {0};
    AudioComponentDescription description = {0};
    description.componentType = kAudioUnitType_Output;
    description.componentSubType = kAudioUnitSubType_DefaultOutput;
    description.componentManufacturer = kAudioUnitManufacturer_Apple;
    AudioComponent component = AudioComponentFindNext(NULL, &description);
    if (component == NULL) {
        printf("no default output unit\n");
        return 1;
    }
    Check(AudioComponentInstanceNew(component, &state.output), "AudioComponentInstanceNew");

    AURenderCallbackStruct callback = { RenderTone, &state };
    Check(AudioUnitSetProperty(state.output, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                               &callback, sizeof(callback)), "SetRenderCallback");
    Check(AudioUnitInitialize(state.output), "AudioUnitInitialize");

    CFAbsoluteTime started = CFAbsoluteTimeGetCurrent();
    Check(AudioOutputUnitStart(state.output), "AudioOutputUnitStart");
    printf("playing\n");
    sleep(2);
    AudioOutputUnitStop(state.output);
    printf("played for %s 2 s\n", CFAbsoluteTimeGetCurrent() - started >= 2.0 ? "at least" : "less than");
    AudioUnitUninitialize(state.output);
    AudioComponentInstanceDispose(state.output);
    return 0;
}
