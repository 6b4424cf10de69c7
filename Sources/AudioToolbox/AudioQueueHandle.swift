import Foundation
import Synchronization
internal import AUCore

// An output AudioQueue: the program's buffers of interleaved linear PCM, played by an output
// device unit (DefaultOutput: AUHOST_DEVICE's device) whose input render callback copies
// them out on the render thread, and a thread of the library's that hands played buffers
// back to the program's callback and calls its property listeners.

/// What the render callback of a queue reads and writes: lock-free rings of buffer
/// addresses in and out, the buffer being played, the volume. Allocated when the queue is
/// made; the render callback neither allocates nor locks.
final class QueueRenderState: @unchecked Sendable {
    /// Buffers the program enqueued, in order (many control producers, the render thread pops).
    let enqueued = SharedProducerRing<UInt>(minimumCapacity: 256)
    /// Buffers played to their end, for the callback thread.
    let played = RealTimeRing<UInt>(minimumCapacity: 256)
    let bytesPerFrame: Int
    let sampleKind: SampleKind
    /// The volume (kAudioQueueParam_Volume) as Float bits.
    let volume = Atomic<UInt32>(Float(1).bitPattern)
    /// Set when a render found no buffer to play (the queue has run dry).
    let ranDry = Atomic<Bool>(false)
    /// Render thread only: the buffer being played and the next byte of it.
    private var current: UnsafeMutablePointer<AudioQueueBuffer>?
    private var offset = 0

    enum SampleKind { case float32, int16, other }

    init(format: AudioStreamBasicDescription) {
        bytesPerFrame = Int(format.mBytesPerFrame)
        let isFloat = format.mFormatFlags & kAudioFormatFlagIsFloat != 0
        sampleKind = isFloat && format.mBitsPerChannel == 32 ? .float32 : !isFloat && format.mBitsPerChannel == 16 ? .int16 : .other
    }

    /// Fills `frames` frames of `data` from the enqueued buffers, silence past them.
    /// - Thread: [render]
    func renderFromQueue(frames: Int, into data: UnsafeMutableRawPointer) {
        var filled = 0
        let wanted = frames * bytesPerFrame
        while filled < wanted {
            if current == nil {
                guard let next = enqueued.pop() else { break }
                current = UnsafeMutablePointer(bitPattern: next)
                offset = 0
            }
            let buffer = current!
            let count = min(Int(buffer.pointee.mAudioDataByteSize) - offset, wanted - filled)
            if count > 0 {
                (data + filled).copyMemory(from: buffer.pointee.mAudioData + offset, byteCount: count)
                filled += count
                offset += count
            }
            if offset >= Int(buffer.pointee.mAudioDataByteSize) {
                _ = played.push(UInt(bitPattern: buffer))
                current = nil
            }
        }
        if filled < wanted {
            (data + filled).initializeMemory(as: UInt8.self, repeating: 0, count: wanted - filled)
            ranDry.store(true, ordering: .releasing)
        }
        applyVolume(data, samples: filled / max(1, bytesPerFrame) * bytesPerFrame / sampleSize)
    }

    private var sampleSize: Int { sampleKind == .int16 ? 2 : 4 }

    /// Scales `samples` samples by the volume (float and 16-bit data).
    /// - Thread: [render]
    private func applyVolume(_ data: UnsafeMutableRawPointer, samples: Int) {
        let gain = Float(bitPattern: volume.load(ordering: .relaxed))
        guard gain != 1 else { return }
        switch sampleKind {
        case .float32:
            let values = data.assumingMemoryBound(to: Float.self)
            for index in 0..<samples { values[index] *= gain }
        case .int16:
            let values = data.assumingMemoryBound(to: Int16.self)
            for index in 0..<samples { values[index] = Int16(max(-32768, min(32767, (Float(values[index]) * gain).rounded()))) }
        case .other: break
        }
    }

    /// Forgets the enqueued buffers and the one being played (only while no render runs).
    func discardQueued() {
        while enqueued.pop() != nil {}
        current = nil
        offset = 0
    }
}

/// An `AudioQueueRef` (output).
final class QueueHandle: @unchecked Sendable {
    static let live = LiveHandles<QueueHandle>()

    let format: AudioStreamBasicDescription
    let callback: AudioQueueOutputCallback
    let userData: UnsafeMutableRawPointer?
    let render: QueueRenderState
    /// The output device unit (a live AudioUnit handle of this library).
    let unit: OpaquePointer
    var buffers: Set<UInt> = []
    private(set) var isRunning = false
    /// Stop when the enqueued buffers have played (AudioQueueStop, not immediate).
    let stopWhenDry = Atomic<Bool>(false)
    /// The IsRunning listeners, read by the callback thread (under `listenerLock`).
    private var listeners: [(proc: AudioQueuePropertyListenerProc, data: UnsafeMutableRawPointer?)] = []
    private let listenerLock = NSLock()
    /// Running-state changes the callback thread has to tell the listeners of.
    let runningChanges = Atomic<Int>(0)
    private let quit = Atomic<Bool>(false)
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    init(format: AudioStreamBasicDescription, callback: AudioQueueOutputCallback, userData: UnsafeMutableRawPointer?, unit: OpaquePointer) {
        self.format = format
        self.callback = callback
        self.userData = userData
        self.unit = unit
        render = QueueRenderState(format: format)
    }

    /// Starts the callback thread (once the handle has its C pointer).
    func startCallbackThread(pointer: OpaquePointer) {
        let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer)))
        let thread = Thread { [self] in
            let pointer = OpaquePointer(bitPattern: address)!
            while !quit.load(ordering: .acquiring) {
                serve(pointer: pointer)
                usleep(2_000)
            }
            finished.signal()
        }
        thread.name = "AudioQueue callbacks"
        self.thread = thread
        thread.start()
    }

    /// One pass of the callback thread: played buffers back to the program, a stop when the
    /// queue ran dry after AudioQueueStop(false), running-state changes to the listeners.
    private func serve(pointer: OpaquePointer) {
        while let address = render.played.pop() {
            callback(userData, pointer, UnsafeMutablePointer(bitPattern: address))
        }
        // Only tried: a control call holding the lock (a disposal waiting for this thread)
        // is never waited for; the next pass tries again.
        if stopWhenDry.load(ordering: .acquiring), render.ranDry.load(ordering: .acquiring), render.enqueued.count == 0, apiLock.try() {
            if stopWhenDry.load(ordering: .acquiring) { setRunning(false) }
            apiLock.unlock()
        }
        let changes = runningChanges.exchange(0, ordering: .acquiringAndReleasing)
        guard changes > 0 else { return }
        listenerLock.lock()
        let current = listeners
        listenerLock.unlock()
        for listener in current { listener.proc(listener.data, pointer, kAudioQueueProperty_IsRunning) }
    }

    /// Adds (or with `remove`, removes) an IsRunning listener.
    func changeListener(_ proc: AudioQueuePropertyListenerProc, _ data: UnsafeMutableRawPointer?, remove: Bool) {
        listenerLock.lock()
        defer { listenerLock.unlock() }
        if remove {
            listeners.removeAll { sameCallback($0.proc, $0.data, proc, data) }
        } else {
            listeners.append((proc, data))
        }
    }

    /// Starts or stops the device (under the API lock).
    func setRunning(_ running: Bool) {
        stopWhenDry.store(false, ordering: .releasing)
        guard running != isRunning else { return }
        if running {
            render.ranDry.store(false, ordering: .releasing)
            guard _AudioOutputUnitStart(unit) == noErr else { return }
        } else {
            _ = _AudioOutputUnitStop(unit)
        }
        isRunning = running
        runningChanges.add(1, ordering: .releasing)
    }

    /// Ends the callback thread and waits for it (up to 5 s).
    func endCallbackThread() {
        quit.store(true, ordering: .releasing)
        _ = finished.wait(timeout: .now() + 5)
    }
}
