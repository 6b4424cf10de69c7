import Foundation
import Glibc

/// One client of the control port: reads lines of at most ``maximumLineLength`` bytes and
/// sends reply lines. A send never raises SIGPIPE (`MSG_NOSIGNAL`): a client that left
/// makes it fail, and the connection ends.
/// - Thread: [control] the client's own thread of ``ControlServer``; ``push(_:)`` from the
///   thread that publishes subscriptions (the two never interleave a line).
final class ControlConnection: @unchecked Sendable {
    /// The longest line a client may send, newline excluded: 64 KiB.
    static let maximumLineLength = 65_536

    enum Input: Equatable {
        case line(String)
        /// A line longer than ``maximumLineLength``.
        case tooLong
        /// The client closed its side, or the connection failed or timed out.
        case end
    }

    private let socket: Int32
    private var pending: [UInt8] = []
    /// How far `pending` is known to hold no newline.
    private var scanned = 0
    private var isAtEnd = false
    /// When the input ends whatever the client sends (``endInput(at:)``); nil: never.
    private var deadline: ContinuousClock.Instant?

    /// Takes over `socket` (closed by ``close()``).
    init(socket: Int32) { self.socket = socket }

    /// The next line without its newline (a last line without one included), trimmed.
    func nextLine() -> Input {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending[scanned...].firstIndex(of: 0x0A) {
                if newline > Self.maximumLineLength { return .tooLong }
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                scanned = 0
                return .line(line.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            scanned = pending.count
            if pending.count > Self.maximumLineLength { return .tooLong }
            if isAtEnd {
                guard !pending.isEmpty else { return .end }
                defer {
                    pending.removeAll()
                    scanned = 0
                }
                return .line(String(decoding: pending, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
            }
            if let deadline {
                // Each read waits at most until the deadline: a byte now and then does not
                // move it, as it would move a per-read timeout.
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else {
                    isAtEnd = true
                    pending.removeAll()
                    scanned = 0
                    continue
                }
                let micros = max(1, left.components.seconds * 1_000_000 + left.components.attoseconds / 1_000_000_000_000)
                var timeout = timeval(tv_sec: Int(micros / 1_000_000), tv_usec: Int(micros % 1_000_000))
                setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            }
            let count = read(socket, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            if count <= 0 {
                isAtEnd = true
                if count < 0 {  // a failed or timed-out read is no line
                    pending.removeAll()
                    scanned = 0
                }
                continue
            }
            pending += buffer[..<count]
        }
    }

    /// Pushed lines not yet taken by the socket (a subscriber that reads slowly), and the lock
    /// that keeps a reply and a pushed line from interleaving.
    private var unsent: [UInt8] = []
    private let sending = NSLock()

    /// Sends `reply` and a newline, after what a push left unsent; false when the client is gone.
    @discardableResult
    func send(_ reply: String) -> Bool {
        sending.lock()
        defer { sending.unlock() }
        let bytes = unsent + Array((reply + "\n").utf8)
        unsent = []
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    /// Pushes `line` and a newline without ever waiting: what the socket does not take now
    /// stays for the next push (or reply), and while anything stays, new lines are dropped
    /// whole. False when the line was dropped (the subscriber is busy replying or reads
    /// too slowly) or the client is gone.
    func push(_ line: String) -> Bool {
        guard sending.try() else { return false }
        defer { sending.unlock() }
        if !unsent.isEmpty {
            flushUnsent()
            return false
        }
        unsent = Array((line + "\n").utf8)
        flushUnsent()
        return true
    }

    /// Sends what it can of ``unsent`` without blocking.
    private func flushUnsent() {
        while !unsent.isEmpty {
            let count = unsent.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return }
            unsent.removeFirst(count)
        }
    }

    /// Keeps the socket's send buffer small (`bytes`), so that a subscriber that stops
    /// reading holds little and its pushes are dropped soon.
    func limitSendBuffer(to bytes: Int32) {
        var size = bytes
        setsockopt(socket, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Limits each read to `seconds` (0: no limit); a read that times out ends the input.
    func limitReads(to seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Ends the input at `deadline` (nil: no deadline, and no limit on each read): a line
    /// not complete by then is no line.
    func endInput(at deadline: ContinuousClock.Instant?) {
        self.deadline = deadline
        if deadline == nil { limitReads(to: 0) }
    }

    /// Whether the input ended at its deadline.
    var passedDeadline: Bool { deadline.map { ContinuousClock.now >= $0 } ?? false }

    /// Closes the connection.
    func close() { _ = Glibc.close(socket) }

    /// Closes the connection after an error reply without losing the reply: stops sending,
    /// drops what the client still sends (at most 1 MiB, for at most 2 s), then closes. A
    /// socket closed with unread input resets the connection, and a reset can discard the
    /// reply before the client reads it.
    func closeAfterRefusal() {
        shutdown(socket, Int32(SHUT_WR))
        limitReads(to: 1)
        let deadline = Date().addingTimeInterval(2)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var dropped = 0
        while dropped < 1 << 20, Date() < deadline {
            let count = read(socket, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            dropped += count
        }
        close()
    }
}
