/* AudioQueueTone: the textbook audio queue program: an output queue of 16-bit stereo at
   44.1 kHz, three buffers of 0.1 s filled with a 440 Hz tone by the output callback and
   enqueued again until one second has been queued, AudioQueueStop(queue, false) to let the
   last buffers play, the main thread waiting in CFRunLoopRunInMode until the queue's
   IsRunning property says it stopped. Plays on AUHOST_DEVICE's device (file:PATH.wav
   writes it). Volume 0.5 through kAudioQueueParam_Volume.
   Build: cc -I include main.c -L .build/debug -lAudioToolbox -L <toolchain>/usr/lib/swift/linux -lFoundation -lm */
#include <AudioToolbox/AudioToolbox.h>
#include <math.h>
#include <stdio.h>

#define CHECK(call) do { OSStatus s_ = (call); if (s_ != noErr) { \
    fprintf(stderr, "AudioQueueTone: %s failed: %d\n", #call, (int)s_); return 1; } } while (0)

enum { bufferFrames = 4410, bufferCount = 3, totalBuffers = 10 };

typedef struct {
    double phase;
    int filled;
    int stopped;
    int runningChanges;
} Player;

static void fill(void *userData, AudioQueueRef queue, AudioQueueBufferRef buffer) {
    Player *player = userData;
    if (player->filled == totalBuffers) {
        if (!player->stopped) { AudioQueueStop(queue, false); player->stopped = 1; }
        return;
    }
    SInt16 *samples = buffer->mAudioData;
    for (int frame = 0; frame < bufferFrames; frame++) {
        SInt16 value = (SInt16)(sin(player->phase) * 0.8 * 32767);
        samples[2 * frame] = samples[2 * frame + 1] = value;
        player->phase += 2 * M_PI * 440 / 44100;
    }
    buffer->mAudioDataByteSize = bufferFrames * 4;
    player->filled++;
    AudioQueueEnqueueBuffer(queue, buffer, 0, NULL);
}

static void runningChanged(void *userData, AudioQueueRef queue, AudioQueuePropertyID property) {
    ((Player *)userData)->runningChanges++;
}

int main(void) {
    AudioStreamBasicDescription format = {44100, kAudioFormatLinearPCM,
        kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked, 4, 1, 4, 2, 16, 0};
    Player player = {0};
    AudioQueueRef queue;
    CHECK(AudioQueueNewOutput(&format, fill, &player, CFRunLoopGetCurrent(), kCFRunLoopCommonModes, 0, &queue));
    CHECK(AudioQueueAddPropertyListener(queue, kAudioQueueProperty_IsRunning, runningChanged, &player));
    for (int i = 0; i < bufferCount; i++) {
        AudioQueueBufferRef buffer;
        CHECK(AudioQueueAllocateBuffer(queue, bufferFrames * 4, &buffer));
        fill(&player, queue, buffer);
    }
    CHECK(AudioQueueSetParameter(queue, kAudioQueueParam_Volume, 0.5f));
    CHECK(AudioQueueStart(queue, NULL));
    UInt32 running = 1, size = sizeof running;
    for (int wait = 0; running && wait < 120; wait++) {   /* at most 30 s */
        CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.25, false);
        CHECK(AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size));
    }
    CHECK(AudioQueueDispose(queue, true));
    printf("queued %d buffers; running changed %d times; %s\n", player.filled, player.runningChanges, running ? "still running" : "stopped");
    return running ? 1 : 0;
}
