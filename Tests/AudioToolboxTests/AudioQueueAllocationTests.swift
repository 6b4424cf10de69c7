import AUTestSupport
import Foundation
import Testing

/// An output audio queue's render path (the device thread copying the enqueued buffers,
/// applying the volume, handing played buffers back through a ring) allocates nothing and
/// takes no lock: a C client plays a queue on the null device under the AllocCounter shim,
/// its callback refilling three buffers, and counts the device thread's calls after the
/// first 0.2 s for 0.5 s.
@Suite struct AudioQueueAllocationTests {
    static let client = #"""
    \#(CClientUnderShim.prologue)
    #include <unistd.h>

    static volatile int refills;

    static void refill(void *data, AudioQueueRef queue, AudioQueueBufferRef buffer) {
        Float32 *samples = buffer->mAudioData;
        for (UInt32 i = 0; i < buffer->mAudioDataBytesCapacity / 4; i++) samples[i] = (i % 100) / 200.0f;
        buffer->mAudioDataByteSize = buffer->mAudioDataBytesCapacity;
        AudioQueueEnqueueBuffer(queue, buffer, 0, NULL);
        refills++;
    }

    int main(void) {
        openShim();
        setenv("AUHOST_DEVICE", "null", 1);   /* the paced device thread, no file */
        AudioStreamBasicDescription format = {44100, kAudioFormatLinearPCM, kLinearPCMFormatFlagIsFloat | kLinearPCMFormatFlagIsPacked, 8, 1, 8, 2, 32, 0};
        AudioQueueRef queue;
        if (AudioQueueNewOutput(&format, refill, NULL, NULL, NULL, 0, &queue)) return 1;
        for (int i = 0; i < 3; i++) {
            AudioQueueBufferRef buffer;
            if (AudioQueueAllocateBuffer(queue, 2048 * 8, &buffer)) return 1;
            refill(NULL, queue, buffer);
        }
        AudioQueueSetParameter(queue, kAudioQueueParam_Volume, 0.5f);
        if (AudioQueueStart(queue, NULL)) return 1;
        usleep(200000);
        reset();
        int before = refills;
        usleep(500000);
        counts c;
        readCounts(&c);
        int during = refills - before;
        AudioQueueDispose(queue, true);
        printCounts(&c);
        printf(" refills=%s\n", during > 0 ? "yes" : "no");
        return 0;
    }
    """#

    @Test func playingAQueueAllocatesAndLocksNothingOnTheDeviceThread() throws {
        let run = try CClientUnderShim.run(Self.client, name: "queue-alloc")
        #expect(run.status == 0, "\(run.text)")
        #expect(run.text.contains("mallocs=0 callocs=0 reallocs=0 frees=0 "), "\(run.text)")
        #expect(run.text.contains(" locks=0 refills=yes"), "\(run.text)")
    }
}
