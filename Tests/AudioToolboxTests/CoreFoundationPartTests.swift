import AudioToolbox
import AUTestSupport
import Foundation
import Testing

/// The CoreFoundation, CoreServices and CoreAudio parts textbook programs use, from a C
/// client that includes only <AudioToolbox/AudioToolbox.h> and <CoreServices/CoreServices.h>:
/// `CFSTR` (one object per literal, readable with CFStringGetCString, usable as a run-loop
/// mode), CFStringCreateWithCString, CFURLCreateWithFileSystemPath (the path back through
/// CFURLGetFileSystemRepresentation), CFAbsoluteTimeGetCurrent, the host time functions
/// (nanoseconds of the monotonic clock: two readings a 20 ms sleep apart differ by 20–2000 ms),
/// `eofErr`, `nil`, and AudioQueueSetProperty's statuses.
@Suite struct CoreFoundationPartTests {
    static let client = #"""
    #include <AudioToolbox/AudioToolbox.h>
    #include <CoreServices/CoreServices.h>

    static void queueCallback(void *userData, AudioQueueRef queue, AudioQueueBufferRef buffer) {}

    int main(void) {
        CFStringRef a = CFSTR("/tmp/some file.wav"), b = CFSTR("/tmp/some file.wav");
        char text[64] = "";
        printf("same literal, same object: %d\n", a == b);
        printf("CFStringGetCString: %d %s\n", CFStringGetCString(a, text, sizeof text, kCFStringEncodingUTF8), text);
        printf("CFStringGetLength: %ld\n", (long)CFStringGetLength(a));
        CFURLRef url = CFURLCreateWithFileSystemPath(kCFAllocatorDefault, a, kCFURLPOSIXPathStyle, false);
        UInt8 path[64] = "";
        printf("path back: %d %s\n", CFURLGetFileSystemRepresentation(url, true, path, sizeof path), path);
        CFRelease(url);
        CFStringRef made = CFStringCreateWithCString(kCFAllocatorDefault, "made", kCFStringEncodingUTF8);
        CFStringGetCString(made, text, sizeof text, kCFStringEncodingUTF8);
        printf("CFStringCreateWithCString: %s\n", text);
        CFRelease(made);
        printf("run loop with a CFSTR mode returns: %d\n", CFRunLoopRunInMode(CFSTR("kCFRunLoopDefaultMode"), 0.01, false) > 0);

        CFAbsoluteTime then = CFAbsoluteTimeGetCurrent();
        UInt64 hostThen = AudioGetCurrentHostTime();
        usleep(20000);
        UInt64 elapsed = AudioConvertHostTimeToNanos(AudioGetCurrentHostTime() - hostThen);
        printf("host clock: %.0f Hz, 20 ms slept: %d, nanos both ways: %d, delta > 0: %d\n", AudioGetHostClockFrequency(),
               elapsed >= 20000000ull && elapsed < 2000000000ull, AudioConvertNanosToHostTime(12345) == 12345,
               AudioGetHostClockMinimumTimeDelta() > 0);
        printf("absolute time advanced: %d\n", CFAbsoluteTimeGetCurrent() - then >= 0.02);
        printf("eofErr %d nil %d\n", (int)eofErr, nil == NULL);

        AudioStreamBasicDescription format = {44100, kAudioFormatLinearPCM, kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, 4, 1, 4, 2, 16, 0};
        AudioQueueRef queue;
        OSStatus made_ = AudioQueueNewOutput(&format, queueCallback, NULL, NULL, NULL, 0, &queue);
        if (made_) { printf("AudioQueueNewOutput: %d\n", (int)made_); return 1; }
        UInt32 cookie = 0, running = 0;
        printf("set cookie %d running %d NULL data %d NULL queue %d\n",
               (int)AudioQueueSetProperty(queue, kAudioQueueProperty_MagicCookie, &cookie, 4),
               (int)AudioQueueSetProperty(queue, kAudioQueueProperty_IsRunning, &running, 4),
               (int)AudioQueueSetProperty(queue, kAudioQueueProperty_MagicCookie, NULL, 4),
               (int)AudioQueueSetProperty(NULL, kAudioQueueProperty_MagicCookie, &cookie, 4));
        AudioQueueDispose(queue, true);
        return 0;
    }
    """#

    @Test func theCoreFoundationPartsWorkFromC() throws {
        let run = try CClient.run(Self.client, name: "cf-parts", environment: ["AUHOST_DEVICE": "null"])
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        for expected in [
            "same literal, same object: 1", "CFStringGetCString: 1 /tmp/some file.wav", "CFStringGetLength: 18",
            "path back: 1 /tmp/some file.wav", "CFStringCreateWithCString: made", "run loop with a CFSTR mode returns: 1",
            "host clock: 1000000000 Hz, 20 ms slept: 1, nanos both ways: 1, delta > 0: 1", "absolute time advanced: 1",
            "eofErr -39 nil 1",
            "set cookie \(kAudio_UnimplementedError) running \(kAudioQueueErr_InvalidProperty) NULL data \(kAudio_ParamError) NULL queue \(kAudio_ParamError)",
        ] {
            #expect(lines.contains(expected), "\(expected) in:\n\(run.output)\n\(run.errors)")
        }
    }
}
