import AUCore
import AUJACK
import CJack
import Synchronization

/// A test's own JACK client (a tester, a player, a keyboard): `capture` and `playback`
/// ports and a render function called every period with their buffers. It stands for the
/// other clients of a JACK server; what auhost runs is ``JACKIOUnit``.
/// - Thread: control, but the render function (JACK's process thread).
public final class JACKTestClient: @unchecked Sendable {
    /// The period's frame count, the capture ports' samples and the playback ports' buffers.
    public typealias Render = @Sendable (_ frames: Int, _ capture: AudioBuffers, _ playback: AudioBuffers) -> Void

    /// The connection to the server.
    public let client: JACKClient
    /// `in_N`.
    public let capturePorts: [JACKPort]
    /// `out_N`.
    public let playbackPorts: [JACKPort]
    private let render: Render
    private let captureHandles: UnsafeMutableBufferPointer<OpaquePointer>
    private let playbackHandles: UnsafeMutableBufferPointer<OpaquePointer>
    private let captureBuffers: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    private let playbackBuffers: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    private let cycles = Atomic<Int>(0)
    private var isRunning = false

    /// Opens a client named `name` and registers its ports.
    public convenience init(name: String, serverName: String?, captureChannels: Int, playbackChannels: Int, render: @escaping Render) throws {
        try self.init(client: JACKClient(name: name, serverName: serverName), captureChannels: captureChannels, playbackChannels: playbackChannels, render: render)
    }

    /// Registers `in_N` and `out_N` on a client already open (which may have more ports).
    public init(client: JACKClient, captureChannels: Int, playbackChannels: Int, render: @escaping Render) throws {
        self.client = client
        self.render = render
        capturePorts = try (0..<captureChannels).map { try client.registerPort("in_\($0 + 1)", kind: .audio, direction: .capture) }
        playbackPorts = try (0..<playbackChannels).map { try client.registerPort("out_\($0 + 1)", kind: .audio, direction: .playback) }
        captureHandles = .allocate(capacity: captureChannels)
        _ = captureHandles.initialize(from: capturePorts.map(\.handle))
        playbackHandles = .allocate(capacity: playbackChannels)
        _ = playbackHandles.initialize(from: playbackPorts.map(\.handle))
        let placeholder = UnsafeMutablePointer<Float>(bitPattern: 0x10)!
        captureBuffers = .allocate(capacity: captureChannels)
        captureBuffers.initialize(repeating: placeholder)
        playbackBuffers = .allocate(capacity: playbackChannels)
        playbackBuffers.initialize(repeating: placeholder)
        jack_set_process_callback(client.handle, { frames, context in
            Unmanaged<JACKTestClient>.fromOpaque(context!).takeUnretainedValue().cycle(frames: frames)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        stop()
        client.close()
        captureHandles.deallocate()
        playbackHandles.deallocate()
        captureBuffers.deallocate()
        playbackBuffers.deallocate()
    }

    /// Periods run so far.
    public var cycleCount: Int { cycles.load(ordering: .relaxed) }

    /// Activates the client.
    public func start() throws {
        try client.activate()
        isRunning = true
    }

    /// Deactivates the client.
    public func stop() {
        guard isRunning else { return }
        isRunning = false
        client.deactivate()
    }

    /// One period.
    /// - Thread: render.
    private func cycle(frames: jack_nframes_t) {
        for index in 0..<captureHandles.count {
            captureBuffers[index] = jack_port_get_buffer(captureHandles[index], frames)!.assumingMemoryBound(to: Float.self)
        }
        for index in 0..<playbackHandles.count {
            playbackBuffers[index] = jack_port_get_buffer(playbackHandles[index], frames)!.assumingMemoryBound(to: Float.self)
        }
        cycles.add(1, ordering: .relaxed)
        let count = Int(frames)
        render(count, AudioBuffers(channelPointers: captureBuffers, frameCount: count), AudioBuffers(channelPointers: playbackBuffers, frameCount: count))
    }
}
