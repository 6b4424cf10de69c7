/* PlaySequence: a Standard MIDI File rendered offline into an audio file, as Apple's
   PlaySequence sample does with its -o option: the file is loaded into a MusicSequence with
   MusicSequenceFileLoad, its tracks play through a MusicPlayer into an AUSampler (General
   MIDI) in an AUGraph whose output is a GenericOutput, the graph is pulled with
   AudioUnitRender and each slice is written with ExtAudioFileWrite (16-bit WAV at 44.1 kHz).

   usage: PlaySequence SONG.mid OUT.wav
   Build: cc -I include main.c -L .build/debug -lAudioToolbox \
            -L <toolchain>/usr/lib/swift/linux -lFoundation -o PlaySequence
   (CFURLCreateFromFileSystemRepresentation and CFRelease are swift-corelibs-foundation's). */
#include <AudioToolbox/AudioToolbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call) do { OSStatus s_ = (call); if (s_ != noErr) { \
    fprintf(stderr, "PlaySequence: %s failed: %d\n", #call, (int)s_); return 1; } } while (0)

static CFURLRef fileURL(const char *path) {
    return CFURLCreateFromFileSystemRepresentation(kCFAllocatorDefault, (const UInt8 *)path, (CFIndex)strlen(path), false);
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: PlaySequence SONG.mid OUT.wav\n"); return 2; }
    const Float64 sampleRate = 44100;
    enum { slice = 512 };

    MusicSequence sequence;
    CHECK(NewMusicSequence(&sequence));
    CFURLRef midiURL = fileURL(argv[1]);
    OSStatus loaded = MusicSequenceFileLoad(sequence, midiURL, kMusicSequenceFile_MIDIType, 0);
    CFRelease(midiURL);
    if (loaded != noErr) { fprintf(stderr, "PlaySequence: %s: not a Standard MIDI File (error %d)\n", argv[1], (int)loaded); return 1; }

    /* The song's length: the end of its longest track, in seconds. */
    UInt32 trackCount;
    CHECK(MusicSequenceGetTrackCount(sequence, &trackCount));
    MusicTimeStamp length = 0;
    for (UInt32 i = 0; i < trackCount; i++) {
        MusicTrack track;
        MusicTimeStamp trackLength;
        UInt32 size = sizeof trackLength;
        CHECK(MusicSequenceGetIndTrack(sequence, i, &track));
        CHECK(MusicTrackGetProperty(track, kSequenceTrackProperty_TrackLength, &trackLength, &size));
        if (trackLength > length) length = trackLength;
    }
    Float64 seconds;
    CHECK(MusicSequenceGetSecondsForBeats(sequence, length, &seconds));
    seconds += 1; /* the last notes' release */

    AUGraph graph;
    AUNode synthNode, outputNode;
    AudioComponentDescription synth = {kAudioUnitType_MusicDevice, kAudioUnitSubType_Sampler, kAudioUnitManufacturer_Apple, 0, 0};
    AudioComponentDescription output = {kAudioUnitType_Output, kAudioUnitSubType_GenericOutput, kAudioUnitManufacturer_Apple, 0, 0};
    CHECK(NewAUGraph(&graph));
    CHECK(AUGraphAddNode(graph, &synth, &synthNode));
    CHECK(AUGraphAddNode(graph, &output, &outputNode));
    CHECK(AUGraphConnectNodeInput(graph, synthNode, 0, outputNode, 0));
    CHECK(AUGraphOpen(graph));
    AudioUnit synthUnit, outputUnit;
    CHECK(AUGraphNodeInfo(graph, synthNode, NULL, &synthUnit));
    CHECK(AUGraphNodeInfo(graph, outputNode, NULL, &outputUnit));
    CHECK(AudioUnitSetProperty(synthUnit, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &sampleRate, sizeof sampleRate));
    CHECK(AudioUnitSetProperty(outputUnit, kAudioUnitProperty_SampleRate, kAudioUnitScope_Input, 0, &sampleRate, sizeof sampleRate));
    CHECK(AudioUnitSetProperty(outputUnit, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &sampleRate, sizeof sampleRate));
    CHECK(AUGraphInitialize(graph));
    CHECK(MusicSequenceSetAUGraph(sequence, graph));

    /* The file: 16-bit stereo WAV; the client format is what AudioUnitRender gives. */
    AudioStreamBasicDescription fileFormat = {sampleRate, kAudioFormatLinearPCM,
        kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, 4, 1, 4, 2, 16, 0};
    AudioStreamBasicDescription clientFormat;
    UInt32 size = sizeof clientFormat;
    CHECK(AudioUnitGetProperty(outputUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &clientFormat, &size));
    ExtAudioFileRef outFile;
    CFURLRef outURL = fileURL(argv[2]);
    OSStatus created = ExtAudioFileCreateWithURL(outURL, kAudioFileWAVEType, &fileFormat, NULL, kAudioFileFlags_EraseFile, &outFile);
    CFRelease(outURL);
    if (created != noErr) { fprintf(stderr, "PlaySequence: %s: cannot create the file (error %d)\n", argv[2], (int)created); return 1; }
    CHECK(ExtAudioFileSetProperty(outFile, kExtAudioFileProperty_ClientDataFormat, sizeof clientFormat, &clientFormat));

    MusicPlayer player;
    CHECK(NewMusicPlayer(&player));
    CHECK(MusicPlayerSetSequence(player, sequence));
    CHECK(MusicPlayerPreroll(player));
    CHECK(MusicPlayerStart(player));

    AudioBufferList *list = malloc(sizeof(AudioBufferList) + sizeof(AudioBuffer));
    static Float32 left[slice], right[slice];
    AudioTimeStamp timestamp = {0};
    timestamp.mFlags = kAudioTimeStampSampleTimeValid;
    long total = (long)(seconds * sampleRate);
    long done = 0;
    while (done < total) {
        UInt32 frames = (UInt32)(total - done < slice ? total - done : slice);
        list->mNumberBuffers = 2;
        list->mBuffers[0] = (AudioBuffer){1, frames * 4, left};
        list->mBuffers[1] = (AudioBuffer){1, frames * 4, right};
        AudioUnitRenderActionFlags flags = 0;
        CHECK(AudioUnitRender(outputUnit, &flags, &timestamp, 0, frames, list));
        CHECK(ExtAudioFileWrite(outFile, frames, list));
        timestamp.mSampleTime += frames;
        done += frames;
    }
    free(list);
    CHECK(MusicPlayerStop(player));
    CHECK(ExtAudioFileDispose(outFile));
    CHECK(DisposeMusicPlayer(player));
    CHECK(DisposeMusicSequence(sequence));
    CHECK(DisposeAUGraph(graph));
    printf("rendered %ld frames (%.2f s) of %u tracks into %s\n", done, seconds, (unsigned)trackCount, argv[2]);
    return 0;
}
