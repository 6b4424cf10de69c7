import Glibc

/// What the AllocCounter shim counted (the layout of `alloc_counter_counts`).
struct Counts {
    var mallocs: UInt64 = 0, callocs: UInt64 = 0, reallocs: UInt64 = 0, frees: UInt64 = 0
    var retains: UInt64 = 0, releases: UInt64 = 0, locks: UInt64 = 0, syscalls: UInt64 = 0
}

/// The shim's entry points, found in the preloaded library.
/// - Thread: [any] (the shim counts per thread).
struct Shim {
    typealias Void0 = @convention(c) () -> Void
    typealias Read = @convention(c) (UnsafeMutableRawPointer) -> Void
    let begin: Void0, end: Void0, reset: Void0, read: Read

    init?() {
        guard let begin = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "alloc_counter_begin"),
              let end = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "alloc_counter_end"),
              let reset = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "alloc_counter_reset"),
              let read = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "alloc_counter_read") else { return nil }
        self.begin = unsafeBitCast(begin, to: Void0.self)
        self.end = unsafeBitCast(end, to: Void0.self)
        self.reset = unsafeBitCast(reset, to: Void0.self)
        self.read = unsafeBitCast(read, to: Read.self)
    }

    func counts() -> Counts {
        var counts = Counts()
        withUnsafeMutableBytes(of: &counts) { read($0.baseAddress!) }
        return counts
    }
}
