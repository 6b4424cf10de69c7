#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A monotonic clock in nanoseconds (`clock_gettime(CLOCK_MONOTONIC)`, a vDSO call: no
/// allocation, no lock, no blocking).
/// - Thread: [any]
enum MonotonicClock {
    @inline(__always)
    static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}
