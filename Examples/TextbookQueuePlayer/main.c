/* A file played through an output audio queue, in this project's own words: the pattern of
   "Learning Core Audio", chapter 5's CH05_Player (whose code compiles unchanged here but for
   its file's path): the file opened with AudioFileOpenURL from a CFSTR path, its format
   handed to AudioQueueNewOutput, buffers sized from kAudioFilePropertyPacketSizeUpperBound,
   the magic cookie copied when the file has one, three buffers filled by the callback with
   AudioFileReadPackets, and the main thread in CFRunLoopRunInMode until the file has been
   read, then until the queue has played what it holds. kInputFileLocation is the path. */
#include <AudioToolbox/AudioToolbox.h>

#ifndef kInputFileLocation
#define kInputFileLocation CFSTR("input.wav")
#endif
#define kBufferCount 3

typedef struct QueuePlayback {
    AudioFileID file;
    SInt64 nextPacket;
    UInt32 packetsPerBuffer;
    Boolean done;
} QueuePlayback;

static void Check(OSStatus status, const char *what) {
    if (status == noErr) return;
    fprintf(stderr, "error: %s (%d)\n", what, (int)status);
    exit(1);
}

static void FillBuffer(void *userData, AudioQueueRef queue, AudioQueueBufferRef buffer) {
    QueuePlayback *playback = (QueuePlayback *)userData;
    if (playback->done) return;
    UInt32 bytes = 0;
    UInt32 packets = playback->packetsPerBuffer;
    Check(AudioFileReadPackets(playback->file, false, &bytes, NULL, playback->nextPacket, &packets, buffer->mAudioData),
          "AudioFileReadPackets");
    if (packets > 0) {
        buffer->mAudioDataByteSize = bytes;
        Check(AudioQueueEnqueueBuffer(queue, buffer, 0, NULL), "AudioQueueEnqueueBuffer");
        playback->nextPacket += packets;
    } else {
        Check(AudioQueueStop(queue, false), "AudioQueueStop");
        playback->done = true;
    }
}

/* Copies the file's magic cookie to the queue: compressed formats have one, PCM none. */
static void CopyCookie(AudioFileID file, AudioQueueRef queue) {
    UInt32 size = 0;
    if (AudioFileGetPropertyInfo(file, kAudioFilePropertyMagicCookieData, &size, NULL) != noErr || size == 0) return;
    void *cookie = malloc(size);
    Check(AudioFileGetProperty(file, kAudioFilePropertyMagicCookieData, &size, cookie), "MagicCookieData");
    Check(AudioQueueSetProperty(queue, kAudioQueueProperty_MagicCookie, cookie, size), "set the magic cookie");
    free(cookie);
}

int main(void) {
    QueuePlayback playback = {0};
    CFURLRef url = CFURLCreateWithFileSystemPath(kCFAllocatorDefault, kInputFileLocation, kCFURLPOSIXPathStyle, false);
    Check(AudioFileOpenURL(url, kAudioFileReadPermission, 0, &playback.file), "AudioFileOpenURL");
    CFRelease(url);
    AudioStreamBasicDescription format;
    UInt32 size = sizeof(format);
    Check(AudioFileGetProperty(playback.file, kAudioFilePropertyDataFormat, &size, &format), "DataFormat");

    AudioQueueRef queue;
    Check(AudioQueueNewOutput(&format, FillBuffer, &playback, NULL, NULL, 0, &queue), "AudioQueueNewOutput");

    UInt32 maxPacketSize = 0;
    size = sizeof(maxPacketSize);
    Check(AudioFileGetProperty(playback.file, kAudioFilePropertyPacketSizeUpperBound, &size, &maxPacketSize), "PacketSizeUpperBound");
    UInt32 bufferBytes = 0x10000; /* 64 KB: the book's largest buffer, 0.37 s of CD audio */
    playback.packetsPerBuffer = bufferBytes / maxPacketSize;
    CopyCookie(playback.file, queue);

    for (int i = 0; i < kBufferCount && !playback.done; i++) {
        AudioQueueBufferRef buffer;
        Check(AudioQueueAllocateBuffer(queue, bufferBytes, &buffer), "AudioQueueAllocateBuffer");
        FillBuffer(&playback, queue, buffer);
    }
    Check(AudioQueueStart(queue, NULL), "AudioQueueStart");
    printf("playing\n");
    while (!playback.done) CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.25, false);
    /* The last buffers are still playing: wait until the queue says it stopped. */
    for (int i = 0; i < 40; i++) {
        UInt32 running = 1;
        size = sizeof(running);
        Check(AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size), "IsRunning");
        if (!running) break;
        CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.25, false);
    }
    printf("played %lld packets\n", (long long)playback.nextPacket);
    AudioQueueDispose(queue, true);
    AudioFileClose(playback.file);
    return 0;
}
