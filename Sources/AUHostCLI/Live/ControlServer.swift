import AUHost
import Foundation
import Glibc

/// Serves the control protocol on 127.0.0.1 only: one line in, one reply line out.
///
/// A client's first line must be `auth TOKEN` (``ControlToken``, printed on standard error
/// by `auhost run`); without it, or with a wrong token, or without that line complete
/// within ``authenticationSeconds`` of connecting (a deadline: sending a byte now and then
/// does not extend it), the client gets one error line and is closed. At most
/// ``maximumClients`` clients at a time, each on its own thread; one more gets one error
/// line and is closed. A line longer than 64 KiB (``ControlConnection/maximumLineLength``)
/// gets an error and closes its connection. The handler is called for one line at a time
/// (the server serialises them), so it may touch the session without more locking.
/// - Thread: [control] (start and stop); the accept and client threads are the server's own.
public final class ControlServer: @unchecked Sendable {
    /// The port listened on (the one the system chose when asked for 0).
    public let port: UInt16
    /// Clients served at once.
    public static let maximumClients = 8
    /// Seconds a new client has to send its `auth` line.
    public static let authenticationSeconds = 10
    private let listener: Int32
    /// `stop()` writes to `wake[1]`; the accept loop polls `wake[0]` beside the listener.
    private let wake: [Int32]
    private let token: ControlToken
    private let handler: @Sendable (String) -> (reply: String, closes: Bool)
    private let serial = NSLock()
    private let clients = NSLock()
    private var clientCount = 0
    private var isStopped = false
    private let acceptLoopEnded = DispatchSemaphore(value: 0)
    /// The clients' subscriptions (`subscribe`), pushed to by ``publish(_:at:_:)``.
    let subscriptions = ControlSubscriptions()

    /// Listens on 127.0.0.1:`port` (0 picks a free port; see ``port``) for clients that
    /// know `token`.
    /// - Thread: [control]
    public init(port: UInt16, token: ControlToken, handler: @escaping @Sendable (String) -> (reply: String, closes: Bool)) throws(ControlCommandError) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw ControlCommandError("cannot create a socket: \(String(cString: strerror(errno)))") }
        var reuse: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var wake: [Int32] = [-1, -1]
        guard bound == 0, listen(socket, 8) == 0, pipe(&wake) == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw ControlCommandError("cannot listen on 127.0.0.1:\(port): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        for descriptor in wake { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        self.port = UInt16(bigEndian: actual.sin_port)
        listener = socket
        self.wake = wake
        self.token = token
        self.handler = handler
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "auhost control"
        thread.start()
    }

    /// Stops accepting clients and waits for the accept loop to close the listening socket
    /// (the loop polls a wake-up pipe beside it, so no thread is left inside accept() on a
    /// closed descriptor). Clients already connected get an error for their next line.
    /// - Thread: [control]
    public func stop() {
        serial.lock()
        let wasStopped = isStopped
        isStopped = true
        serial.unlock()
        guard !wasStopped else { return }
        var byte: UInt8 = 0
        _ = write(wake[1], &byte, 1)
        acceptLoopEnded.wait()
        close(wake[1])
    }

    deinit { stop() }

    /// Pushes a `topic` line to the clients due one at `now` (seconds on a steady clock);
    /// `make` builds it only when one is. Never waits for a client.
    /// - Thread: [control]
    func publish(_ topic: ControlSubscriptions.Topic, at now: Double, _ make: () -> String) {
        guard subscriptions.isDue(topic, at: now) else { return }
        subscriptions.push(topic, make(), at: now)
    }

    private func acceptLoop() {
        defer {
            close(listener)
            close(wake[0])
            acceptLoopEnded.signal()
        }
        var descriptors = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if descriptors[1].revents != 0 { return }
            guard descriptors[0].revents != 0 else { continue }
            let client = accept(listener, nil, nil)
            if client < 0 { continue }  // the client left before it was accepted, or EINTR
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let connection = ControlConnection(socket: client)
            guard admit() else {
                connection.send("error: too many control clients (\(Self.maximumClients)); try again later")
                connection.close()
                continue
            }
            let thread = Thread { [self] in
                let served = serve(connection)
                subscriptions.remove(connection)
                if served { connection.close() } else { connection.closeAfterRefusal() }
                clients.withLock { clientCount -= 1 }
            }
            thread.name = "auhost control client"
            thread.start()
        }
    }

    /// Counts a new client in, unless ``maximumClients`` are connected.
    private func admit() -> Bool {
        clients.withLock {
            guard clientCount < Self.maximumClients else { return false }
            clientCount += 1
            return true
        }
    }

    /// Serves one client until it leaves or quits, or is refused (no token, a line too
    /// long); false when it was refused
    /// (the connection is then closed after draining, see ``ControlConnection/closeAfterRefusal()``).
    private func serve(_ connection: ControlConnection) -> Bool {
        connection.endInput(at: .now + .seconds(Self.authenticationSeconds))
        guard case .line(let first) = connection.nextLine() else {
            guard connection.passedDeadline else { return true }
            connection.send("error: no 'auth TOKEN' line within \(Self.authenticationSeconds) s; closing the connection")
            return false
        }
        let words = first.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 2, words[0] == "auth" else {
            connection.send("error: authenticate first: the first line must be 'auth TOKEN' with the token auhost printed on standard error; closing the connection")
            return false
        }
        guard token.matches(String(words[1])) else {
            connection.send("error: wrong token; closing the connection")
            return false
        }
        connection.endInput(at: nil)
        guard connection.send("ok authenticated") else { return true }
        while true {
            switch connection.nextLine() {
            case .end:
                return true
            case .tooLong:
                connection.send("error: a line longer than \(ControlConnection.maximumLineLength) bytes; closing the connection")
                return false
            case .line(let line):
                if let reply = subscriptions.reply(to: line, from: connection) {
                    guard connection.send(reply) else { return true }
                    continue
                }
                serial.lock()
                let (reply, closes) = isStopped ? ("error: the server is stopping", true) : handler(line)
                serial.unlock()
                guard connection.send(reply), !closes else { return true }
            }
        }
    }
}
