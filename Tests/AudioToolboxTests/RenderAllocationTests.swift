import AUTestSupport
import Foundation
import Testing

/// The render path through the C API allocates nothing and takes no lock: a
/// C client (below) renders an AUGraph offline (two C render callbacks, one in a 16-bit
/// interleaved client format, into the mixer, the mixer through the iPod EQ into a
/// GenericOutput node) with AudioUnitRender under the AllocCounter shim, which counts on the
/// threads AUHost marks as rendering. After 20 warm-up cycles the counts are reset and 200
/// cycles must add none (retains are not checked: this is the debug build, whose Swift
/// code retains; the pull path AudioUnitRender takes is checked for retains in a release build
/// by `alloc-check --pull`, PullAllocationTests).
@Suite struct RenderAllocationTests {
    static let client = #"""
    \#(CClientUnderShim.prologue)
    #include <math.h>


    static OSStatus floatTone(void *ref, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *ts, UInt32 bus, UInt32 frames, AudioBufferList *io) {
        for (UInt32 b = 0; b < io->mNumberBuffers; b++) {
            Float32 *out = io->mBuffers[b].mData;
            for (UInt32 i = 0; i < frames; i++) out[i] = (Float32)sin((ts->mSampleTime + i) * 0.05) * 0.25f;
        }
        return noErr;
    }

    static OSStatus int16Tone(void *ref, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *ts, UInt32 bus, UInt32 frames, AudioBufferList *io) {
        SInt16 *out = io->mBuffers[0].mData;
        for (UInt32 i = 0; i < 2 * frames; i++) out[i] = (SInt16)(sin((ts->mSampleTime + i / 2) * 0.07) * 8000);
        return noErr;
    }


    int main(void) {
        openShim();
        AudioComponentDescription mixerDesc = {kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer, kAudioUnitManufacturer_Apple, 0, 0};
        AudioComponentDescription eqDesc = {kAudioUnitType_Effect, kAudioUnitSubType_AUiPodEQ, kAudioUnitManufacturer_Apple, 0, 0};
        AudioComponentDescription outDesc = {kAudioUnitType_Output, kAudioUnitSubType_GenericOutput, kAudioUnitManufacturer_Apple, 0, 0};
        AUGraph graph;
        AUNode mixer, eq, out;
        CHECK(NewAUGraph(&graph));
        CHECK(AUGraphAddNode(graph, &mixerDesc, &mixer));
        CHECK(AUGraphAddNode(graph, &eqDesc, &eq));
        CHECK(AUGraphAddNode(graph, &outDesc, &out));
        CHECK(AUGraphOpen(graph));
        AudioUnit mixerUnit, outUnit;
        CHECK(AUGraphNodeInfo(graph, mixer, NULL, &mixerUnit));
        CHECK(AUGraphNodeInfo(graph, out, NULL, &outUnit));
        UInt32 buses = 2;
        CHECK(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &buses, sizeof buses));
        AudioStreamBasicDescription int16 = {48000, kAudioFormatLinearPCM, kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, 4, 1, 4, 2, 16, 0};
        CHECK(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 1, &int16, sizeof int16));
        AURenderCallbackStruct a = {floatTone, NULL}, b = {int16Tone, NULL};
        CHECK(AUGraphSetNodeInputCallback(graph, mixer, 0, &a));
        CHECK(AUGraphSetNodeInputCallback(graph, mixer, 1, &b));
        CHECK(AUGraphConnectNodeInput(graph, mixer, 0, eq, 0));
        CHECK(AUGraphConnectNodeInput(graph, eq, 0, out, 0));
        CHECK(AUGraphInitialize(graph));
        \#(CClientUnderShim.pullLoop)
        counts c;
        readCounts(&c);
        printCounts(&c);
        printf(" energy=%s\n", energy > 0 ? "yes" : "no");
        CHECK(DisposeAUGraph(graph));
        free(list);
        return 0;
    }
    """#

    @Test func renderingThroughTheCAPIAllocatesAndLocksNothing() throws {
        let run = try CClientUnderShim.run(Self.client, name: "alloc")
        #expect(run.status == 0, "\(run.text)")
        // Retains are left to an optimized build (a debug build of any Swift code retains).
        #expect(run.text.contains("mallocs=0 callocs=0 reallocs=0 frees=0 "), "\(run.text)")
        #expect(run.text.contains(" locks=0 energy=yes"), "\(run.text)")
    }
}
