import AUHost
import Foundation
import Glibc

/// The control commands over OSC (Open Sound Control) on UDP, 127.0.0.1 only, for control
/// surfaces and TouchOSC-style apps: a message `/VERB` (or `/auhost/VERB`) whose arguments
/// (strings, 32-bit ints and floats) are the command's words is the control line `VERB
/// WORDS…`; its reply line comes back to the sender as `/reply` with one string. `save`
/// and `quit` are refused (an OSC sender has no token: it may move the chain, not write
/// files or end the run).
/// - Thread: [control] (start and stop); the receive thread is the server's own.
final class OSCServer: @unchecked Sendable {
    /// The UDP port bound (the one the system chose when asked for 0).
    let port: UInt16
    private let socket: Int32
    private let handler: @Sendable (String) -> String
    private let stopped = DispatchSemaphore(value: 0)

    /// Binds 127.0.0.1:`port` and serves `handler` (a control line in, its reply out).
    init(port: UInt16, handler: @escaping @Sendable (String) -> String) throws(ControlCommandError) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw ControlCommandError("cannot create a UDP socket: \(String(cString: strerror(errno)))") }
        var address = Self.loopback(port)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw ControlCommandError("cannot listen for OSC on 127.0.0.1:\(port): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
        self.port = UInt16(bigEndian: actual.sin_port)
        self.socket = socket
        self.handler = handler
        let thread = Thread { [self] in receiveLoop() }
        thread.name = "auhost osc"
        thread.start()
    }

    /// Stops receiving and waits for the receive thread to end.
    func stop() {
        shutdown(socket, Int32(SHUT_RDWR))
        stopped.wait()
        close(socket)
    }

    private func receiveLoop() {
        defer { stopped.signal() }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            var sender = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let count = withUnsafeMutablePointer(to: &sender) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(socket, &buffer, buffer.count, 0, $0, &length) }
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            let reply: String
            switch OSCMessage.parse(Array(buffer[..<count])) {
            case .failure(let problem): reply = "error: \(problem.message)"
            case .success(let message): reply = answer(message)
            }
            let packet = OSCMessage(address: "/reply", arguments: [.string(reply)]).encoded
            _ = withUnsafePointer(to: &sender) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(socket, packet, packet.count, Int32(MSG_DONTWAIT), $0, length) }
            }
        }
    }

    /// The reply to one message: its control line's, or why it is refused.
    private func answer(_ message: OSCMessage) -> String {
        var verb = message.address
        if verb.hasPrefix("/auhost/") { verb.removeFirst("/auhost".count) }
        guard verb.hasPrefix("/"), verb.count > 1, !verb.dropFirst().contains("/") else {
            return "error: OSC address '\(message.address)' is not /VERB or /auhost/VERB"
        }
        verb.removeFirst()
        guard !["save", "quit", "exit"].contains(verb.lowercased()) else { return "error: \(verb) is refused over OSC; use standard input or the control port" }
        let words = message.arguments.map { argument -> String in
            switch argument {
            case .string(let text): ControlWords.quoted(text)
            case .int(let value): String(value)
            case .float(let value): formatNumber(value)
            }
        }
        return handler(([verb] + words).joined(separator: " "))
    }

    private static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
