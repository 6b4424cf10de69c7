import CAUJack
import CJack
import Synchronization

/// What JACK's own threads tell the client: xruns, a server shutdown, buffer-size and
/// sample-rate changes. Written from JACK's notification threads, read anywhere.
/// - Thread: [any]; the callbacks run on JACK's threads and only touch atomics, except the
///   shutdown reason, which is copied under a mutex (JACK's shutdown thread is not real-time).
final class JACKEvents: @unchecked Sendable {
    private let xrunCount = Atomic<Int>(0)
    private let gone = Atomic<Bool>(false)
    private let reason = Mutex<String?>(nil)
    /// Bumped whenever the buffer size or sample rate changes.
    private let configurationGeneration = Atomic<Int>(0)
    /// Bumped whenever a port appears on the server.
    private let portRegistrations = Atomic<Int>(0)

    var xruns: Int { xrunCount.load(ordering: .relaxed) }
    var serverIsGone: Bool { gone.load(ordering: .acquiring) }
    var shutdownReason: String? { reason.withLock { $0 } }
    var generation: Int { configurationGeneration.load(ordering: .acquiring) }
    var portGeneration: Int { portRegistrations.load(ordering: .acquiring) }

    func install(on client: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        jack_set_xrun_callback(client, { context in
            Unmanaged<JACKEvents>.fromOpaque(context!).takeUnretainedValue().xrunCount.add(1, ordering: .relaxed)
            return 0
        }, context)
        jack_on_info_shutdown(client, { _, message, context in
            let events = Unmanaged<JACKEvents>.fromOpaque(context!).takeUnretainedValue()
            let text = message.map { String(cString: $0) } ?? "the server shut down"
            events.reason.withLock { $0 = text }
            events.gone.store(true, ordering: .releasing)
        }, context)
        jack_set_buffer_size_callback(client, { _, context in
            Unmanaged<JACKEvents>.fromOpaque(context!).takeUnretainedValue().configurationGeneration.add(1, ordering: .releasing)
            return 0
        }, context)
        jack_set_port_registration_callback(client, { _, registered, context in
            if registered != 0 { Unmanaged<JACKEvents>.fromOpaque(context!).takeUnretainedValue().portRegistrations.add(1, ordering: .releasing) }
        }, context)
        jack_set_sample_rate_callback(client, { _, context in
            Unmanaged<JACKEvents>.fromOpaque(context!).takeUnretainedValue().configurationGeneration.add(1, ordering: .releasing)
            return 0
        }, context)
    }
}
