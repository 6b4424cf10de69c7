import AUJACK
import AUTestSupport
import Foundation
import Testing

/// Capture through Remote I/O's element 1 and graphs at another rate than the server's, on a
/// jackd of the test's own (dummy driver, 44.1 kHz, 512 frames). A JACK client of the test
/// feeds `AudioToolbox:in_1` and `in_2` a 440 Hz sine at 0.5 and records `AudioToolbox:out_1`
/// from when the ports appear. Each check looks at the windows where the program's sound is:
/// a tone at its pitch and level (Goertzel over 4096 frames, within 0.03) in over a second's
/// worth of windows.
@Suite(.serialized) struct CaptureJACKLiveTests {
    /// Runs `source` (a C client) against its own jackd, feeding it 440 Hz and recording it.
    static func run(_ source: String, name: String) throws -> TextbookProgramJACKLiveTests.JACKProgramRun {
        let folder = try AudioToolboxBuild.scratchFolder(name)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try TextbookProgramJACKLiveTests.runThroughJACK(try CClient.compile(source, in: folder), feedingSine: 440)
    }

    static let common = #"""
    #include <AudioToolbox/AudioToolbox.h>
    #include <unistd.h>
    #define CHECK(x) do { OSStatus s = (x); if (s) { fprintf(stderr, "%s: %d\n", #x, (int)s); return 1; } } while (0)
    #define EXPECT(x, status) do { OSStatus s = (x); if (s != (status)) { fprintf(stderr, "%s: %d, not %d\n", #x, (int)s, (int)(status)); return 1; } } while (0)
    /* A graph of Remote I/O and a multichannel mixer, open, and their units. */
    __attribute__((unused)) static OSStatus makeGraph(AUGraph *graph, AUNode *ioNode, AUNode *mixerNode, AudioUnit *rio, AudioUnit *mixer) {
        AudioComponentDescription io = {kAudioUnitType_Output, kAudioUnitSubType_RemoteIO, kAudioUnitManufacturer_Apple, 0, 0};
        AudioComponentDescription mix = {kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer, kAudioUnitManufacturer_Apple, 0, 0};
        CHECK(NewAUGraph(graph));
        CHECK(AUGraphAddNode(*graph, &io, ioNode));
        CHECK(AUGraphAddNode(*graph, &mix, mixerNode));
        CHECK(AUGraphOpen(*graph));
        CHECK(AUGraphNodeInfo(*graph, *ioNode, NULL, rio));
        CHECK(AUGraphNodeInfo(*graph, *mixerNode, NULL, mixer));
        return noErr;
    }
    """#

    /// A graph that plays what it captures: Remote I/O with its input enabled (HasIO on
    /// element 1, which a file or null device has not), its element 1 connected to a stereo
    /// mixer with AUGraphConnectNodeInput, the mixer into Remote I/O. EnableIO once the graph
    /// is initialized is refused with kAudioUnitErr_Initialized, as on Apple.
    static let graphClient = common + "\n" + #"""
    int main(void) {
        AUGraph graph;
        AUNode ioNode, mixerNode;
        AudioUnit rio, mixer;
        CHECK(makeGraph(&graph, &ioNode, &mixerNode, &rio, &mixer));
        UInt32 one = 1, has = 0, size = sizeof has;
        CHECK(AudioUnitGetProperty(rio, kAudioOutputUnitProperty_HasIO, kAudioUnitScope_Input, 1, &has, &size));
        if (!has) return 2;
        CHECK(AudioUnitSetProperty(rio, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &one, sizeof one));
        AudioStreamBasicDescription device = {0};
        size = sizeof device;
        CHECK(AudioUnitGetProperty(rio, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 1, &device, &size));
        AudioStreamBasicDescription stereo = {device.mSampleRate, kAudioFormatLinearPCM, kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved, 4, 1, 4, 2, 32, 0};
        CHECK(AudioUnitSetProperty(rio, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &stereo, sizeof stereo));
        UInt32 buses = 1;
        CHECK(AudioUnitSetProperty(mixer, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &buses, sizeof buses));
        CHECK(AUGraphConnectNodeInput(graph, ioNode, 1, mixerNode, 0));
        CHECK(AUGraphConnectNodeInput(graph, mixerNode, 0, ioNode, 0));
        CHECK(AUGraphInitialize(graph));
        EXPECT(AudioUnitSetProperty(rio, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &one, sizeof one), kAudioUnitErr_Initialized);
        printf("capture at %.0f Hz\n", device.mSampleRate);
        CHECK(AUGraphStart(graph));
        sleep(2);
        CHECK(AUGraphStop(graph));
        DisposeAUGraph(graph);
        return 0;
    }
    """#

    @Test func aGraphPlaysWhatRemoteIOsElementOneCaptures() throws {
        let run = try Self.run(Self.graphClient, name: "capture-graph")
        #expect(run.ended && run.connected, "\(run.output)")
        #expect(run.output.contains("capture at 44100 Hz"))
        let toned = TextbookProgramJACKLiveTests.windowsWithTone(run.samples, frequency: 440, level: 0.5)
        #expect(toned >= 22, "\(toned) windows of 440 Hz at 0.5; \(TextbookProgramJACKLiveTests.toneReport(run.samples, frequency: 440))")
    }

    /// The HAL pattern without a graph: an input callback (SetInputCallback; called with no
    /// buffers, on element 1) pulls the capture with AudioUnitRender(rio, …, 1, …) into the
    /// program's own buffers, and the output's render callback plays them back. The callback
    /// reads back as set; without capture enabled, AudioUnitRender on element 1 fails.
    static let callbackClient = common + "\n" + #"""
    static AudioUnit rio;
    static Float32 left[8192], right[8192];
    static UInt32 captured;
    static int inputCalls, badCalls;
    static struct { UInt32 count; AudioBuffer buffers[2]; } list;

    static OSStatus input(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus, UInt32 frames, AudioBufferList *data) {
        if (data != NULL || bus != 1 || frames > 8192) { badCalls++; return -1; }
        list.count = 2;
        list.buffers[0] = (AudioBuffer){1, frames * 4, left};
        list.buffers[1] = (AudioBuffer){1, frames * 4, right};
        OSStatus status = AudioUnitRender(rio, flags, time, 1, frames, (AudioBufferList *)&list);
        if (status == noErr) captured = frames;
        inputCalls++;
        return status;
    }

    static OSStatus output(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus, UInt32 frames, AudioBufferList *data) {
        for (UInt32 i = 0; i < frames; i++) {
            ((Float32 *)data->mBuffers[0].mData)[i] = i < captured ? left[i] : 0;
            ((Float32 *)data->mBuffers[1].mData)[i] = i < captured ? right[i] : 0;
        }
        return noErr;
    }

    int main(void) {
        AudioComponentDescription description = {kAudioUnitType_Output, kAudioUnitSubType_RemoteIO, kAudioUnitManufacturer_Apple, 0, 0};
        CHECK(AudioComponentInstanceNew(AudioComponentFindNext(NULL, &description), &rio));
        Float32 probe[16];
        list.count = 1;
        list.buffers[0] = (AudioBuffer){1, sizeof probe, probe};
        AudioUnitRenderActionFlags flags = 0;
        AudioTimeStamp time = {0};
        EXPECT(AudioUnitRender(rio, &flags, &time, 1, 16, (AudioBufferList *)&list), kAudioUnitErr_CannotDoInCurrentContext);
        UInt32 one = 1;
        CHECK(AudioUnitSetProperty(rio, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &one, sizeof one));
        AURenderCallbackStruct inputCallback = {input, NULL}, back = {0};
        CHECK(AudioUnitSetProperty(rio, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0, &inputCallback, sizeof inputCallback));
        UInt32 size = sizeof back;
        CHECK(AudioUnitGetProperty(rio, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0, &back, &size));
        if (back.inputProc != input) return 3;
        AURenderCallbackStruct outputCallback = {output, NULL};
        CHECK(AudioUnitSetProperty(rio, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &outputCallback, sizeof outputCallback));
        CHECK(AudioUnitInitialize(rio));
        CHECK(AudioOutputUnitStart(rio));
        sleep(2);
        CHECK(AudioOutputUnitStop(rio));
        printf("input calls %s, bad calls %d\n", inputCalls > 20 ? "many" : "few", badCalls);
        AudioComponentInstanceDispose(rio);
        return 0;
    }
    """#

    @Test func anInputCallbackPullsTheCaptureWithAudioUnitRender() throws {
        let run = try Self.run(Self.callbackClient, name: "capture-callback")
        #expect(run.ended && run.connected, "\(run.output)")
        #expect(run.output.contains("input calls many, bad calls 0"), "\(run.output)")
        let toned = TextbookProgramJACKLiveTests.windowsWithTone(run.samples, frequency: 440, level: 0.5)
        #expect(toned >= 22, "\(toned) windows of 440 Hz at 0.5; \(TextbookProgramJACKLiveTests.toneReport(run.samples, frequency: 440))")
    }

    /// A whole graph at 48 kHz on the 44.1 kHz server: a 1 kHz callback computed at 48 kHz
    /// into a mixer whose buses the program set to 48 kHz, into Remote I/O. The graph renders
    /// at its rate and is resampled: the recording has 1 kHz at 0.5, and nothing at 919 Hz
    /// (what 48 kHz samples played at 44.1 kHz would sound).
    static let rateClient = common + "\n" + #"""
    #include <math.h>
    """# + "\n" + TextbookProgramJACKLiveTests.toneAt48kHz + "\n" + #"""
    int main(void) {
        AUGraph graph;
        AUNode ioNode, mixerNode;
        AudioUnit rio, mixer;
        CHECK(makeGraph(&graph, &ioNode, &mixerNode, &rio, &mixer));
        AudioStreamBasicDescription format = {48000, kAudioFormatLinearPCM, kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved, 4, 1, 4, 2, 32, 0};
        CHECK(AudioUnitSetProperty(mixer, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, sizeof format));
        Float64 rate = 48000;
        CHECK(AudioUnitSetProperty(mixer, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &rate, sizeof rate));
        AURenderCallbackStruct callback = {tone, NULL};
        CHECK(AUGraphSetNodeInputCallback(graph, mixerNode, 0, &callback));
        CHECK(AUGraphConnectNodeInput(graph, mixerNode, 0, ioNode, 0));
        CHECK(AUGraphInitialize(graph));
        CHECK(AUGraphStart(graph));
        sleep(2);
        CHECK(AUGraphStop(graph));
        DisposeAUGraph(graph);
        return 0;
    }
    """#

    @Test func aGraphAtAnotherRateIsResampledToTheServers() throws {
        let run = try Self.run(Self.rateClient, name: "capture-rate")
        #expect(run.ended && run.connected, "\(run.output)")
        TextbookProgramJACKLiveTests.expectResampledTone(run.samples)
    }
}
