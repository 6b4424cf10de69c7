import AUTestSupport
import Foundation
import Testing

/// The resampled render callback of a standalone output unit on JACK (CallbackResampler)
/// allocates nothing and takes no lock: a C client under the AllocCounter shim plays a
/// 48 kHz callback on a jackd of the test's own at 44.1 kHz; after 0.3 s the counts of the
/// threads AUHost marks as rendering (JACK's process thread) are reset, and the next 0.7 s,
/// in which the callback is called, must add no allocation, free or lock.
@Suite(.serialized) struct ResamplerAllocationLiveTests {
    static let client = #"""
    #include <AudioToolbox/AudioToolbox.h>
    #include <dlfcn.h>
    #include <stdatomic.h>

    typedef struct { uint64_t mallocs, callocs, reallocs, frees, retains, releases, locks, syscalls; } counts;
    static atomic_int calls;

    static OSStatus tone(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus, UInt32 frames, AudioBufferList *data) {
        for (UInt32 b = 0; b < data->mNumberBuffers; b++)
            for (UInt32 i = 0; i < frames; i++) ((Float32 *)data->mBuffers[b].mData)[i] = (Float32)sin((time->mSampleTime + i) * 0.1) * 0.5f;
        atomic_fetch_add(&calls, 1);
        return noErr;
    }

    int main(void) {
        void (*reset)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "alloc_counter_reset");
        void (*read)(counts *) = (void (*)(counts *))dlsym(RTLD_DEFAULT, "alloc_counter_read");
        if (!reset || !read) { fprintf(stderr, "not under the AllocCounter shim\n"); return 2; }
        setenv("JACK_DEFAULT_SERVER", "SERVER_NAME", 1);
        unsetenv("AUHOST_DEVICE");
        AudioComponentDescription description = {kAudioUnitType_Output, kAudioUnitSubType_DefaultOutput, kAudioUnitManufacturer_Apple, 0, 0};
        AudioUnit output;
        if (AudioComponentInstanceNew(AudioComponentFindNext(NULL, &description), &output)) return 1;
        AudioStreamBasicDescription format = {48000, kAudioFormatLinearPCM, kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved, 4, 1, 4, 2, 32, 0};
        if (AudioUnitSetProperty(output, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, sizeof format)) return 3;
        AURenderCallbackStruct callback = {tone, NULL};
        if (AudioUnitSetProperty(output, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback, sizeof callback)) return 4;
        if (AudioUnitInitialize(output) || AudioOutputUnitStart(output)) return 5;
        usleep(300000);
        reset();
        int before = atomic_load(&calls);
        usleep(700000);
        counts c;
        read(&c);
        int during = atomic_load(&calls) - before;
        AudioOutputUnitStop(output);
        AudioComponentInstanceDispose(output);
        printf("mallocs=%llu callocs=%llu reallocs=%llu frees=%llu retains=%llu releases=%llu locks=%llu calls=%s\n",
               (unsigned long long)c.mallocs, (unsigned long long)c.callocs, (unsigned long long)c.reallocs, (unsigned long long)c.frees,
               (unsigned long long)c.retains, (unsigned long long)c.releases, (unsigned long long)c.locks, during > 0 ? "yes" : "no");
        return 0;
    }
    """#

    @Test func theResampledCallbackAllocatesAndLocksNothing() throws {
        let server = try JACKTestServer(periodFrames: 512, sampleRate: 44_100)
        defer { server.stop() }
        let run = try CClientUnderShim.run(Self.client.replacingOccurrences(of: "SERVER_NAME", with: server.name), name: "resampler-alloc")
        #expect(run.status == 0, "\(run.text)")
        // Retains are left to an optimized build (a debug build of any Swift code retains).
        #expect(run.text.contains("mallocs=0 callocs=0 reallocs=0 frees=0 "), "\(run.text)")
        #expect(run.text.contains(" locks=0 calls=yes"), "\(run.text)")
    }
}
