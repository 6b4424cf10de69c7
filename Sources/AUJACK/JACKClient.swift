import AUCore
import Glibc
import CAUJack
import CJack
import Synchronization

/// A connection to a JACK server (`jack_client_t`), owned: closing happens in `deinit` at
/// the latest. Registers ports, connects them, reports server events.
/// - Thread: [control], except where a member says otherwise.
public final class JACKClient: @unchecked Sendable {
    /// The `jack_client_t`, for the process thread's state and the package's test clients.
    package let handle: OpaquePointer
    /// The name JACK gave the client (it may differ from the one asked for).
    public let name: String
    /// The server asked for; nil: the default server.
    public let serverName: String?
    private var isClosed = false
    /// Server events, written by JACK's threads, read anywhere.
    let events = JACKEvents()
    /// What the timebase callback reads while the client is timebase master.
    var timebaseTimeline: TransportTimeline?

    /// Opens a client; never starts a server. Fails with a message naming the server and
    /// the reason (not running, name taken…).
    /// - Thread: [control]
    public init(name: String, serverName: String? = nil) throws(JACKError) {
        au_jack_silence_library_messages()
        var status = jack_status_t(rawValue: 0)
        let client: OpaquePointer? = name.withCString { clientName in
            if let serverName {
                return serverName.withCString { au_jack_client_open(clientName, $0, &status) }
            }
            return au_jack_client_open(clientName, nil, &status)
        }
        guard let client else { throw .open(client: name, server: serverName, status: status) }
        handle = client
        self.name = String(cString: jack_get_client_name(client))
        self.serverName = serverName
        events.install(on: client)
    }

    deinit { close() }

    /// Deactivates and closes the client; ports are unregistered by JACK. Idempotent.
    /// - Thread: [control]
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        deactivate()
        jack_client_close(handle)
    }

    /// The server's sample rate in Hz.
    /// - Thread: [control]
    public var sampleRate: Double { Double(jack_get_sample_rate(handle)) }
    /// The server's current period in frames.
    /// - Thread: [control]
    public var bufferSize: Int { Int(jack_get_buffer_size(handle)) }
    /// The server's DSP load in percent.
    /// - Thread: [control]
    public var cpuLoad: Double { Double(jack_cpu_load(handle)) }
    /// Whether the server runs with real-time scheduling.
    /// - Thread: [control]
    public var isRealTime: Bool { jack_is_realtime(handle) != 0 }

    /// The priority of the client's real-time process thread; nil when the server does not
    /// run real-time.
    /// - Thread: [control]
    public var realTimePriority: Int32? { isRealTime ? jack_client_real_time_priority(handle) : nil }

    /// Registers a port `NAME` on this client: a capture port (JACK writes it, the client
    /// reads it) or a playback port (the client writes it, JACK reads it).
    /// - Thread: [control]
    public func registerPort(_ portName: String, kind: JACKPort.Kind, direction: JACKPort.Direction) throws(JACKError) -> JACKPort {
        let flags = direction == .capture ? JackPortIsInput.rawValue : JackPortIsOutput.rawValue
        guard let port = jack_port_register(handle, portName, Self.typeName(kind), UInt(flags), 0) else {
            throw JACKError("cannot register \(kind) \(direction) port '\(name):\(portName)'")
        }
        return JACKPort(handle: port, kind: kind, direction: direction, fullName: String(cString: jack_port_name(port)))
    }

    /// Unregisters a port of this client.
    /// - Thread: [control]
    public func unregisterPort(_ port: JACKPort) {
        if !events.serverIsGone { jack_port_unregister(handle, port.handle) }
    }

    /// Starts calling the process callback.
    /// - Thread: [control]
    public func activate() throws(JACKError) {
        guard jack_activate(handle) == 0 else { throw JACKError("cannot activate JACK client '\(name)'") }
        isActivated = true
    }

    /// Stops calling the process callback (ports stay registered); when it returns, the
    /// process callback runs no more.
    /// - Thread: [control]
    public func deactivate() {
        if !events.serverIsGone { jack_deactivate(handle) }
        isActivated = false
    }

    /// Whether JACK calls the process callback: between ``activate()`` and ``deactivate()``
    /// or ``close()``, while the server is there.
    /// - Thread: [control]
    public var isActive: Bool { isActivated && !events.serverIsGone }
    private var isActivated = false

    /// Connects two ports by full name (`client:port`), output first.
    /// - Thread: [control]
    public func connect(_ source: String, to destination: String) throws(JACKError) {
        let result = jack_connect(handle, source, destination)
        guard result == 0 || result == Int32(EEXIST) else {
            throw JACKError("cannot connect JACK port '\(source)' to '\(destination)'")
        }
    }

    /// Full names of the ports that send (JACK output ports: what a capture port is
    /// connected from) matching a regular expression over full names and a kind.
    /// - Thread: [control]
    public func sources(matching pattern: String? = nil, kind: JACKPort.Kind, physicalOnly: Bool = false) -> [String] {
        ports(matching: pattern, kind: kind, flags: JackPortIsOutput.rawValue, physicalOnly: physicalOnly)
    }

    /// Full names of the ports that receive (JACK input ports: what a playback port is
    /// connected to) matching a regular expression over full names and a kind.
    /// - Thread: [control]
    public func destinations(matching pattern: String? = nil, kind: JACKPort.Kind, physicalOnly: Bool = false) -> [String] {
        ports(matching: pattern, kind: kind, flags: JackPortIsInput.rawValue, physicalOnly: physicalOnly)
    }

    /// Full names of the ports connected to the port named `portName` (any client's), in
    /// the server's order; empty for a port without connections or that does not exist.
    /// - Thread: [control]
    public func connections(of portName: String) -> [String] {
        guard let port = jack_port_by_name(handle, portName) else { return [] }
        return Self.names(jack_port_get_all_connections(handle, port))
    }

    private func ports(matching pattern: String?, kind: JACKPort.Kind, flags: UInt32, physicalOnly: Bool) -> [String] {
        let flags = physicalOnly ? flags | JackPortIsPhysical.rawValue : flags
        return Self.names(jack_get_ports(handle, pattern, Self.typeName(kind), UInt(flags)))
    }

    /// The names of a list JACK returned (NULL-terminated), which it frees.
    private static func names(_ list: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> [String] {
        guard let list else { return [] }
        defer { jack_free(UnsafeMutableRawPointer(mutating: list)) }
        var names: [String] = []
        var index = 0
        while let entry = list[index] {
            names.append(String(cString: entry))
            index += 1
        }
        return names
    }

    private static func typeName(_ kind: JACKPort.Kind) -> UnsafePointer<CChar> {
        kind == .audio ? au_jack_audio_type()! : au_jack_midi_type()!
    }

    /// Asks the server to change its period (every client follows).
    /// - Thread: [control]
    public func setBufferSize(_ frames: Int) throws(JACKError) {
        guard jack_set_buffer_size(handle, UInt32(frames)) == 0 else {
            throw JACKError("the JACK server refused a period of \(frames) frames")
        }
    }


    /// The number of xruns the server reported since the client opened.
    /// - Thread: [control]
    public var xrunCount: Int { events.xruns }
    /// True once the server has shut down or thrown the client out.
    /// - Thread: [control]
    public var serverIsGone: Bool { events.serverIsGone }

    /// Bumped each time a port appears on the server (anyone's): a reason to look for new
    /// ports to connect.
    /// - Thread: [any]
    public var portRegistrationGeneration: Int { events.portGeneration }
    /// JACK's reason for the shutdown, once it happened.
    /// - Thread: [control]
    public var shutdownReason: String? { events.shutdownReason }
}
