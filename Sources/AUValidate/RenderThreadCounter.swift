import Glibc

/// The AllocCounter shim (`libAllocCounter.so`, Sources/CAllocCounter) seen from a process
/// it was preloaded into: it counts, on a thread between `alloc_counter_begin` and
/// `alloc_counter_end`, the allocations, frees, Swift retains and releases, locks and
/// system calls made. `auhost validate` preloads it into its test children when it is
/// installed beside `auhost`.
/// - Thread: [any] (the shim counts per thread).
public struct RenderThreadCounter: Sendable {
    /// The counts, in the layout of `alloc_counter_counts`.
    struct Counts {
        var mallocs: UInt64 = 0, callocs: UInt64 = 0, reallocs: UInt64 = 0, frees: UInt64 = 0
        var retains: UInt64 = 0, releases: UInt64 = 0, locks: UInt64 = 0, syscalls: UInt64 = 0

        var allocations: UInt64 { mallocs + callocs + reallocs + frees }
    }

    /// The shim's file name.
    public static let libraryName = "libAllocCounter.so"

    private typealias Call = @convention(c) () -> Void
    private typealias Read = @convention(c) (UnsafeMutableRawPointer) -> Void
    private let begin: Call
    private let end: Call
    private let reset: Call
    private let read: Read

    /// The shim's functions, or nil when it is not loaded in this process.
    /// - Thread: [any]
    public init?() {
        let symbols = ["alloc_counter_begin", "alloc_counter_end", "alloc_counter_reset", "alloc_counter_read"].map { (name: String) in
            dlsym(UnsafeMutableRawPointer(bitPattern: 0), name)
        }
        guard let found = symbols as? [UnsafeMutableRawPointer] else { return nil }
        begin = unsafeBitCast(found[0], to: Call.self)
        end = unsafeBitCast(found[1], to: Call.self)
        reset = unsafeBitCast(found[2], to: Call.self)
        read = unsafeBitCast(found[3], to: Read.self)
    }

    /// Counts what `body` does on this thread.
    func counting(_ body: () -> Void) {
        begin()
        body()
        end()
    }

    /// Zeroes the counts.
    func zero() { reset() }

    /// What was counted since the last ``zero()``.
    func counts() -> Counts {
        var counts = Counts()
        withUnsafeMutableBytes(of: &counts) { read($0.baseAddress!) }
        return counts
    }
}
