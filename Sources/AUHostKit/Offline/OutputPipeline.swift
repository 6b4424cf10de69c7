import AUCore
import AUFiles
import Foundation

/// Hands the chain's output to a writer thread, so that converting, metering (true peak is
/// 4× oversampled), quantizing and encoding one block overlap with rendering the next: the
/// offline driver's wall time becomes the larger of the two instead of their sum. Used when
/// a core would otherwise sit idle (``isThreaded``: a render of one file on a machine with
/// more than one core; a batch's files use the cores through `--jobs`); otherwise every
/// call goes straight to the output on the job's thread.
///
/// Blocks are copied into a few fixed slots of many blocks each (allocated in `init`), and
/// the writer is woken once per full slot rather than once per block (a wake-up is a
/// system call on each side: at 1024-frame blocks they cost more than the metering they
/// hid). The render side waits only when every slot is full. The first error the writer
/// meets is thrown by the next ``write(_:)`` or by ``finish()``; after it the writer drops
/// what it is given.
/// - Thread: ``write(_:)``, ``finish()`` and ``cancel()`` on the job's thread; the writer
///   thread calls the ``AudioFileOutput`` (which is used by one thread at a time).
final class OutputPipeline: @unchecked Sendable {
    private let output: AudioFileOutput
    /// Whether a writer thread does the writing.
    let isThreaded: Bool
    private let slots: [OwnedAudioBuffers]
    /// Frames in each slot (-1: the end), written before the slot is signalled filled.
    private let counts: UnsafeMutablePointer<Int>
    /// Semaphores start at zero and are signalled up: libdispatch refuses to free one left
    /// below the value it was made with.
    private let free = DispatchSemaphore(value: 0)
    private let filled = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let failureLock = NSLock()
    private var failure: AudioUnitError?
    private var next = 0
    /// Whether the render side holds slot `next` (taken from `free`, not yet `filled`).
    private var isHoldingSlot = false
    private var isClosed = false

    /// Frames per slot, at least.
    static let slotFrames = 16_384

    /// Starts the writer thread for `output` when `threaded`, with `slotCount` slots of
    /// `channels` channels holding at least ``slotFrames`` frames and at least one block of
    /// `blockSize` frames.
    /// - Thread: control.
    init(output: AudioFileOutput, channels: Int, blockSize: Int, threaded: Bool, slotCount: Int = 4) {
        self.output = output
        isThreaded = threaded
        slots = threaded ? (0..<slotCount).map { _ in OwnedAudioBuffers(channels: channels, capacity: max(blockSize, Self.slotFrames)) } : []
        counts = .allocate(capacity: slotCount)
        counts.initialize(repeating: 0, count: slotCount)
        guard threaded else {
            isClosed = true
            return
        }
        for _ in 0..<slotCount { free.signal() }
        let thread = Thread { [self] in writeLoop() }
        thread.name = "auhost.render.writer"
        thread.start()
    }

    /// A writer thread holds the pipeline until ``finish()`` or ``cancel()`` ends it: call
    /// one of them.
    deinit { counts.deallocate() }

    /// Queues `buffers` (at most the block size) for the writer.
    /// - Thread: the job's.
    func write(_ buffers: AudioBuffers) throws(AudioUnitError) {
        guard isThreaded else { return try output.write(buffers) }
        if let error = currentFailure { throw error }
        if isHoldingSlot && counts[next] + buffers.frameCount > slots[next].capacity { handOver() }
        if !isHoldingSlot {
            free.wait()
            isHoldingSlot = true
            counts[next] = 0
        }
        let slot = slots[next].buffers()
        let start = counts[next]
        for channel in 0..<slot.channelCount {
            (slot.channelPointers[channel] + start).update(from: buffers.channelPointers[channel], count: buffers.frameCount)
        }
        counts[next] = start + buffers.frameCount
    }

    /// Gives the slot being filled to the writer.
    private func handOver() {
        guard isHoldingSlot else { return }
        isHoldingSlot = false
        next = (next + 1) % slots.count
        filled.signal()
    }

    /// Waits for the writer to write everything queued, then completes the output.
    /// - Thread: the job's.
    func finish() throws(AudioUnitError) -> AudioLevels {
        close()
        if let error = currentFailure {
            output.cancel()
            throw error
        }
        return try output.finish()
    }

    /// Stops the writer and abandons the output (nothing is left at its path).
    /// - Thread: the job's.
    func cancel() {
        close()
        output.cancel()
    }

    /// Sends the end, once, and waits for the writer thread to leave.
    private func close() {
        guard !isClosed else { return }
        isClosed = true
        handOver()
        free.wait()
        counts[next] = -1
        filled.signal()
        finished.wait()
    }

    private var currentFailure: AudioUnitError? {
        failureLock.lock()
        defer { failureLock.unlock() }
        return failure
    }

    /// - Thread: the writer thread.
    private func writeLoop() {
        var slot = 0
        while true {
            filled.wait()
            let count = counts[slot]
            if count < 0 { break }
            if currentFailure == nil {
                do {
                    try output.write(slots[slot].buffers(frameCount: count))
                } catch {
                    failureLock.lock()
                    failure = error
                    failureLock.unlock()
                }
            }
            slot = (slot + 1) % slots.count
            free.signal()
        }
        finished.signal()
    }
}
