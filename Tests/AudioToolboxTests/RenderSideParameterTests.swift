import AudioToolbox
import AUTestSupport
import Foundation
import Testing

/// AudioUnitSetParameter, AudioUnitGetParameter and AudioUnitScheduleParameters called from
/// a render notification, as Core Audio programs call them: a C client renders an AUGraph
/// offline (a callback of constant 1.0 into the multichannel mixer, into GenericOutput),
/// 256 frames a cycle, under the AllocCounter shim. In the graph's pre-render notification,
/// at cycle 30 it sets input 0's volume to 0.25, at cycle 45 reads it back, at cycle 60
/// schedules a ramp from 0.25 to 1 over the cycle's 256 frames, and tries a value out of
/// range (7) and a parameter the mixer has not (999); its post-render notification keeps
/// each cycle's first and last output sample. The changes are heard in the cycle they are
/// made in, and the 200 counted cycles allocate and lock nothing.
@Suite struct RenderSideParameterTests {
    static let client = #"""
    \#(CClientUnderShim.prologue)

    static AudioUnit mixerUnit;
    static Float32 first[220], last[220], readBack = -1;
    static OSStatus setStatus = 1, scheduleStatus = 1, outOfRange, unknown;

    static OSStatus ones(void *ref, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *ts, UInt32 bus, UInt32 frames, AudioBufferList *io) {
        for (UInt32 b = 0; b < io->mNumberBuffers; b++)
            for (UInt32 i = 0; i < frames; i++) ((Float32 *)io->mBuffers[b].mData)[i] = 1;
        return noErr;
    }

    static OSStatus notify(void *ref, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *ts, UInt32 bus, UInt32 frames, AudioBufferList *io) {
        int cycle = (int)(ts->mSampleTime / 256);
        if (cycle < 0 || cycle >= 220) return noErr;
        if (*flags & kAudioUnitRenderAction_PostRender) {
            first[cycle] = ((Float32 *)io->mBuffers[0].mData)[0];
            last[cycle] = ((Float32 *)io->mBuffers[0].mData)[frames - 1];
            return noErr;
        }
        /* Warm-up, before the counts are reset at cycle 20: the same calls, leaving the volume at 1
           (the first event a unit takes instantiates Swift metadata once). */
        if (cycle == 5) AudioUnitSetParameter(mixerUnit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, 1, 0);
        if (cycle == 7) AudioUnitGetParameter(mixerUnit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, &readBack);
        if (cycle == 6 || cycle == 60) {
            AudioUnitParameterEvent ramp = {kAudioUnitScope_Input, 0, kMultiChannelMixerParam_Volume, kParameterEvent_Ramped};
            ramp.eventValues.ramp.startBufferOffset = 0;
            ramp.eventValues.ramp.durationInFrames = 256;
            ramp.eventValues.ramp.startValue = cycle == 6 ? 1 : 0.25;
            ramp.eventValues.ramp.endValue = 1;
            scheduleStatus = AudioUnitScheduleParameters(mixerUnit, &ramp, 1);
        }
        if (cycle == 30) setStatus = AudioUnitSetParameter(mixerUnit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, 0.25, 0);
        if (cycle == 45) AudioUnitGetParameter(mixerUnit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, &readBack);
        if (cycle == 60) {
            outOfRange = AudioUnitSetParameter(mixerUnit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, 7, 0);
            unknown = AudioUnitSetParameter(mixerUnit, 999, kAudioUnitScope_Input, 0, 1, 0);
        }
        return noErr;
    }

    int main(void) {
        openShim();
        AudioComponentDescription mixerDesc = {kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer, kAudioUnitManufacturer_Apple, 0, 0};
        AudioComponentDescription outDesc = {kAudioUnitType_Output, kAudioUnitSubType_GenericOutput, kAudioUnitManufacturer_Apple, 0, 0};
        AUGraph graph;
        AUNode mixer, out;
        CHECK(NewAUGraph(&graph));
        CHECK(AUGraphAddNode(graph, &mixerDesc, &mixer));
        CHECK(AUGraphAddNode(graph, &outDesc, &out));
        CHECK(AUGraphOpen(graph));
        AudioUnit outUnit;
        CHECK(AUGraphNodeInfo(graph, mixer, NULL, &mixerUnit));
        CHECK(AUGraphNodeInfo(graph, out, NULL, &outUnit));
        UInt32 buses = 1;
        CHECK(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &buses, sizeof buses));
        AURenderCallbackStruct callback = {ones, NULL};
        CHECK(AUGraphSetNodeInputCallback(graph, mixer, 0, &callback));
        CHECK(AUGraphConnectNodeInput(graph, mixer, 0, out, 0));
        CHECK(AUGraphAddRenderNotify(graph, notify, NULL));
        CHECK(AUGraphInitialize(graph));
        \#(CClientUnderShim.pullLoop)
        counts c;
        readCounts(&c);
        printCounts(&c);
        printf("\n");
        printf("statuses: set %d schedule %d out of range %d unknown %d\n", (int)setStatus, (int)scheduleStatus, (int)outOfRange, (int)unknown);
        printf("levels: %g %g %g %g %g %g %g\n", first[29], first[30], last[59], first[60], last[60], first[61], readBack);
        CHECK(DisposeAUGraph(graph));
        free(list);
        return 0;
    }
    """#

    @Test func parametersSetFromARenderNotificationAreHeardInThatCycle() throws {
        let run = try CClientUnderShim.run(Self.client, name: "render-side-parameters")
        #expect(run.status == 0, "\(run.text)")
        #expect(run.text.contains("mallocs=0 callocs=0 reallocs=0 frees=0 "), "\(run.text)")
        #expect(run.text.contains(" locks=0\n"), "\(run.text)")
        #expect(run.text.contains("statuses: set 0 schedule 0 out of range \(kAudioUnitErr_InvalidParameterValue) unknown \(kAudioUnitErr_InvalidParameter)"), "\(run.text)")
        let line = try #require(run.text.split(separator: "\n").first { $0.hasPrefix("levels: ") })
        let levels = line.dropFirst("levels: ".count).split(separator: " ").compactMap { Double($0) }
        try #require(levels.count == 7, "\(line)")
        let full = levels[0]
        #expect(full > 0.5, "the mixer passes the callback's 1.0 at its volume 1: \(full)")
        #expect(abs(levels[1] - 0.25 * full) < 1e-6, "set at cycle 30, heard from its first frame: \(levels[1])")
        #expect(abs(levels[2] - 0.25 * full) < 1e-6, "held until the ramp: \(levels[2])")
        #expect(levels[3] < 0.3 * full && levels[4] > 0.9 * full, "the ramp rises through cycle 60: \(levels[3]) → \(levels[4])")
        #expect(abs(levels[5] - full) < 1e-6, "at 1 after the ramp: \(levels[5])")
        #expect(abs(levels[6] - 0.25) < 1e-6, "read back from the render thread: \(levels[6])")
    }
}
