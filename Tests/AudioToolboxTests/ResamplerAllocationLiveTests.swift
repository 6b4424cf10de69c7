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
    \#(CClientUnderShim.prologue)
    #include <stdatomic.h>

    static atomic_int calls;

    static OSStatus tone(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus, UInt32 frames, AudioBufferList *data) {
        for (UInt32 b = 0; b < data->mNumberBuffers; b++)
            for (UInt32 i = 0; i < frames; i++) ((Float32 *)data->mBuffers[b].mData)[i] = (Float32)sin((time->mSampleTime + i) * 0.1) * 0.5f;
        atomic_fetch_add(&calls, 1);
        return noErr;
    }

    int main(void) {
        openShim();
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
        readCounts(&c);
        int during = atomic_load(&calls) - before;
        AudioOutputUnitStop(output);
        AudioComponentInstanceDispose(output);
        printCounts(&c);
        printf(" calls=%s\n", during > 0 ? "yes" : "no");
        return 0;
    }
    """#

    /// Runs `client` under the shim against a jackd of its own (44.1 kHz, 512 frames): it
    /// exits 0, and its counts have no allocation or free and end with `ending` (the locks and
    /// what it called). Retains are left to an optimized build (a debug build of any Swift code
    /// retains).
    static func expectNothingCounted(_ client: String, name: String, ending: String) throws {
        let server = try JACKTestServer(periodFrames: 512, sampleRate: 44_100)
        defer { server.stop() }
        let run = try CClientUnderShim.run(client.replacingOccurrences(of: "SERVER_NAME", with: server.name), name: name)
        #expect(run.status == 0, "\(run.text)")
        #expect(run.text.contains("mallocs=0 callocs=0 reallocs=0 frees=0 "), "\(run.text)")
        #expect(run.text.contains(ending), "\(run.text)")
    }

    @Test func theResampledCallbackAllocatesAndLocksNothing() throws {
        try Self.expectNothingCounted(Self.client, name: "resampler-alloc", ending: " locks=0 calls=yes")
    }

    /// The same for a whole graph at 48 kHz resampled to the server (a mixer fed by the
    /// callback, into Remote I/O) and, in the same program, a second Remote I/O capturing:
    /// its input callback pulls element 1 with AudioUnitRender each cycle.
    static let graphAndCaptureClient = #"""
    \#(CClientUnderShim.prologue)
    #include <stdatomic.h>

    static atomic_int calls, captures;
    static AudioUnit rio;
    static Float32 left[8192], right[8192];
    static struct { UInt32 count; AudioBuffer buffers[2]; } list;

    static OSStatus tone(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus, UInt32 frames, AudioBufferList *data) {
        for (UInt32 b = 0; b < data->mNumberBuffers; b++)
            for (UInt32 i = 0; i < frames; i++) ((Float32 *)data->mBuffers[b].mData)[i] = (Float32)sin((time->mSampleTime + i) * 0.1) * 0.5f;
        atomic_fetch_add(&calls, 1);
        return noErr;
    }

    static OSStatus input(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus, UInt32 frames, AudioBufferList *data) {
        if (frames > 8192) return -1;
        list.count = 2;
        list.buffers[0] = (AudioBuffer){1, frames * 4, left};
        list.buffers[1] = (AudioBuffer){1, frames * 4, right};
        if (AudioUnitRender(rio, flags, time, 1, frames, (AudioBufferList *)&list) == noErr) atomic_fetch_add(&captures, 1);
        return noErr;
    }

    int main(void) {
        openShim();
        setenv("JACK_DEFAULT_SERVER", "SERVER_NAME", 1);
        unsetenv("AUHOST_DEVICE");
        AUGraph graph;
        AudioComponentDescription io = {kAudioUnitType_Output, kAudioUnitSubType_RemoteIO, kAudioUnitManufacturer_Apple, 0, 0};
        AudioComponentDescription mix = {kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer, kAudioUnitManufacturer_Apple, 0, 0};
        AUNode ioNode, mixerNode;
        AudioUnit mixer;
        if (NewAUGraph(&graph) || AUGraphAddNode(graph, &io, &ioNode) || AUGraphAddNode(graph, &mix, &mixerNode) || AUGraphOpen(graph)) return 3;
        if (AUGraphNodeInfo(graph, mixerNode, NULL, &mixer)) return 3;
        AudioStreamBasicDescription format = {48000, kAudioFormatLinearPCM, kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved, 4, 1, 4, 2, 32, 0};
        Float64 rate = 48000;
        if (AudioUnitSetProperty(mixer, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, sizeof format)) return 4;
        if (AudioUnitSetProperty(mixer, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &rate, sizeof rate)) return 4;
        AURenderCallbackStruct callback = {tone, NULL};
        if (AUGraphSetNodeInputCallback(graph, mixerNode, 0, &callback) || AUGraphConnectNodeInput(graph, mixerNode, 0, ioNode, 0)) return 5;
        if (AUGraphInitialize(graph) || AUGraphStart(graph)) return 6;

        if (AudioComponentInstanceNew(AudioComponentFindNext(NULL, &io), &rio)) return 7;
        UInt32 one = 1;
        AURenderCallbackStruct inputCallback = {input, NULL};
        if (AudioUnitSetProperty(rio, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &one, sizeof one)) return 8;
        if (AudioUnitSetProperty(rio, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0, &inputCallback, sizeof inputCallback)) return 8;
        if (AudioUnitInitialize(rio) || AudioOutputUnitStart(rio)) return 9;

        usleep(300000);
        reset();
        int before = atomic_load(&calls), capturedBefore = atomic_load(&captures);
        usleep(700000);
        counts c;
        readCounts(&c);
        int during = atomic_load(&calls) - before, captured = atomic_load(&captures) - capturedBefore;
        AudioOutputUnitStop(rio);
        AudioComponentInstanceDispose(rio);
        AUGraphStop(graph);
        DisposeAUGraph(graph);
        printCounts(&c);
        printf(" calls=%s captures=%s\n", during > 0 ? "yes" : "no",
               captured > 0 ? "yes" : "no");
        return 0;
    }
    """#

    @Test func aResampledGraphAndACaptureAllocateAndLockNothing() throws {
        try Self.expectNothingCounted(Self.graphAndCaptureClient, name: "graph-capture-alloc", ending: " locks=0 calls=yes captures=yes")
    }
}
