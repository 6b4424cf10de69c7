import AUTestSupport
import Foundation
import Testing

/// Builds an inline C client of the library (linked with libFoundation for the CF calls) and
/// runs it to its end.
enum CClient {
    static func run(_ source: String, name: String, environment: [String: String] = [:]) throws -> ChildProcess.Outcome {
        let folder = try AudioToolboxBuild.scratchFolder(name)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try ChildProcess.run(try compile(source, in: folder), [], environment: environment, timeout: 60)
    }

    /// Compiles `source` into `folder` (its client program there).
    static func compile(_ source: String, in folder: URL) throws -> URL {
        let sources = folder.appendingPathComponent("Examples/client")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try source.write(to: sources.appendingPathComponent("main.c"), atomically: true, encoding: .utf8)
        return try PlaySequenceExampleTests.compileExample("client", into: folder, root: folder)
    }
}

/// `MusicSequenceSetUserCallback` and `MusicSequenceGetInfoDictionary` from a C client: a
/// sequence at 90 BPM (tempo track) with user events "one" at beat 1, "two" at 2 and "three"
/// at 3, played into Apple's sampler → GenericOutput pulled with AudioUnitRender. After
/// pulling to beat 1.5 the client waits (up to 5 s) for the callback: exactly the first event
/// has come, on a thread other than the main one, with its bytes, its beat and a slice that
/// holds it; after pulling to beat 3.5, all three, in order. The info dictionary read with
/// CFDictionaryGetValue(CFSTR(kAFInfoDictionary_…)) and CFStringGetCString has the title,
/// copyright, tempo and time signature the tempo track's meta events and tempo give.
@Suite struct MusicSequenceCallbackTests {
    static let client = #"""
    #include <AudioToolbox/AudioToolbox.h>
    #include <pthread.h>
    #include <stdatomic.h>

    #define CHECK(x) do { OSStatus s = (x); if (s) { fprintf(stderr, "%s: %d\n", #x, (int)s); return 1; } } while (0)

    static pthread_t mainThread;
    static atomic_int delivered;
    static char seen[3][64];
    static atomic_int onMainThread;

    static void userCallback(void *clientData, MusicSequence sequence, MusicTrack track, MusicTimeStamp time,
                             const MusicEventUserData *data, MusicTimeStamp sliceStart, MusicTimeStamp sliceEnd) {
        if (pthread_equal(pthread_self(), mainThread)) atomic_store(&onMainThread, 1);
        int index = atomic_load(&delivered);
        if (index < 3) {
            snprintf(seen[index], sizeof seen[index], "%.2f %.*s %d %d", time, (int)data->length, (const char *)data->data,
                     sliceStart <= time && time < sliceEnd, clientData == (void *)sequence);
        }
        atomic_store(&delivered, index + 1);
    }

    static void addMeta(MusicTrack track, UInt8 type, const void *bytes, UInt32 length) {
        MIDIMetaEvent *meta = calloc(1, sizeof(MIDIMetaEvent) + length);
        meta->metaEventType = type;
        meta->dataLength = length;
        memcpy(meta->data, bytes, length);
        MusicTrackNewMetaEvent(track, 0, meta);
        free(meta);
    }

    /// Pulls `out` until the player has passed `beat`, then waits up to 5 s for `count` deliveries.
    static int pullTo(AudioUnit out, MusicPlayer player, double beat, int count, double *sampleTime) {
        static Float32 left[512], right[512];
        AudioBufferList *list = calloc(1, sizeof(AudioBufferList) + sizeof(AudioBuffer));
        for (MusicTimeStamp now = 0; MusicPlayerGetTime(player, &now) == noErr && now < beat;) {
            list->mNumberBuffers = 2;
            list->mBuffers[0] = (AudioBuffer){1, sizeof left, left};
            list->mBuffers[1] = (AudioBuffer){1, sizeof right, right};
            AudioTimeStamp ts = {0};
            ts.mFlags = kAudioTimeStampSampleTimeValid;
            ts.mSampleTime = *sampleTime;
            AudioUnitRenderActionFlags flags = 0;
            if (AudioUnitRender(out, &flags, &ts, 0, 512, list)) return 0;
            *sampleTime += 512;
        }
        free(list);
        for (int i = 0; i < 5000 && atomic_load(&delivered) < count; i++) usleep(1000);
        return atomic_load(&delivered);
    }

    int main(void) {
        mainThread = pthread_self();
        AudioComponentDescription synthDesc = {kAudioUnitType_MusicDevice, kAudioUnitSubType_Sampler, kAudioUnitManufacturer_Apple, 0, 0};
        AudioComponentDescription outDesc = {kAudioUnitType_Output, kAudioUnitSubType_GenericOutput, kAudioUnitManufacturer_Apple, 0, 0};
        AUGraph graph;
        AUNode synth, out;
        AudioUnit outUnit;
        CHECK(NewAUGraph(&graph));
        CHECK(AUGraphAddNode(graph, &synthDesc, &synth));
        CHECK(AUGraphAddNode(graph, &outDesc, &out));
        CHECK(AUGraphConnectNodeInput(graph, synth, 0, out, 0));
        CHECK(AUGraphOpen(graph));
        CHECK(AUGraphNodeInfo(graph, out, NULL, &outUnit));
        CHECK(AUGraphInitialize(graph));

        MusicSequence sequence;
        MusicTrack track, tempo;
        CHECK(NewMusicSequence(&sequence));
        CHECK(MusicSequenceNewTrack(sequence, &track));
        CHECK(MusicSequenceGetTempoTrack(sequence, &tempo));
        CHECK(MusicTrackNewExtendedTempoEvent(tempo, 0, 90));
        addMeta(tempo, 0x03, "Callback Song", 13);
        addMeta(tempo, 0x02, "(c) nobody", 10);
        UInt8 threeFour[4] = {3, 2, 24, 8};
        addMeta(tempo, 0x58, threeFour, 4);
        const char *words[3] = {"one", "two", "three"};
        for (int i = 0; i < 3; i++) {
            MusicEventUserData *user = calloc(1, sizeof(MusicEventUserData) + 8);
            user->length = (UInt32)strlen(words[i]);
            memcpy(user->data, words[i], user->length);
            CHECK(MusicTrackNewUserEvent(track, i + 1, user));
            free(user);
        }
        CHECK(MusicSequenceSetAUGraph(sequence, graph));
        CHECK(MusicSequenceSetUserCallback(sequence, userCallback, sequence));

        CFDictionaryRef info = MusicSequenceGetInfoDictionary(sequence);
        if (!info) { fprintf(stderr, "no info dictionary\n"); return 1; }
        const char *keys[4] = {kAFInfoDictionary_Title, kAFInfoDictionary_Copyright, kAFInfoDictionary_Tempo, kAFInfoDictionary_TimeSignature};
        CFStringRef cfKeys[4] = {CFSTR(kAFInfoDictionary_Title), CFSTR(kAFInfoDictionary_Copyright), CFSTR(kAFInfoDictionary_Tempo),
                                 CFSTR(kAFInfoDictionary_TimeSignature)};
        for (int i = 0; i < 4; i++) {
            char text[64] = "(none)";
            CFStringRef value = CFDictionaryGetValue(info, cfKeys[i]);
            if (value) CFStringGetCString(value, text, sizeof text, kCFStringEncodingUTF8);
            printf("info %s: %s\n", keys[i], text);
        }
        CFRelease(info);
        if (MusicSequenceGetInfoDictionary(NULL) != NULL) printf("NULL sequence gave a dictionary\n");

        MusicPlayer player;
        CHECK(NewMusicPlayer(&player));
        CHECK(MusicPlayerSetSequence(player, sequence));
        CHECK(MusicPlayerStart(player));
        double sampleTime = 0;
        printf("after beat 1.5: %d\n", pullTo(outUnit, player, 1.5, 1, &sampleTime));
        printf("after beat 3.5: %d\n", pullTo(outUnit, player, 3.5, 3, &sampleTime));
        for (int i = 0; i < 3; i++) printf("event %s\n", seen[i]);
        printf("on the main thread: %d\n", atomic_load(&onMainThread));
        CHECK(MusicPlayerStop(player));
        CHECK(MusicSequenceSetUserCallback(sequence, NULL, NULL));
        CHECK(DisposeMusicPlayer(player));
        CHECK(DisposeMusicSequence(sequence));
        CHECK(DisposeAUGraph(graph));
        return 0;
    }
    """#

    @Test func userEventsReachTheCallbackAndTheInfoDictionaryReadsFromC() throws {
        let run = try CClient.run(Self.client, name: "user-callback")
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        for expected in [
            "info title: Callback Song", "info copyright: (c) nobody", "info tempo: 90", "info time signature: 3/4",
            "after beat 1.5: 1", "after beat 3.5: 3",
            "event 1.00 one 1 1", "event 2.00 two 1 1", "event 3.00 three 1 1", "on the main thread: 0",
        ] {
            #expect(lines.contains(expected), "\(expected) in:\n\(run.output)\n\(run.errors)")
        }
        #expect(!run.output.contains("NULL sequence gave a dictionary"))
    }
}
