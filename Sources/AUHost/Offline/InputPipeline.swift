import AUCore
import AUFiles
import Foundation
import Synchronization

/// Reads the input ahead on a reader thread, so that decoding, sample-rate and channel
/// conversion of the next blocks overlap with rendering this one (the input's side of
/// ``OutputPipeline``). Used when a core would otherwise sit idle (``isThreaded``);
/// otherwise every read goes straight to the input on the job's thread.
///
/// The reader fills a few fixed slots of ``OutputPipeline/slotFrames`` frames (allocated in
/// `init`) and is woken once per slot. After the input's end, reads give silence. An error
/// the reader meets is thrown by the read that reaches it.
/// - Thread: [control] ``read(into:)`` and ``stop()`` on the job's thread; [worker] the reader thread calls the
///   ``AudioFileInput`` (which is used by one thread at a time).
final class InputPipeline: @unchecked Sendable {
    private let input: AudioFileInput
    /// How many frames the whole input gives (see ``AudioFileInput/totalFrames``).
    var totalFrames: Int { input.totalFrames }
    /// - Thread: [control]
    var inputWarning: String? { input.info.cutShort }
    let isThreaded: Bool
    /// The slots the reader fills (nil: not threaded); a slot with fewer frames than its
    /// capacity is the last.
    private let ring: SlotRing?
    private let slotCount: Int
    private let failures: UnsafeMutablePointer<AudioUnitError?>
    /// Set by ``stop()``; the reader leaves at its next slot.
    private let isStopping = Atomic<Bool>(false)
    /// The slot being read from (-1: none taken yet), and how far.
    private var current = -1
    private var offset = 0
    private var isAtEnd = false
    private var isStopped = false

    /// Starts the reader thread for `input` when `threaded`.
    /// - Thread: [control]
    init(input: AudioFileInput, threaded: Bool, slotCount: Int = 4) {
        self.input = input
        isThreaded = threaded
        ring = threaded ? SlotRing(slotCount: slotCount, channels: input.channels, capacity: OutputPipeline.slotFrames) : nil
        self.slotCount = slotCount
        failures = .allocate(capacity: slotCount)
        failures.initialize(repeating: nil, count: slotCount)
        guard let ring else {
            isStopped = true
            return
        }
        ring.startWorker(name: "auhost.render.reader") { [self] in readLoop(ring) }
    }

    /// A reader thread holds the pipeline until it reaches the input's end or ``stop()``
    /// ends it: call ``stop()`` when done.
    deinit {
        failures.deinitialize(count: slotCount)
        failures.deallocate()
    }

    /// Fills `buffers` with the next frames of input (silence after its end).
    /// - Thread: [control] the job's thread.
    func read(into buffers: AudioBuffers) throws(AudioUnitError) {
        guard let ring else {
            _ = try input.read(into: buffers)
            return
        }
        var done = 0
        while done < buffers.frameCount {
            if current < 0 || (offset == ring.counts[current] && !isAtEnd) {
                if current >= 0 { ring.markFree() }
                current = ring.after(current)
                offset = 0
                ring.awaitFilled()
                if let error = failures[current] { throw error }
                isAtEnd = ring.counts[current] < ring.slots[current].capacity
            }
            let count = min(ring.counts[current] - offset, buffers.frameCount - done)
            if count <= 0 {
                // The input ended: silence from here on.
                for channel in 0..<buffers.channelCount {
                    (buffers.channelPointers[channel] + done).update(repeating: 0, count: buffers.frameCount - done)
                }
                return
            }
            let slot = ring.slots[current].buffers()
            for channel in 0..<buffers.channelCount {
                (buffers.channelPointers[channel] + done).update(from: slot.channelPointers[channel] + offset, count: count)
            }
            offset += count
            done += count
        }
    }

    /// Stops the reader (it finishes the slot it is reading) and waits for it to leave.
    /// - Thread: [control] the job's thread.
    func stop() {
        guard !isStopped else { return }
        isStopped = true
        isStopping.store(true, ordering: .releasing)
        ring?.markFree()
        ring?.waitForWorker()
    }

    /// - Thread: [worker] the reader thread.
    private func readLoop(_ ring: SlotRing) {
        var slot = 0
        while true {
            ring.awaitFree()
            if isStopping.load(ordering: .acquiring) { break }
            let buffers = ring.slots[slot].buffers()
            var count = 0
            do {
                // A read gives fewer frames than asked only at the input's end.
                let frames = input.totalFrames - input.position
                count = min(frames, buffers.frameCount)
                if count > 0 { _ = try input.read(into: ring.slots[slot].buffers(frameCount: count)) }
            } catch {
                failures[slot] = error
            }
            ring.counts[slot] = count
            ring.markFilled()
            if count < buffers.frameCount || failures[slot] != nil { break }
            slot = ring.after(slot)
        }
    }
}
