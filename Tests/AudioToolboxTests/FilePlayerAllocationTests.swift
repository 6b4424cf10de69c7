import AUTestSupport
import Foundation
import Testing

/// The AUAudioFilePlayer's render path allocates nothing and takes no lock: a C client
/// schedules a looping region of a file it wrote, starts the player and pulls the graph
/// (file player → GenericOutput) with AudioUnitRender under the AllocCounter shim; after 20
/// warm-up cycles, 200 counted ones (the region playing, looping and ending) add none.
@Suite struct FilePlayerAllocationTests {
    static let client = #"""
    \#(CClientUnderShim.prologue)
    #include <libgen.h>
    #include <string.h>


    int main(int argc, char **argv) {
        openShim();
        AudioComponentDescription playerDesc = {kAudioUnitType_Generator, kAudioUnitSubType_AudioFilePlayer, kAudioUnitManufacturer_Apple, 0, 0};
        AudioComponentDescription outDesc = {kAudioUnitType_Output, kAudioUnitSubType_GenericOutput, kAudioUnitManufacturer_Apple, 0, 0};
        AUGraph graph;
        AUNode playerNode, outNode;
        AudioUnit player, outUnit;
        CHECK(NewAUGraph(&graph));
        CHECK(AUGraphAddNode(graph, &playerDesc, &playerNode));
        CHECK(AUGraphAddNode(graph, &outDesc, &outNode));
        CHECK(AUGraphConnectNodeInput(graph, playerNode, 0, outNode, 0));
        CHECK(AUGraphOpen(graph));
        CHECK(AUGraphNodeInfo(graph, playerNode, NULL, &player));
        CHECK(AUGraphNodeInfo(graph, outNode, NULL, &outUnit));
        CHECK(AUGraphInitialize(graph));
        Float64 rate;
        UInt32 size = sizeof rate;
        CHECK(AudioUnitGetProperty(player, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &rate, &size));

        char path[4096];
        snprintf(path, sizeof path, "%s/tone.wav", dirname(strdup(argv[0])));
        CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)path, (CFIndex)strlen(path), false);
        AudioStreamBasicDescription format = {rate, kAudioFormatLinearPCM, kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, 4, 1, 4, 2, 16, 0};
        AudioFileID file;
        CHECK(AudioFileCreateWithURL(url, kAudioFileWAVEType, &format, kAudioFileFlags_EraseFile, &file));
        static SInt16 samples[2 * 8000];
        for (int i = 0; i < 2 * 8000; i++) samples[i] = (SInt16)((i % 200) * 100 - 10000);
        UInt32 packets = 8000;
        CHECK(AudioFileWritePackets(file, false, sizeof samples, NULL, 0, &packets, samples));
        CHECK(AudioFileClose(file));
        CHECK(AudioFileOpenURL(url, kAudioFileReadPermission, 0, &file));
        CFRelease(url);
        CHECK(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduledFileIDs, kAudioUnitScope_Global, 0, &file, sizeof file));
        ScheduledAudioFileRegion region = {0};
        region.mTimeStamp.mFlags = kAudioTimeStampSampleTimeValid;
        region.mTimeStamp.mSampleTime = 10000;
        region.mAudioFile = file;
        region.mLoopCount = 3;
        region.mFramesToPlay = 8000;
        CHECK(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0, &region, sizeof region));
        AudioTimeStamp start = {0};
        start.mFlags = kAudioTimeStampSampleTimeValid;
        start.mSampleTime = -1;
        CHECK(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduleStartTimeStamp, kAudioUnitScope_Global, 0, &start, sizeof start));

        \#(CClientUnderShim.pullLoop)
        counts c;
        readCounts(&c);
        printCounts(&c);
        printf(" energy=%s\n", energy > 1 ? "yes" : "no");
        CHECK(DisposeAUGraph(graph));
        CHECK(AudioFileClose(file));
        free(list);
        return 0;
    }
    """#

    @Test func playingAFileRegionAllocatesAndLocksNothing() throws {
        let run = try CClientUnderShim.run(Self.client, name: "fileplayer-alloc", foundation: true)
        #expect(run.status == 0, "\(run.text)")
        // Retains are left to an optimized build (a debug build of any Swift code retains).
        #expect(run.text.contains("mallocs=0 callocs=0 reallocs=0 frees=0 "), "\(run.text)")
        #expect(run.text.contains(" locks=0 energy=yes"), "\(run.text)")
    }
}
