import AUTestSupport
import Foundation

/// Builds a C client of the library and runs it under the AllocCounter shim (the render
/// path's allocation checks through the C API).
enum CClientUnderShim {
    /// C: what every client under the shim starts with: the headers, the shim's `counts`,
    /// `CHECK` (returns 1 from main with the failed call's status), `openShim()` (finds the
    /// shim's `reset()` and `readCounts()`; exits 2 when not run under it) and
    /// `printCounts()` (the counts as `key=value` words, no newline: the client adds its own).
    static let prologue = """
        #include <AudioToolbox/AudioToolbox.h>
        #include <dlfcn.h>
        #include <stdint.h>
        #include <stdio.h>
        #include <stdlib.h>

        typedef struct { uint64_t mallocs, callocs, reallocs, frees, retains, releases, locks, syscalls; } counts;
        #define CHECK(x) do { OSStatus s = (x); if (s) { fprintf(stderr, "%s: %d\\n", #x, (int)s); return 1; } } while (0)
        static void (*reset)(void);
        static void (*readCounts)(counts *);

        static void openShim(void) {
            reset = (void (*)(void))dlsym(RTLD_DEFAULT, "alloc_counter_reset");
            readCounts = (void (*)(counts *))dlsym(RTLD_DEFAULT, "alloc_counter_read");
            if (!reset || !readCounts) { fprintf(stderr, "not under the AllocCounter shim\\n"); exit(2); }
        }

        static void printCounts(const counts *c) {
            printf("mallocs=%llu callocs=%llu reallocs=%llu frees=%llu retains=%llu releases=%llu locks=%llu",
                   (unsigned long long)c->mallocs, (unsigned long long)c->callocs, (unsigned long long)c->reallocs, (unsigned long long)c->frees,
                   (unsigned long long)c->retains, (unsigned long long)c->releases, (unsigned long long)c->locks);
        }
        """

    /// C: pulls `outUnit` 220 cycles of 256 frames with AudioUnitRender, resetting the counts
    /// after 20, and sums the left channel's energy in `energy` (declared by the loop).
    static let pullLoop = """
        enum { frames = 256 };
        static Float32 left[frames], right[frames];
        AudioBufferList *list = calloc(1, sizeof(AudioBufferList) + sizeof(AudioBuffer));
        AudioTimeStamp ts = {0};
        ts.mFlags = kAudioTimeStampSampleTimeValid;
        double energy = 0;
        for (int cycle = 0; cycle < 220; cycle++) {
            if (cycle == 20) reset();
            list->mNumberBuffers = 2;
            list->mBuffers[0] = (AudioBuffer){1, frames * 4, left};
            list->mBuffers[1] = (AudioBuffer){1, frames * 4, right};
            ts.mSampleTime = cycle * frames;
            AudioUnitRenderActionFlags flags = 0;
            CHECK(AudioUnitRender(outUnit, &flags, &ts, 0, frames, list));
            if (cycle >= 20) for (int i = 0; i < frames; i++) energy += left[i] * left[i];
        }
    """

    /// `foundation`: linked with libFoundation too (a client calling CF functions).
    static func run(_ source: String, name: String, foundation: Bool = false) throws -> (status: Int32, text: String) {
        let folder = try AudioToolboxBuild.scratchFolder(name)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sources = folder.appendingPathComponent("Examples/client")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let file = sources.appendingPathComponent("main.c")
        try source.write(to: file, atomically: true, encoding: .utf8)
        var program = folder.appendingPathComponent("client")
        if foundation {
            program = try PlaySequenceExampleTests.compileExample("client", into: folder, root: folder)
        } else {
            try AudioToolboxBuild.compileC(file, to: program)
        }
        var shim = AudioToolboxBuild.directory.appendingPathComponent("libAllocCounter.so")
        if !FileManager.default.fileExists(atPath: shim.path) { shim = AudioToolboxBuild.root.appendingPathComponent(".build/debug/libAllocCounter.so") }
        let run = try runUnderAllocCounter(program, arguments: [], shim: shim)
        return (run.status, run.text)
    }
}
