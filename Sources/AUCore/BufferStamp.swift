import Synchronization

/// Names one placement of a caller's buffers: a caller that hands a unit the same channel
/// pointers cycle after cycle passes the same nonzero stamp in ``ProcessContext/buffersStamp``
/// each time, and takes a new stamp whenever a pointer changes. A unit that binds buffers to
/// its ports (LV2 `connect_port`) then re-binds only when the stamp differs from the one it
/// bound with, instead of comparing every pointer every cycle (on the reference chain those
/// comparisons were three cache misses per plugin; docs/BENCHMARKS.md). 0 promises nothing.
/// - Thread: [any]; ``next()`` is lock-free.
public enum BufferStamp {
    private static let last = Atomic<UInt64>(0)

    /// A stamp no caller in this process got before (never 0).
    /// - Thread: [any]
    public static func next() -> UInt64 {
        last.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
