/* A synth played note by note, in this project's own words: the pattern of Apple's
   PlaySoftMIDI sample (an AUGraph of the DLS synth into a peak limiter into the default
   output, the bank and program chosen with MusicDeviceMIDIEvent, CAShow, then notes played
   with MusicDeviceMIDIEvent and usleep, each call checked with AssertMacros.h's
   require_noerr). It plays C4, E4, G4 and C5 at full velocity, 0.5 s each. */
#include <AssertMacros.h>
#include <AudioToolbox/AudioToolbox.h>

enum {
    kMidiMessage_ControlChange = 0xB,
    kMidiMessage_ProgramChange = 0xC,
    kMidiMessage_BankMSBControl = 0,
    kMidiMessage_NoteOn = 0x9
};

static OSStatus MakeGraph(AUGraph *graph, AudioUnit *synth) {
    OSStatus result;
    AUNode synthNode, limiterNode, outputNode;
    AudioComponentDescription description = {0, 0, kAudioUnitManufacturer_Apple, 0, 0};
    require_noerr(result = NewAUGraph(graph), done);
    description.componentType = kAudioUnitType_MusicDevice;
    description.componentSubType = kAudioUnitSubType_DLSSynth;
    require_noerr(result = AUGraphAddNode(*graph, &description, &synthNode), done);
    description.componentType = kAudioUnitType_Effect;
    description.componentSubType = kAudioUnitSubType_PeakLimiter;
    require_noerr(result = AUGraphAddNode(*graph, &description, &limiterNode), done);
    description.componentType = kAudioUnitType_Output;
    description.componentSubType = kAudioUnitSubType_DefaultOutput;
    require_noerr(result = AUGraphAddNode(*graph, &description, &outputNode), done);
    require_noerr(result = AUGraphOpen(*graph), done);
    require_noerr(result = AUGraphConnectNodeInput(*graph, synthNode, 0, limiterNode, 0), done);
    require_noerr(result = AUGraphConnectNodeInput(*graph, limiterNode, 0, outputNode, 0), done);
    require_noerr(result = AUGraphNodeInfo(*graph, synthNode, NULL, synth), done);
done:
    return result;
}

int main(void) {
    AUGraph graph = NULL;
    AudioUnit synth;
    OSStatus result;
    const UInt8 channel = 0;
    const UInt32 notes[4] = {60, 64, 67, 72};

    require_noerr(result = MakeGraph(&graph, &synth), done);
    require_noerr(result = AUGraphInitialize(graph), done);
    require_noerr(result = MusicDeviceMIDIEvent(synth, kMidiMessage_ControlChange << 4 | channel, kMidiMessage_BankMSBControl, 0, 0), done);
    require_noerr(result = MusicDeviceMIDIEvent(synth, kMidiMessage_ProgramChange << 4 | channel, 0, 0, 0), done);
    CAShow(graph);
    require_noerr(result = AUGraphStart(graph), done);
    for (int i = 0; i < 4; i++) {
        UInt32 noteOn = kMidiMessage_NoteOn << 4 | channel;
        printf("note %u\n", (unsigned)notes[i]);
        require_noerr(result = MusicDeviceMIDIEvent(synth, noteOn, notes[i], 127, 0), done);
        usleep(500 * 1000);
        require_noerr(result = MusicDeviceMIDIEvent(synth, noteOn, notes[i], 0, 0), done);
    }
done:
    if (graph) {
        AUGraphStop(graph);
        DisposeAUGraph(graph);
    }
    if (result) fprintf(stderr, "error %d\n", (int)result);
    return result == noErr ? 0 : 1;
}
