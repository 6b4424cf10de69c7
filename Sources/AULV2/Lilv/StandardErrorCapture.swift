import Foundation

/// What a C library prints on standard error while `body` runs, taken instead of printed:
/// lilv 0.24 and serd print their Turtle errors with `fprintf(stderr, …)` and offer no log
/// callback for world loading, so descriptor 2 is pointed at a pipe for the duration of
/// the call and restored afterwards. A thread of its own drains the pipe while the call
/// runs, so a chatty library can never fill it and block. Captures are serialised (one
/// process-wide lock): two worlds loading at once take turns, and descriptor 2 is always
/// restored to the real standard error. Whatever another thread prints during the window is
/// captured too; the caller passes on what it does not recognise.
/// - Thread: [control]
enum StandardErrorCapture {
    private static let lock = NSLock()

    /// Runs `body` with descriptor 2 captured; returns its result and the text printed.
    /// When the pipe cannot be made, `body` runs uncaptured and the text is empty.
    static func capturing<Result>(_ body: () -> Result) -> (result: Result, text: String) {
        lock.lock()
        defer { lock.unlock() }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return (body(), "") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let saved = fcntl(2, F_DUPFD_CLOEXEC, 0)
        guard saved >= 0 else {
            close(ends[0])
            close(ends[1])
            return (body(), "")
        }
        let drain = PipeDrain(descriptor: ends[0])
        let reader = Thread { drain.run() }
        reader.name = "auhost stderr capture"
        reader.start()
        fflush(nil)
        dup2(ends[1], 2)
        close(ends[1])
        let result = body()
        fflush(nil)
        dup2(saved, 2)
        close(saved)
        // The pipe's last write end is closed: the reader reaches end of file, unless a child
        // process another thread started meanwhile inherited descriptor 2; then the reader
        // is left to finish on its own and what it read so far is the text.
        _ = drain.done.wait(timeout: .now() + .seconds(2))
        return (result, drain.text)
    }

    /// Reads a pipe to its end on the capture's reader thread, then closes it.
    private final class PipeDrain: @unchecked Sendable {
        let descriptor: Int32
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var bytes: [UInt8] = []

        init(descriptor: Int32) { self.descriptor = descriptor }

        /// What was read so far.
        var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

        func run() {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    lock.withLock { bytes.append(contentsOf: buffer[0..<count]) }
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(descriptor)
            done.signal()
        }
    }
}
