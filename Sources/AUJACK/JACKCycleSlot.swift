import AUCore
import CJack
import Synchronization

/// Where the control thread hands a ``JACKCycle`` to JACK's threads, and what passes
/// between them while it runs: the published cycle (a ``RenderSlot``), mute and fade
/// requests in, counts out. It is the context of the process and latency callbacks.
/// - Thread: [any]; the process thread only loads and adds atomics.
final class JACKCycleSlot: @unchecked Sendable {
    /// The published cycle.
    private let current = RenderSlot<JACKCycle>()
    let muted = Atomic<Bool>(false)
    let fadeRequested = Atomic<Bool>(false)
    let fadeDone = Atomic<Bool>(false)
    /// The latency the ports report, in frames.
    let latency = Atomic<Int>(0)
    let renderErrors = Atomic<Int>(0)
    /// MIDI output events the port had no room for.
    let droppedMIDIOutput = Atomic<Int>(0)
    let cycles = Atomic<Int>(0)

    /// Publishes `cycle` (nil: none) and returns the one it replaces, for the caller to
    /// free once the process callback can no longer run it (after deactivation).
    /// - Thread: [control]
    func publish(_ cycle: UnsafeMutablePointer<JACKCycle>?) -> UnsafeMutablePointer<JACKCycle>? {
        current.exchange(pointer: cycle)
    }

    /// Makes JACK call the published cycle every period, and for latency.
    /// - Thread: [control], before activation.
    func install(on client: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        // The process thread does nothing but render: denormals stay flushed on it, and
        // strict mode (AUHOST_STRICT_RENDER=1) watches its system calls. JACK calls this on
        // its notification thread too, which must not be watched (it reads and writes
        // sockets, and threads it starts would inherit the filter).
        jack_set_thread_init_callback(client, { client in
            guard let client, pthread_equal(jack_client_thread_id(OpaquePointer(client)), pthread_self()) != 0 else { return }
            RenderThread.flushDenormalsForThisThread()
            if StrictRenderCheck.isRequested { StrictRenderCheck.watchThisThread() }
        }, UnsafeMutableRawPointer(client))
        jack_set_process_callback(client, { frames, context in
            let slot = Unmanaged<JACKCycleSlot>.fromOpaque(context!)
            guard let cycle = slot._withUnsafeGuaranteedRef({ $0.current.pointer }) else { return 0 }
            return cycle.pointee.run(frames: frames)
        }, context)
        jack_set_latency_callback(client, { mode, context in
            let slot = Unmanaged<JACKCycleSlot>.fromOpaque(context!)
            slot._withUnsafeGuaranteedRef { $0.current.pointer }?.pointee.reportLatency(mode: mode)
        }, context)
    }
}
