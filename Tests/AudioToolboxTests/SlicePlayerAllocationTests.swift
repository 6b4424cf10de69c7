import AUTestSupport
import Foundation
import Testing

/// The render paths of the ScheduledSoundPlayer and of Apple's effects (AUPeakLimiter, ParametricEQ,
/// AUDelay, AUReverb2, AUDynamicsProcessor, AUNBandEQ) through the C API allocate nothing and take no lock: a C client schedules
/// 240 slices of its own buffers (each with a completion procedure that counts) into a ScheduledSoundPlayer → AUPeakLimiter
/// (pre-gain +12 dB, so it limits) → ParametricEQ (+6 dB) → AUDelay (10 ms) → AUReverb2 → AUDynamicsProcessor (its meters
/// set each cycle) → AUNBandEQ (two bands on) → GenericOutput graph and pulls it with AudioUnitRender under the
/// AllocCounter shim. After 20 warm-up cycles the counts are reset; the 200 counted cycles,
/// in which slices begin, complete and call their procedures, must add none.
@Suite struct SlicePlayerAllocationTests {
    static let client = #"""
    \#(CClientUnderShim.prologue)

    enum { slices = 240, sliceFrames = 256 };
    static Float32 samples[sliceFrames];
    static int completed;

    static void sliceDone(void *userData, ScheduledAudioSlice *slice) { completed++; }

    int main(void) {
        openShim();
        for (int i = 0; i < sliceFrames; i++) samples[i] = (Float32)sin(i * 0.1) * 0.5f;

        AudioComponentDescription playerDesc = {kAudioUnitType_Generator, kAudioUnitSubType_ScheduledSoundPlayer, kAudioUnitManufacturer_Apple, 0, 0};
        AudioComponentDescription limiterDesc = {kAudioUnitType_Effect, kAudioUnitSubType_PeakLimiter, kAudioUnitManufacturer_Apple, 0, 0};
        AudioComponentDescription filterDesc = {kAudioUnitType_Effect, kAudioUnitSubType_ParametricEQ, kAudioUnitManufacturer_Apple, 0, 0};
        AudioComponentDescription outDesc = {kAudioUnitType_Output, kAudioUnitSubType_GenericOutput, kAudioUnitManufacturer_Apple, 0, 0};
        OSType effects[] = {kAudioUnitSubType_Delay, kAudioUnitSubType_Reverb2, kAudioUnitSubType_DynamicsProcessor, kAudioUnitSubType_NBandEQ};
        AUNode effectNodes[4];
        AudioUnit effectUnits[4];
        AUGraph graph;
        AUNode playerNode, limiterNode, filterNode, outNode;
        AudioUnit player, limiter, filter, outUnit;
        CHECK(NewAUGraph(&graph));
        CHECK(AUGraphAddNode(graph, &playerDesc, &playerNode));
        CHECK(AUGraphAddNode(graph, &limiterDesc, &limiterNode));
        CHECK(AUGraphAddNode(graph, &filterDesc, &filterNode));
        CHECK(AUGraphAddNode(graph, &outDesc, &outNode));
        CHECK(AUGraphConnectNodeInput(graph, playerNode, 0, limiterNode, 0));
        CHECK(AUGraphConnectNodeInput(graph, limiterNode, 0, filterNode, 0));
        AUNode previous = filterNode;
        for (int i = 0; i < 4; i++) {
            AudioComponentDescription desc = {kAudioUnitType_Effect, effects[i], kAudioUnitManufacturer_Apple, 0, 0};
            CHECK(AUGraphAddNode(graph, &desc, &effectNodes[i]));
            CHECK(AUGraphConnectNodeInput(graph, previous, 0, effectNodes[i], 0));
            previous = effectNodes[i];
        }
        CHECK(AUGraphConnectNodeInput(graph, previous, 0, outNode, 0));
        CHECK(AUGraphOpen(graph));
        CHECK(AUGraphNodeInfo(graph, playerNode, NULL, &player));
        CHECK(AUGraphNodeInfo(graph, limiterNode, NULL, &limiter));
        CHECK(AUGraphNodeInfo(graph, filterNode, NULL, &filter));
        CHECK(AUGraphNodeInfo(graph, outNode, NULL, &outUnit));
        for (int i = 0; i < 4; i++) CHECK(AUGraphNodeInfo(graph, effectNodes[i], NULL, &effectUnits[i]));
        CHECK(AUGraphInitialize(graph));
        CHECK(AudioUnitSetParameter(limiter, kLimiterParam_PreGain, kAudioUnitScope_Global, 0, 12, 0));
        CHECK(AudioUnitSetParameter(filter, kParametricEQParam_Gain, kAudioUnitScope_Global, 0, 6, 0));
        CHECK(AudioUnitSetParameter(effectUnits[0], kDelayParam_DelayTime, kAudioUnitScope_Global, 0, 0.01f, 0));
        for (int band = 0; band < 2; band++) {
            CHECK(AudioUnitSetParameter(effectUnits[3], kAUNBandEQParam_BypassBand + band, kAudioUnitScope_Global, 0, 0, 0));
            CHECK(AudioUnitSetParameter(effectUnits[3], kAUNBandEQParam_FilterType + band, kAudioUnitScope_Global, 0,
                                        band ? kAUNBandEQFilterType_HighShelf : kAUNBandEQFilterType_Parametric, 0));
            CHECK(AudioUnitSetParameter(effectUnits[3], kAUNBandEQParam_Gain + band, kAudioUnitScope_Global, 0, -3, 0));
        }

        static ScheduledAudioSlice slice[slices];
        AudioBufferList *lists = calloc(slices, sizeof(AudioBufferList) + sizeof(AudioBuffer));
        for (int i = 0; i < slices; i++) {
            AudioBufferList *list = (AudioBufferList *)((char *)lists + i * (sizeof(AudioBufferList) + sizeof(AudioBuffer)));
            list->mNumberBuffers = 2;
            list->mBuffers[0] = (AudioBuffer){1, sizeof samples, samples};
            list->mBuffers[1] = (AudioBuffer){1, sizeof samples, samples};
            slice[i].mTimeStamp.mFlags = kAudioTimeStampSampleTimeValid;
            slice[i].mTimeStamp.mSampleTime = i * sliceFrames;
            slice[i].mNumberFrames = sliceFrames;
            slice[i].mBufferList = list;
            slice[i].mCompletionProc = sliceDone;
            CHECK(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduleAudioSlice, kAudioUnitScope_Global, 0, &slice[i], sizeof slice[i]));
        }
        AudioTimeStamp start = {0};
        start.mFlags = kAudioTimeStampSampleTimeValid;
        start.mSampleTime = -1;
        CHECK(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduleStartTimeStamp, kAudioUnitScope_Global, 0, &start, sizeof start));

        \#(CClientUnderShim.pullLoop)
        counts c;
        readCounts(&c);
        printCounts(&c);
        printf(" energy=%s completed=%d\n", energy > 1 ? "yes" : "no", completed);
        CHECK(DisposeAUGraph(graph));
        free(lists);
        free(list);
        return 0;
    }
    """#

    @Test func playingSlicesThroughApplesEffectsAllocatesAndLocksNothing() throws {
        let run = try CClientUnderShim.run(Self.client, name: "slice-alloc")
        #expect(run.status == 0, "\(run.text)")
        // Retains are left to an optimized build (a debug build of any Swift code retains).
        #expect(run.text.contains("mallocs=0 callocs=0 reallocs=0 frees=0 "), "\(run.text)")
        #expect(run.text.contains(" locks=0 energy=yes completed=220"), "\(run.text)")
    }
}
