import AUCore
import AUFiles
import Foundation

/// Reads the input ahead on a reader thread, so that decoding, sample-rate and channel
/// conversion of the next blocks overlap with rendering this one (the input's side of
/// ``OutputPipeline``). Used when a core would otherwise sit idle (``isThreaded``);
/// otherwise every read goes straight to the input on the job's thread.
///
/// The reader fills a few fixed slots of ``OutputPipeline/slotFrames`` frames (allocated in
/// `init`) and is woken once per slot. After the input's end, reads give silence. An error
/// the reader meets is thrown by the read that reaches it.
/// - Thread: ``read(into:)`` and ``stop()`` on the job's thread; the reader thread calls the
///   ``AudioFileInput`` (which is used by one thread at a time).
final class InputPipeline: @unchecked Sendable {
    private let input: AudioFileInput
    /// How many frames the whole input gives (see ``AudioFileInput/totalFrames``).
    var totalFrames: Int { input.totalFrames }
    let isThreaded: Bool
    private let slots: [OwnedAudioBuffers]
    /// Frames of input in each slot; a slot with fewer than its capacity is the last.
    private let counts: UnsafeMutablePointer<Int>
    private let failures: UnsafeMutablePointer<AudioUnitError?>
    /// Semaphores start at zero and are signalled up: libdispatch refuses to free one left
    /// below the value it was made with.
    private let free = DispatchSemaphore(value: 0)
    private let filled = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let stopping = NSLock()
    private var isStopping = false
    /// The slot being read from (-1: none taken yet), and how far.
    private var current = -1
    private var offset = 0
    private var isAtEnd = false
    private var isStopped = false

    /// Starts the reader thread for `input` when `threaded`.
    /// - Thread: control.
    init(input: AudioFileInput, threaded: Bool, slotCount: Int = 4) {
        self.input = input
        isThreaded = threaded
        slots = threaded ? (0..<slotCount).map { _ in OwnedAudioBuffers(channels: input.channels, capacity: OutputPipeline.slotFrames) } : []
        counts = .allocate(capacity: slotCount)
        counts.initialize(repeating: 0, count: slotCount)
        failures = .allocate(capacity: slotCount)
        failures.initialize(repeating: nil, count: slotCount)
        guard threaded else {
            isStopped = true
            return
        }
        for _ in 0..<slotCount { free.signal() }
        let thread = Thread { [self] in readLoop() }
        thread.name = "auhost.render.reader"
        thread.start()
    }

    /// A reader thread holds the pipeline until it reaches the input's end or ``stop()``
    /// ends it: call ``stop()`` when done.
    deinit {
        counts.deallocate()
        failures.deinitialize(count: slots.count)
        failures.deallocate()
    }

    /// Fills `buffers` with the next frames of input (silence after its end).
    /// - Thread: the job's.
    func read(into buffers: AudioBuffers) throws(AudioUnitError) {
        guard isThreaded else {
            _ = try input.read(into: buffers)
            return
        }
        var done = 0
        while done < buffers.frameCount {
            if current < 0 || (offset == counts[current] && !isAtEnd) {
                if current >= 0 { free.signal() }
                current = (current + 1) % slots.count
                offset = 0
                filled.wait()
                if let error = failures[current] { throw error }
                isAtEnd = counts[current] < slots[current].capacity
            }
            let count = min(counts[current] - offset, buffers.frameCount - done)
            if count <= 0 {
                // The input ended: silence from here on.
                for channel in 0..<buffers.channelCount {
                    (buffers.channelPointers[channel] + done).update(repeating: 0, count: buffers.frameCount - done)
                }
                return
            }
            let slot = slots[current].buffers()
            for channel in 0..<buffers.channelCount {
                (buffers.channelPointers[channel] + done).update(from: slot.channelPointers[channel] + offset, count: count)
            }
            offset += count
            done += count
        }
    }

    /// Stops the reader (it finishes the slot it is reading) and waits for it to leave.
    /// - Thread: the job's.
    func stop() {
        guard !isStopped else { return }
        isStopped = true
        stopping.lock()
        isStopping = true
        stopping.unlock()
        free.signal()
        finished.wait()
    }

    private var shouldStop: Bool {
        stopping.lock()
        defer { stopping.unlock() }
        return isStopping
    }

    /// - Thread: the reader thread.
    private func readLoop() {
        var slot = 0
        while true {
            free.wait()
            if shouldStop { break }
            let buffers = slots[slot].buffers()
            var count = 0
            do {
                // A read gives fewer frames than asked only at the input's end.
                let frames = input.totalFrames - input.position
                count = min(frames, buffers.frameCount)
                if count > 0 { _ = try input.read(into: slots[slot].buffers(frameCount: count)) }
            } catch {
                failures[slot] = error
            }
            counts[slot] = count
            filled.signal()
            if count < buffers.frameCount || failures[slot] != nil { break }
            slot = (slot + 1) % slots.count
        }
        finished.signal()
    }
}
