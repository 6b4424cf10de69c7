import AUCore
import AUFiles
import Foundation
import Synchronization

/// Hands the chain's output to a writer thread, so that converting, metering (with
/// `--true-peak`, 4× oversampled), quantizing and encoding one block overlap with rendering the next: the
/// offline driver's wall time becomes the larger of the two instead of their sum. Used when
/// a core would otherwise sit idle (``isThreaded``: a render of one file on more than one
/// thread, on a machine with more than one core; a batch's files use the cores through
/// `--jobs`); otherwise every
/// call goes straight to the output on the job's thread.
///
/// Blocks are copied into a few fixed slots of many blocks each (allocated in `init`), and
/// the writer is woken once per full slot rather than once per block (a wake-up is a
/// system call on each side: at 1024-frame blocks they cost more than the metering they
/// hid). The render side waits only when every slot is full. The first error the writer
/// meets is thrown by the next ``write(_:)`` or by ``finish()``; after it the writer drops
/// what it is given.
/// - Thread: [control] ``write(_:)``, ``finish()`` and ``cancel()`` on the job's thread; [worker] the writer
///   thread calls the ``AudioFileOutput`` (which is used by one thread at a time).
final class OutputPipeline: @unchecked Sendable {
    private let output: AudioFileOutput
    /// Whether a writer thread does the writing.
    let isThreaded: Bool
    /// The slots the writer drains (nil: not threaded); a count of -1 is the end.
    private let ring: SlotRing?
    /// The first error the writer met.
    private let failure = Mutex<AudioUnitError?>(nil)
    private var next = 0
    /// Whether the render side holds slot `next` (taken from `free`, not yet `filled`).
    private var isHoldingSlot = false
    private var isClosed = false

    /// Frames per slot, at least.
    static let slotFrames = 16_384

    /// Starts the writer thread for `output` when `threaded`, with `slotCount` slots of
    /// `channels` channels holding at least ``slotFrames`` frames and at least one block of
    /// `blockSize` frames.
    /// - Thread: [control]
    init(output: AudioFileOutput, channels: Int, blockSize: Int, threaded: Bool, slotCount: Int = 4) {
        self.output = output
        isThreaded = threaded
        ring = threaded ? SlotRing(slotCount: slotCount, channels: channels, capacity: max(blockSize, Self.slotFrames)) : nil
        guard let ring else {
            isClosed = true
            return
        }
        ring.startWorker(name: "auhost.render.writer") { [self] in writeLoop(ring) }
    }

    // A writer thread holds the pipeline until ``finish()`` or ``cancel()`` ends it: call
    // one of them.

    /// Queues `buffers` (at most the block size) for the writer.
    /// - Thread: [control] the job's thread.
    func write(_ buffers: AudioBuffers) throws(AudioUnitError) {
        guard let ring else { return try output.write(buffers) }
        if let error = currentFailure { throw error }
        if isHoldingSlot && ring.counts[next] + buffers.frameCount > ring.slots[next].capacity { handOver(ring) }
        if !isHoldingSlot {
            ring.awaitFree()
            isHoldingSlot = true
            ring.counts[next] = 0
        }
        let slot = ring.slots[next].buffers()
        let start = ring.counts[next]
        for channel in 0..<slot.channelCount {
            (slot.channelPointers[channel] + start).update(from: buffers.channelPointers[channel], count: buffers.frameCount)
        }
        ring.counts[next] = start + buffers.frameCount
    }

    /// Gives the slot being filled to the writer.
    private func handOver(_ ring: SlotRing) {
        guard isHoldingSlot else { return }
        isHoldingSlot = false
        next = ring.after(next)
        ring.markFilled()
    }

    /// Waits for the writer to write everything queued, then completes the output (and puts
    /// it in place when `committing`).
    /// - Thread: [control] the job's thread.
    func finish(committing: Bool) throws(AudioUnitError) -> AudioLevels {
        close()
        if let error = currentFailure {
            output.cancel()
            throw error
        }
        return try output.finish(committing: committing)
    }

    /// - Thread: [control] or [worker], after ``finish(committing:)``.
    func commit() throws(AudioUnitError) { try output.commit() }

    /// Stops the writer and abandons the output (nothing is left at its path).
    /// - Thread: [control] the job's thread.
    func cancel() {
        close()
        output.cancel()
    }

    /// Sends the end, once, and waits for the writer thread to leave.
    private func close() {
        guard !isClosed, let ring else { return }
        isClosed = true
        handOver(ring)
        ring.awaitFree()
        ring.counts[next] = -1
        ring.markFilled()
        ring.waitForWorker()
    }

    private var currentFailure: AudioUnitError? { failure.withLock { $0 } }

    /// - Thread: [worker] the writer thread.
    private func writeLoop(_ ring: SlotRing) {
        var slot = 0
        while true {
            ring.awaitFilled()
            let count = ring.counts[slot]
            if count < 0 { break }
            if currentFailure == nil {
                do {
                    try output.write(ring.slots[slot].buffers(frameCount: count))
                } catch {
                    failure.withLock { $0 = error }
                }
            }
            slot = ring.after(slot)
            ring.markFree()
        }
    }
}
