import AUTestSupport
import Foundation
import Testing

/// The music half's render path through the C API allocates nothing and takes no lock: a C
/// client plays a MusicSequence (notes on every other beat, the sampler's gain changed by
/// parameter events between them, a master volume and a GM System On SysEx, a tempo change)
/// with a
/// MusicPlayer into Apple's sampler (AUHost's, FluidSynth) → GenericOutput, pulled with
/// AudioUnitRender under the AllocCounter shim. After 20 warm-up cycles the counts are reset;
/// the 400 counted cycles (2.1 s at 48 kHz) hold note-ons, note-offs, parameter events and
/// SysEx and must add none.
@Suite struct SequenceRenderAllocationTests {
    static let client = #"""
    \#(CClientUnderShim.prologue)

    int main(void) {
        openShim();
        AudioComponentDescription synthDesc = {kAudioUnitType_MusicDevice, kAudioUnitSubType_Sampler, kAudioUnitManufacturer_Apple, 0, 0};
        AudioComponentDescription outDesc = {kAudioUnitType_Output, kAudioUnitSubType_GenericOutput, kAudioUnitManufacturer_Apple, 0, 0};
        AUGraph graph;
        AUNode synth, out;
        CHECK(NewAUGraph(&graph));
        CHECK(AUGraphAddNode(graph, &synthDesc, &synth));
        CHECK(AUGraphAddNode(graph, &outDesc, &out));
        CHECK(AUGraphConnectNodeInput(graph, synth, 0, out, 0));
        CHECK(AUGraphOpen(graph));
        AudioUnit outUnit;
        CHECK(AUGraphNodeInfo(graph, out, NULL, &outUnit));
        CHECK(AUGraphInitialize(graph));

        MusicSequence sequence;
        MusicTrack track, tempo;
        CHECK(NewMusicSequence(&sequence));
        CHECK(MusicSequenceNewTrack(sequence, &track));
        CHECK(MusicSequenceGetTempoTrack(sequence, &tempo));
        CHECK(MusicTrackNewExtendedTempoEvent(tempo, 2, 150));
        for (int beat = 0; beat < 8; beat++) {
            MIDINoteMessage note = {(UInt8)(beat % 3), (UInt8)(60 + beat), 100, 0, 0.5f};
            CHECK(MusicTrackNewMIDINoteEvent(track, beat * 0.5, &note));
            ParameterEvent gain = {0, kAudioUnitScope_Global, 0, 0.2f + 0.05f * (float)beat};
            CHECK(MusicTrackNewParameterEvent(track, beat * 0.5 + 0.25, &gain));
        }
        /* SysEx through the sampler's queue: master volume, then GM System On. */
        struct { UInt32 length; Byte data[8]; } volume = {8, {0xF0, 0x7F, 0x7F, 0x04, 0x01, 0x00, 0x40, 0xF7}}, gmOn = {6, {0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7}};
        CHECK(MusicTrackNewMIDIRawDataEvent(track, 1.25, (MIDIRawData *)&volume));
        CHECK(MusicTrackNewMIDIRawDataEvent(track, 2.25, (MIDIRawData *)&gmOn));
        CHECK(MusicSequenceSetAUGraph(sequence, graph));
        MusicPlayer player;
        CHECK(NewMusicPlayer(&player));
        CHECK(MusicPlayerSetSequence(player, sequence));
        CHECK(MusicPlayerStart(player));

        \#(CClientUnderShim.pullLoop)
        counts c;
        readCounts(&c);
        MusicTimeStamp beat;
        CHECK(MusicPlayerGetTime(player, &beat));
        printCounts(&c);
        printf(" energy=%s beat=%.2f\n", energy > 1 ? "yes" : "no", beat);
        CHECK(MusicPlayerStop(player));
        CHECK(DisposeMusicPlayer(player));
        CHECK(DisposeMusicSequence(sequence));
        CHECK(DisposeAUGraph(graph));
        free(list);
        return 0;
    }
    """#

    @Test func playingASequenceThroughTheCAPIAllocatesAndLocksNothing() throws {
        let run = try CClientUnderShim.run(Self.client, name: "sequence-alloc")
        #expect(run.status == 0, "\(run.text)")
        // Retains are left to an optimized build (a debug build of any Swift code retains).
        #expect(run.text.contains("mallocs=0 callocs=0 reallocs=0 frees=0 "), "\(run.text)")
        #expect(run.text.contains(" locks=0 energy=yes"), "\(run.text)")
        #expect(run.text.contains("beat="), "\(run.text)")
    }
}
