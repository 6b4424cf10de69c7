import AUTestSupport
import Foundation
import Testing

/// Examples/AudioQueueTone (the textbook audio queue program: an output callback filling
/// three 0.1 s buffers with 440 Hz until one second is queued, AudioQueueStop(false), the
/// main thread in CFRunLoopRunInMode until IsRunning says it stopped, volume 0.5) built with
/// cc and run with AUHOST_DEVICE=file:. The file holds the second of tone at half its level;
/// the IsRunning listener heard the start and the stop.
@Suite struct AudioQueueExampleTests {
    @Test func aQueuePlaysItsBuffersAtItsVolumeAndStops() throws {
        let folder = try AudioToolboxBuild.scratchFolder("audioqueue")
        defer { try? FileManager.default.removeItem(at: folder) }
        let program = try PlaySequenceExampleTests.compileExample("AudioQueueTone", into: folder)
        let wav = folder.appendingPathComponent("out.wav")
        let run = try ChildProcess.run(program, [], environment: ["AUHOST_DEVICE": "file:\(wav.path)"], timeout: 60)
        #expect(run.status == 0, "\(run.output) \(run.errors)")
        #expect(run.output == "queued 10 buffers; running changed 2 times; stopped\n", "\(run.output)")
        let (rate, left) = try WAVSamples.readFirstChannel(wav)
        #expect(rate == 44_100)
        // 0.8 full scale at volume 0.5: a peak of 0.4, and one second of it (44 100 frames of
        // a sine of amplitude 0.4 hold 44 100 × 0.08 in squares), gaps or not.
        let peak = left.map(abs).max() ?? 0
        #expect(abs(peak - 0.4) < 0.01, "peak \(peak)")
        let energy = left.reduce(0.0) { $0 + Double($1) * Double($1) }
        #expect(abs(energy - 44_100 * 0.08) < 44_100 * 0.08 * 0.02, "energy \(energy), expected \(44_100 * 0.08)")
        let start = try #require(left.firstIndex { $0 != 0 })
        #expect(Goertzel.amplitude(of: 440, in: Array(left[(start + 4410)..<(start + 8820)]), sampleRate: rate) > 0.35)
    }

    /// Every AudioQueue function's wrong arguments, from a C client on the null device.
    static let errorClient = #"""
    #include <AudioToolbox/AudioToolbox.h>
    #include <stdio.h>
    #define EXPECT(call, status) do { OSStatus s_ = (call); if (s_ != (status)) { \
        printf("%s gave %d, expected %d\n", #call, (int)s_, (int)(status)); return 1; } } while (0)
    static void callback(void *data, AudioQueueRef queue, AudioQueueBufferRef buffer) {}
    static void listener(void *data, AudioQueueRef queue, AudioQueuePropertyID id) {}
    int main(void) {
        AudioStreamBasicDescription format = {44100, kAudioFormatLinearPCM, kLinearPCMFormatFlagIsFloat | kLinearPCMFormatFlagIsPacked, 8, 1, 8, 2, 32, 0};
        AudioStreamBasicDescription aac = format;
        aac.mFormatID = kAudioFormatMPEG4AAC;
        AudioQueueRef queue, other;
        EXPECT(AudioQueueNewOutput(NULL, callback, NULL, NULL, NULL, 0, &queue), kAudio_ParamError);
        EXPECT(AudioQueueNewOutput(&aac, callback, NULL, NULL, NULL, 0, &queue), kAudioConverterErr_FormatNotSupported);
        EXPECT(AudioQueueNewOutput(&format, NULL, NULL, NULL, NULL, 0, &queue), kAudio_ParamError);
        EXPECT(AudioQueueNewOutput(&format, callback, NULL, NULL, NULL, 0, &queue), noErr);
        EXPECT(AudioQueueNewOutput(&format, callback, NULL, NULL, NULL, 0, &other), noErr);
        AudioQueueBufferRef buffer, foreign;
        EXPECT(AudioQueueAllocateBuffer(queue, 0, &buffer), kAudioQueueErr_InvalidParameter);
        EXPECT(AudioQueueAllocateBuffer(queue, 800, &buffer), noErr);
        if (buffer->mAudioDataBytesCapacity != 800 || buffer->mAudioData == NULL) { printf("bad buffer\n"); return 1; }
        EXPECT(AudioQueueAllocateBuffer(other, 800, &foreign), noErr);
        EXPECT(AudioQueueEnqueueBuffer(queue, foreign, 0, NULL), kAudioQueueErr_InvalidBuffer);
        EXPECT(AudioQueueFreeBuffer(queue, foreign), kAudioQueueErr_InvalidBuffer);
        EXPECT(AudioQueueEnqueueBuffer(queue, buffer, 0, NULL), kAudioQueueErr_BufferEmpty);
        buffer->mAudioDataByteSize = 900;
        EXPECT(AudioQueueEnqueueBuffer(queue, buffer, 0, NULL), kAudioQueueErr_InvalidParameter);
        EXPECT(AudioQueueSetParameter(queue, kAudioQueueParam_Volume, 2), kAudioQueueErr_InvalidParameter);
        EXPECT(AudioQueueSetParameter(queue, kAudioQueueParam_PlayRate, 1), kAudio_UnimplementedError);
        AudioQueueParameterValue volume = 0;
        EXPECT(AudioQueueSetParameter(queue, kAudioQueueParam_Volume, 0.25f), noErr);
        EXPECT(AudioQueueGetParameter(queue, kAudioQueueParam_Volume, &volume), noErr);
        if (volume != 0.25f) { printf("volume %f\n", volume); return 1; }
        EXPECT(AudioQueueGetParameter(queue, kAudioQueueParam_Volume, NULL), kAudio_ParamError);
        UInt32 size = 0, running = 9;
        EXPECT(AudioQueueGetPropertySize(queue, kAudioQueueProperty_StreamDescription, &size), noErr);
        if (size != sizeof(AudioStreamBasicDescription)) { printf("size %u\n", (unsigned)size); return 1; }
        EXPECT(AudioQueueGetPropertySize(queue, kAudioQueueProperty_MagicCookie, &size), kAudioQueueErr_InvalidProperty);
        AudioStreamBasicDescription read;
        size = sizeof read;
        EXPECT(AudioQueueGetProperty(queue, kAudioQueueProperty_StreamDescription, &read, &size), noErr);
        if (read.mSampleRate != 44100 || read.mChannelsPerFrame != 2) { printf("format\n"); return 1; }
        Float64 rate = 0;
        size = sizeof rate;
        EXPECT(AudioQueueGetProperty(queue, kAudioQueueDeviceProperty_SampleRate, &rate, &size), noErr);
        size = 2;
        EXPECT(AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size), kAudioQueueErr_InvalidPropertySize);
        EXPECT(AudioQueueAddPropertyListener(queue, kAudioQueueProperty_StreamDescription, listener, NULL), kAudioQueueErr_InvalidProperty);
        EXPECT(AudioQueueAddPropertyListener(queue, kAudioQueueProperty_IsRunning, listener, NULL), noErr);
        EXPECT(AudioQueueRemovePropertyListener(queue, kAudioQueueProperty_IsRunning, listener, NULL), noErr);
        AudioTimeStamp when = {0};
        EXPECT(AudioQueueStart(queue, &when), kAudio_UnimplementedError);
        EXPECT(AudioQueueStart(queue, NULL), noErr);
        size = sizeof running;
        EXPECT(AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size), noErr);
        if (running != 1) { printf("not running\n"); return 1; }
        EXPECT(AudioQueuePause(queue), noErr);
        EXPECT(AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size), noErr);
        if (running != 0) { printf("still running\n"); return 1; }
        EXPECT(AudioQueueStart(queue, NULL), noErr);
        EXPECT(AudioQueueStop(queue, true), noErr);
        EXPECT(AudioQueueFreeBuffer(queue, buffer), noErr);
        EXPECT(AudioQueueDispose(other, true), noErr);
        EXPECT(AudioQueueDispose(queue, true), noErr);
        EXPECT(AudioQueueStart(queue, NULL), kAudio_ParamError);
        EXPECT(AudioQueueDispose(queue, true), kAudio_ParamError);
        printf("ok\n");
        return 0;
    }
    """#

    @Test func everyFunctionRefusesWrongArguments() throws {
        let folder = try AudioToolboxBuild.scratchFolder("audioqueue-errors")
        defer { try? FileManager.default.removeItem(at: folder) }
        let examples = folder.appendingPathComponent("Examples/AudioQueueErrors")
        try FileManager.default.createDirectory(at: examples, withIntermediateDirectories: true)
        try Self.errorClient.write(to: examples.appendingPathComponent("main.c"), atomically: true, encoding: .utf8)
        let program = try PlaySequenceExampleTests.compileExample("AudioQueueErrors", into: folder, root: folder)
        let run = try ChildProcess.run(program, [], environment: ["AUHOST_DEVICE": "null"], timeout: 60)
        #expect(run.status == 0 && run.output == "ok\n", "\(run.output) \(run.errors)")
    }
}
