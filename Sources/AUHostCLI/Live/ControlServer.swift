import AUHost
import Foundation
import Glibc

/// Serves the control protocol on 127.0.0.1 only: one line in, one reply line out, for
/// any number of clients, each on its own thread. The handler is called for one line at a
/// time (the server serialises them), so it may touch the session without more locking.
/// - Thread: control (start and stop); the accept and client threads are the server's own.
public final class ControlServer: @unchecked Sendable {
    public let port: UInt16
    private let listener: Int32
    private let handler: @Sendable (String) -> (reply: String, closes: Bool)
    private let serial = NSLock()
    private var isStopped = false

    /// Listens on 127.0.0.1:`port` (0 picks a free port; see ``port``).
    public init(port: UInt16, handler: @escaping @Sendable (String) -> (reply: String, closes: Bool)) throws(ControlCommandError) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
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
        guard bound == 0, listen(socket, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw ControlCommandError("cannot listen on 127.0.0.1:\(port): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        self.port = UInt16(bigEndian: actual.sin_port)
        listener = socket
        self.handler = handler
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "auhost control"
        thread.start()
    }

    /// Stops accepting clients.
    public func stop() {
        serial.lock()
        defer { serial.unlock() }
        guard !isStopped else { return }
        isStopped = true
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let thread = Thread { [self] in serve(client) }
            thread.name = "auhost control client"
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var pending = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(client, &buffer, buffer.count)
            if count <= 0 { return }
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                pending.removeSubrange(pending.startIndex...newline)
                if line.isEmpty { continue }
                serial.lock()
                let (reply, closes) = isStopped ? ("error: the server is stopping", true) : handler(line)
                serial.unlock()
                let bytes = Array((reply + "\n").utf8)
                // MSG_NOSIGNAL: a client that left makes the send fail, not the process die.
                let sent = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent < bytes.count || closes { return }
            }
        }
    }
}
