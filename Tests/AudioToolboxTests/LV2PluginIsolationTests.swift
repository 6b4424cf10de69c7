import AUTestSupport
import Foundation
import Testing

/// LV2 plugins through Core Audio's API from a C program: `AudioComponentFindNext` finds them
/// (by name here, under the codes `auhost list` shows), and `AUHOST_ISOLATION` runs them in
/// child processes: a plugin that crashes in its run leaves the program running, its
/// renders silent, with one line on standard error naming it (docs/ISOLATION.md).
@Suite struct LV2PluginIsolationTests {
    /// Finds the component named argv[1], renders three 256-frame cycles of ±0.5 through it,
    /// and prints each cycle's status and peak.
    static let client = #"""
    #include <AudioToolbox/AudioToolbox.h>
    #include <string.h>

    #define CHECK(x) do { OSStatus s = (x); if (s) { fprintf(stderr, "%s: %d\n", #x, (int)s); return 1; } } while (0)

    static OSStatus input(void *ref, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus, UInt32 frames, AudioBufferList *data) {
        Float32 *samples = data->mBuffers[0].mData;
        for (UInt32 i = 0; i < frames; i++) samples[i] = i % 2 ? 0.5f : -0.5f;
        return noErr;
    }

    int main(int argc, char **argv) {
        AudioComponentDescription any = {0, 0, 0, 0, 0};
        AudioComponent component = NULL, found = NULL;
        while ((component = AudioComponentFindNext(component, &any))) {
            CFStringRef name;
            char text[256];
            if (AudioComponentCopyName(component, &name) != noErr) continue;
            if (CFStringGetCString(name, text, sizeof text, kCFStringEncodingUTF8) && strcmp(text, argv[1]) == 0) found = component;
            CFRelease(name);
        }
        if (!found) { printf("no component named %s\n", argv[1]); return 1; }
        AudioUnit unit;
        CHECK(AudioComponentInstanceNew(found, &unit));
        AudioStreamBasicDescription format = {48000, kAudioFormatLinearPCM, kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved, 4, 1, 4, 1, 32, 0};
        CHECK(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, sizeof format));
        CHECK(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, sizeof format));
        AURenderCallbackStruct callback = {input, NULL};
        CHECK(AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback, sizeof callback));
        CHECK(AudioUnitInitialize(unit));
        Float32 samples[256];
        for (int cycle = 0; cycle < 3; cycle++) {
            struct { UInt32 count; AudioBuffer buffers[1]; } list = {1, {{1, sizeof samples, samples}}};
            AudioUnitRenderActionFlags flags = 0;
            AudioTimeStamp time;
            memset(&time, 0, sizeof time);
            time.mSampleTime = cycle * 256;
            time.mFlags = kAudioTimeStampSampleTimeValid;
            OSStatus status = AudioUnitRender(unit, &flags, &time, 0, 256, (AudioBufferList *)&list);
            float peak = 0;
            for (int i = 0; i < 256; i++) peak = samples[i] > peak ? samples[i] : -samples[i] > peak ? -samples[i] : peak;
            printf("cycle %d: status %d peak %.2f\n", cycle, (int)status, peak);
        }
        CHECK(AudioUnitUninitialize(unit));
        CHECK(AudioComponentInstanceDispose(unit));
        printf("done\n");
        return 0;
    }
    """#

    /// The client compiled once, and the fixtures' bundles (a passthrough, a crash in run).
    final class Setup: Sendable {
        let folder: URL
        let program: URL
        let bundles: URL

        init() throws {
            folder = try AudioToolboxBuild.scratchFolder("lv2-isolation")
            program = try CClient.compile(LV2PluginIsolationTests.client, in: folder)
            bundles = folder.appendingPathComponent("lv2")
            for fixture in ["passthrough", "crash-in-run"] { try writeFixtureBundle(fixture, name: "Fixture \(fixture)", into: bundles) }
        }

        /// Runs the client over the fixture `fixture` with `isolation` (nil: unset).
        func run(_ fixture: String, isolation: String?) throws -> ChildProcess.Outcome {
            var environment = ["LV2_PATH": bundles.path, "XDG_CACHE_HOME": folder.appendingPathComponent("cache-\(fixture)-\(isolation ?? "unset")").path]
            environment["AUHOST_ISOLATION"] = isolation
            return try ChildProcess.run(program, ["Fixture \(fixture)"], environment: environment, timeout: 120)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    static let rendered = "cycle 0: status 0 peak 0.50\ncycle 1: status 0 peak 0.50\ncycle 2: status 0 peak 0.50\ndone\n"

    @Test func anLV2PluginRendersInProcessAndIsolatedAlike() throws {
        let setup = try Setup()
        for isolation in [nil, "per-unit", "together"] {
            let run = try setup.run("passthrough", isolation: isolation)
            #expect(run.status == 0 && run.output == Self.rendered, "\(isolation ?? "unset"): \(run.output)\(run.errors)")
        }
        let bad = try setup.run("passthrough", isolation: "sideways")
        #expect(bad.status == 0 && bad.output == Self.rendered, "\(bad.output)\(bad.errors)")
        #expect(bad.errors.contains("AudioToolbox: AUHOST_ISOLATION=sideways: expected one of none|together|per-unit; the plugins run in this process"), "\(bad.errors)")
    }

    @Test func anIsolatedPluginThatCrashesLeavesTheProgramRunning() throws {
        let setup = try Setup()
        for isolation in ["per-unit", "together"] {
            let run = try setup.run("crash-in-run", isolation: isolation)
            #expect(run.status == 0, "\(isolation): \(run.output)\(run.errors)")
            #expect(run.output == "cycle 0: status 0 peak 0.00\ncycle 1: status 0 peak 0.00\ncycle 2: status 0 peak 0.00\ndone\n", "\(isolation): \(run.output)")
            #expect(run.errors.contains("AudioToolbox: 'Fixture crash-in-run 1' (Fixture crash-in-run) crashed in render (SIGSEGV); silenced"), "\(isolation): \(run.errors)")
        }
        // In the program's process the same plugin ends it.
        let inProcess = try setup.run("crash-in-run", isolation: nil)
        #expect(inProcess.status != 0 && !inProcess.output.contains("done"), "\(inProcess.output)\(inProcess.errors)")
    }
}
