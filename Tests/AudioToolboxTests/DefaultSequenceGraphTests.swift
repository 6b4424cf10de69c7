import AUTestSupport
import Foundation
import Testing

/// A program that only loads a file into a sequence and starts a player plays it: the
/// sequence gets Apple's default graph (a DLSSynth with the GM bank into a PeakLimiter into the
/// default output, here AUHOST_DEVICE=file:), which MusicSequenceGetAUGraph hands out too.
@Suite struct DefaultSequenceGraphTests {
    static let client = #"""
    #include <AudioToolbox/AudioToolbox.h>
    #include <stdio.h>
    #include <string.h>
    #include <unistd.h>
    #define CHECK(call) do { OSStatus s_ = (call); if (s_ != noErr) { printf("%s failed: %d\n", #call, (int)s_); return 1; } } while (0)
    int main(int argc, char **argv) {
        MusicSequence sequence;
        CHECK(NewMusicSequence(&sequence));
        CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)argv[1], (CFIndex)strlen(argv[1]), false);
        CHECK(MusicSequenceFileLoad(sequence, url, kMusicSequenceFile_MIDIType, 0));
        CFRelease(url);
        MusicPlayer player;
        CHECK(NewMusicPlayer(&player));
        CHECK(MusicPlayerSetSequence(player, sequence));
        CHECK(MusicPlayerStart(player));
        AUGraph graph;
        CHECK(MusicSequenceGetAUGraph(sequence, &graph));
        Boolean running = false;
        CHECK(AUGraphIsRunning(graph, &running));
        UInt32 nodes = 0;
        CHECK(AUGraphGetNodeCount(graph, &nodes));
        AUNode middle;
        AudioComponentDescription middleDescription;
        CHECK(AUGraphGetIndNode(graph, 1, &middle));
        CHECK(AUGraphNodeInfo(graph, middle, &middleDescription, NULL));
        usleep(2600000);   /* the song: notes at 0, 0.5, 1 and 1.5 s, each 0.4 s */
        CHECK(MusicPlayerStop(player));
        CHECK(DisposeMusicPlayer(player));
        CHECK(DisposeMusicSequence(sequence));   /* disposes the graph it made: the file appears */
        printf("nodes=%u running=%d middle=%.4s\n", (unsigned)nodes, running, (const char *)&(UInt32){CFSwapInt32HostToBig(middleDescription.componentSubType)});
        return 0;
    }
    """#

    @Test func loadingAFileAndStartingAPlayerPlaysIt() throws {
        let folder = try AudioToolboxBuild.scratchFolder("default-graph")
        defer { try? FileManager.default.removeItem(at: folder) }
        let examples = folder.appendingPathComponent("Examples/DefaultGraph")
        try FileManager.default.createDirectory(at: examples, withIntermediateDirectories: true)
        try Self.client.write(to: examples.appendingPathComponent("main.c"), atomically: true, encoding: .utf8)
        let program = try PlaySequenceExampleTests.compileExample("DefaultGraph", into: folder, root: folder)
        // Four notes a beat apart at 120 BPM: C4 E4 G4 C5, 0.8 beat each.
        var track: [UInt8] = []
        for (index, key) in [UInt8(60), 64, 67, 72].enumerated() {
            track += [index == 0 ? 0 : 0x60, 0x90, key, 100, 0x83, 0x00, 0x80, key, 0]   // note-on 96 ticks after the last note-off (480 after its note-on), note-off 384 ticks later
        }
        track += [0, 0xFF, 0x2F, 0]
        let song = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8) + withUnsafeBytes(of: UInt32(track.count).bigEndian) { Array($0) } + track
        let midi = folder.appendingPathComponent("song.mid")
        try Data(song).write(to: midi)
        let wav = folder.appendingPathComponent("out.wav")
        let run = try ChildProcess.run(program, [midi.path], environment: ["AUHOST_DEVICE": "file:\(wav.path)"], timeout: 60)
        #expect(run.status == 0, "\(run.output) \(run.errors)")
        #expect(run.output == "nodes=3 running=1 middle=lmtr\n", "Apple's default graph: synth → limiter → output: \(run.output)")
        let (rate, left) = try WAVSamples.readFirstChannel(wav)
        let first = try #require(left.firstIndex { abs($0) > 1e-4 }, "the file is silent")
        for (index, key) in [60.0, 64, 67, 72].enumerated() {
            let start = first + Int(Double(index) * 0.5 * rate)
            try #require(start + 441 + 8192 < left.count)
            let window = Array(left[(start + 441)..<(start + 441 + 8192)])
            let frequency = 440 * pow(2, (key - 69) / 12)
            let here = Goertzel.amplitude(of: frequency, in: window, sampleRate: rate)
            let neighbours = [frequency * pow(2, -1 / 12), frequency * pow(2, 1 / 12)].map { Goertzel.amplitude(of: $0, in: window, sampleRate: rate) }
            #expect(here > 4 * neighbours.max()!, "note \(key): \(here) against \(neighbours)")
        }
    }
}
