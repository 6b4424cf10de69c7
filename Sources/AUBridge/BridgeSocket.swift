import Foundation
import Glibc

/// One end of the stream socket between the host and a unit-host child: JSON lines out,
/// JSON lines in, each read waiting at most a deadline (a child that hangs while it
/// instantiates is a timeout, not a hung host).
/// - Thread: [control] (one thread at a time: the owner serializes its requests).
final class BridgeSocket: @unchecked Sendable {
    let descriptor: Int32
    private var pending: [UInt8] = []

    init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    /// Writes `message` as one line; false when the other end is gone.
    func send<Message: Encodable>(_ message: Message) -> Bool {
        guard var bytes = try? JSONEncoder().encode(message) else { return false }
        bytes.append(0x0A)
        return bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// What reading a line came to.
    enum Received<Message> {
        case message(Message)
        /// The other end closed the socket (it exited or died).
        case closed
        case timedOut
        /// A line that is no such message.
        case garbled
    }

    /// The next line as a `Message`, waiting at most `timeout` seconds (nil: no limit);
    /// `isGone` is asked every 50 ms (a child that died while a fork of its keeps the socket open).
    func receive<Message: Decodable>(_ type: Message.Type, timeout: Double?, isGone: () -> Bool = { false }) -> Received<Message> {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = Data(pending[..<newline])
                pending.removeSubrange(...newline)
                guard let message = try? JSONDecoder().decode(Message.self, from: line) else { return .garbled }
                return .message(message)
            }
            var waitMilliseconds: Int32 = 50
            if let deadline {
                let left = deadline.timeIntervalSinceNow
                if left <= 0 { return .timedOut }
                waitMilliseconds = Int32(min(left * 1000 + 1, 50))
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, waitMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 {
                if isGone() { return .closed }
                continue
            }
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return .closed }
            pending += chunk[..<count]
        }
    }
}
